#ifndef MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_

// Constants: number and string literals, and function literals (a non-local
// identifier denotes the canonical function of that name, sl_spec §6.1).
// The value is compilation-final: nodes are root-allocated, so the collector
// keeps a literal's string alive.

#include <atomic>

#include "engine/pe/compiled_operation.h"
#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_function.h"
#include "nodes/bytecode/bytecode_operation.h"

namespace morel::sl {

class SLConstantNode final : public SLExpressionNode {
 public:
  SL_EXPRESSION_NODE(SLConstantNode)
  SLConstantNode(SourceSection section, Value value)
      : SLExpressionNode(std::move(section)), value_(value) {
    set_constant_leaf(value);
  }
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return x.Constant(value_);
  }
  Value value() const { return value_; }

 private:
  Value value_;
};

// A function literal of shared code (sl_shared_code.h): the function named
// `id` in the context running on this thread, its entry in `ids`'
// current_table(): two loads, interpreted or compiled (the code serves
// every context of the engine, so the function is no constant) -- unless
// only one context has ever used the code (FunctionIds::single_context()).
class SLFunctionLiteralNode final : public SLExpressionNode,
                                    public bytecode::BytecodeOperation,
                                    public pe::CompiledOperation {
 public:
  MOREL_NODE_KIND(SLFunctionLiteralNode)
  Value ExecuteOperation(Frame& frame, absl::Span<const Value>) override { return Execute(frame); }
  pe::PeValue PartialEvaluateOperation(pe::PartialEvaluator& pe,
                                       absl::Span<const pe::PeValue>) override;
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLFunctionLiteralNode(SourceSection section, FunctionIds* ids, int id)
      : SLExpressionNode(std::move(section)), ids_(ids), id_(id) {}
  Value Execute(Frame&) override;

 private:
  FunctionIds* ids_;
  int id_;
  // The function the interpreter found while ids_->single_context() held
  // (the only context's, for good): compiled code makes it a constant
  // under that assumption, as single-context code's literals are.
  std::atomic<SLFunction*> single_context_function_{nullptr};
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_
