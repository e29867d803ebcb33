// SL nodes in compiled code: each node's PartialEvaluate (engine/pe).
//
// Every node brackets its evaluation with Enter/Leave and reports its
// finished children, in the child numbering of its Resume (nodes/resume.h),
// so that a deoptimization anywhere resumes the interpreter at the same
// node with the values computed so far. Operators go through their
// specializers with PeContext; the rest is control flow.
//
// Every SL node compiles; nothing bails out. A direct call to a builtin
// that writes its caller's frame (helloEqualsWorld) compiles to a transfer
// to the interpreter, keeping the code (PeContext::CallDirect): the
// interpreter makes that call.

#include "absl/strings/str_cat.h"
#include "engine/pe/compiled_operation.h"
#include "engine/pe/pe_context.h"
#include "languages/sl/nodes/comparison_nodes.h"
#include "languages/sl/nodes/invoke_node.h"
#include "languages/sl/nodes/literal_nodes.h"
#include "languages/sl/nodes/logical_nodes.h"
#include "languages/sl/nodes/property_nodes.h"
#include "languages/sl/runtime/sl_function.h"
#include "languages/sl/runtime/values.h"

namespace morel::sl {

using pe::PartialEvaluator;
using pe::PeValue;

PeValue SLExpressionNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Bailout(absl::StrCat(kind_name(), " is not supported in compiled code"));
  return pe.Constant(NullValue());
}

void SLStatementNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Bailout(absl::StrCat(kind_name(), " is not supported in compiled code"));
}

PeValue SLFunctionLiteralNode::PartialEvaluate(PartialEvaluator& pe) {
  // Shared code: the function depends on the context running it, whose
  // table the FunctionIds points to (Execute's two loads). The table's
  // address and entries change only in calls (a context entered, a source
  // parsed), and calls forget loaded memory. Each load has a region of its
  // own: nothing else in compiled code touches either.
  if (SLFunction* only = single_context_function_.load(std::memory_order_acquire)) {
    // One context so far: its function, for good, unless a second context
    // comes (which invalidates this code).
    if (ids_->single_context()->IsValid() && pe.Assume(ids_->single_context())) {
      return pe.Constant(only->AsValue());
    }
  }
  static const ir::AliasClass* const kCurrentTable =
      ir::AliasClass::Get("SL current function table");
  static const ir::AliasClass* const kTableEntries =
      ir::AliasClass::Get("SL function table entries");
  ir::Builder& b = pe.builder();
  ir::Value* table =
      b.Load(ir::Type::kPtr, b.PConst(reinterpret_cast<uint64_t>(ids_->current_table_address())), 0,
             kCurrentTable);
  ir::Value* function =
      b.Load(ir::Type::kPtr, table, static_cast<int32_t>(id_ * sizeof(SLFunction*)), kTableEntries);
  return PeValue{b.Convert(ir::Opcode::kBitcast, ir::Type::kI64, function),
                 b.I64(static_cast<int64_t>(kFunctionTag))};
}

// ------------------------------------------------- bytecode operations
//
// The same code on operands from the operand stack
// (engine/pe/compiled_operation.h): each operation reports its operands as
// done children, so its Resume runs its operator on them.

PeValue SLFunctionLiteralNode::PartialEvaluateOperation(PartialEvaluator& pe,
                                                        absl::Span<const PeValue>) {
  return PartialEvaluate(pe);
}

}  // namespace morel::sl
