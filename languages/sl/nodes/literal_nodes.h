#ifndef MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_

// Constants: number and string literals, and function literals (a non-local
// identifier denotes the canonical function of that name, sl_spec §6.1).
// The value is compilation-final: nodes are root-allocated, so the collector
// keeps a literal's string alive.

#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_function.h"

namespace morel::sl {

class SLConstantNode final : public SLExpressionNode {
 public:
  MOREL_NODE_KIND(SLConstantNode)
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLConstantNode(SourceSection section, Value value)
      : SLExpressionNode(std::move(section)), value_(value) {
    set_constant_leaf(value);
  }
  Value Execute(Frame&) override { return value_; }
  Value value() const { return value_; }

 private:
  Value value_;
};

// A function literal of shared code (sl_shared_code.h): the function named
// `id` in the context running on this thread, its entry in `ids`'
// current_table(): two loads, interpreted or compiled (the code serves
// every context of the engine, so the function is no constant).
class SLFunctionLiteralNode final : public SLExpressionNode {
 public:
  MOREL_NODE_KIND(SLFunctionLiteralNode)
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLFunctionLiteralNode(SourceSection section, const FunctionIds* ids, int id)
      : SLExpressionNode(std::move(section)), ids_(ids), id_(id) {}
  Value Execute(Frame&) override;

 private:
  const FunctionIds* ids_;
  int id_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_
