#ifndef MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_

// Constants: number and string literals, and function literals (a non-local
// identifier denotes the canonical function of that name, sl_spec §6.1).
// The value is compilation-final: nodes are root-allocated, so the collector
// keeps a literal's string alive.

#include <atomic>

#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_function.h"
#include "nodes/bytecode/bytecode_operation.h"

namespace morel::sl {

class SLConstantNode final : public SLConstantLeaf {
 public:
  SL_EXPRESSION_NODE(SLConstantNode)
  SLConstantNode(SourceSection section, Value value) : SLConstantLeaf(std::move(section), value) {}
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return x.Constant(value());
  }
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
  SL_EXPRESSION_NODE(SLFunctionLiteralNode)
  MOREL_OPERATION_METHODS(SLFunctionLiteralNode)
  SLFunctionLiteralNode(SourceSection section, FunctionIds* ids, int id)
      : SLExpressionNode(std::move(section)), ids_(ids), id_(id) {}
  // The table's address and entries change only in calls (a context
  // entered, a source parsed), and calls forget loaded memory; each load
  // has a region of its own.
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    if constexpr (!X::InInterpreter()) {
      // One context so far: its function, for good, unless a second
      // context comes (which invalidates this code).
      SLFunction* only = single_context_function_.load(std::memory_order_acquire);
      if (only != nullptr && ids_->single_context()->IsValid() &&
          x.Assume(ids_->single_context())) {
        return x.Constant(only->AsValue());
      }
    }
    auto table = x.LoadPointer(ids_->current_table_address(), "SL current function table");
    if constexpr (X::InInterpreter()) CheckInContext(table);
    auto function = x.LoadPointerAt(table, id_, "SL function table entries");
    if constexpr (X::InInterpreter()) {
      if (single_context_function_.load(std::memory_order_relaxed) == nullptr &&
          ids_->single_context()->IsValid()) [[unlikely]] {
        single_context_function_.store(function, std::memory_order_release);
      }
    }
    return x.BoxPointer(function, kFunctionTag);
  }

 private:
  static void CheckInContext(SLFunction* const* table);

  FunctionIds* ids_;
  int id_;
  // The function the interpreter found while ids_->single_context() held
  // (the only context's, for good): compiled code makes it a constant
  // under that assumption, as single-context code's literals are.
  std::atomic<SLFunction*> single_context_function_{nullptr};
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_LITERAL_NODES_H_
