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
#include "languages/sl/nodes/local_nodes.h"
#include "languages/sl/nodes/logical_nodes.h"
#include "languages/sl/nodes/property_nodes.h"
#include "languages/sl/nodes/statement_nodes.h"
#include "languages/sl/runtime/sl_function.h"
#include "languages/sl/runtime/values.h"

namespace morel::sl {

using pe::PartialEvaluator;
using pe::PeValue;

namespace {

// The Boolean in `value`, as i1; a non-Boolean deoptimizes (the interpreter
// then raises the toBoolean type error). The caller has reported `value` as
// done, so the interpreter resumes right after computing it.
ir::Value* ToBooleanInCompiledCode(PartialEvaluator& pe, PeValue value) {
  pe::PeContext& c = pe.context();
  if (!PartialEvaluator::HasConstantTag(value, kBooleanTag)) {
    c.Speculate(c.IsBoolean(value), "toBoolean");
  }
  return c.AsBoolean(value);
}

}  // namespace

PeValue SLExpressionNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Bailout(absl::StrCat(kind_name(), " is not supported in compiled code"));
  return pe.Constant(NullValue());
}

void SLStatementNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Bailout(absl::StrCat(kind_name(), " is not supported in compiled code"));
}

PeValue SLConstantNode::PartialEvaluate(PartialEvaluator& pe) { return pe.Constant(value_); }

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

PeValue SLReadLocalNode::PartialEvaluate(PartialEvaluator& pe) {
  // Unassigned: this node reports the error in the interpreter.
  pe.Enter(this);
  PeValue value = pe.AssignedLocal(slot_);
  pe.Leave();
  return value;
}

PeValue SLWriteLocalNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  PeValue value = value_->PartialEvaluate(pe);
  pe.Leave();
  pe.SetLocal(slot_, value);
  return value;
}

PeValue SLNotNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  PeValue operand = operand_->PartialEvaluate(pe);
  pe.Leave();
  pe::PeContext& c = pe.context();
  return c.BoxBoolean(c.Not(c.AsBoolean(operand)));
}

namespace {

// && and ||: `left` decides whether `right` runs.
PeValue ShortCircuit(PartialEvaluator& pe, Node* node, SLExpressionNode* left,
                     SLExpressionNode* right, bool is_and) {
  pe::PeContext& c = pe.context();
  pe.Enter(node);
  PeValue l = left->PartialEvaluate(pe);
  pe.DoneValue(l);
  ir::Value* decided = ToBooleanInCompiledCode(pe, l);
  auto evaluate_right = [&] {
    PeValue r = right->PartialEvaluate(pe);
    pe.DoneValue(r);
    ir::Value* result = ToBooleanInCompiledCode(pe, r);
    pe.UndoDone();
    return c.BoxBoolean(result);
  };
  auto constant = [&] { return c.BoxBoolean(c.b().Bool(!is_and)); };
  PeValue result = is_and ? c.IfElse(decided, evaluate_right, constant)
                          : c.IfElse(decided, constant, evaluate_right);
  pe.Leave();
  return result;
}

}  // namespace

PeValue SLAndNode::PartialEvaluate(PartialEvaluator& pe) {
  return ShortCircuit(pe, this, left_.get(), right_.get(), /*is_and=*/true);
}

PeValue SLOrNode::PartialEvaluate(PartialEvaluator& pe) {
  return ShortCircuit(pe, this, left_.get(), right_.get(), /*is_and=*/false);
}

PeValue SLReadPropertyNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  PeValue receiver = receiver_->PartialEvaluate(pe);
  pe.DoneValue(receiver);
  PeValue key = key_->PartialEvaluate(pe);
  pe.DoneValue(key);
  PeValue result = specializer_.PartialEvaluate(pe.context(), *this, receiver, key);
  pe.Leave();
  return result;
}

PeValue SLWritePropertyNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  PeValue receiver = receiver_->PartialEvaluate(pe);
  pe.DoneValue(receiver);
  PeValue key = key_->PartialEvaluate(pe);
  pe.DoneValue(key);
  PeValue value = value_->PartialEvaluate(pe);
  pe.DoneValue(value);
  PeValue result = specializer_.PartialEvaluate(pe.context(), *this, receiver, key, value);
  pe.Leave();
  return result;
}

PeValue SLInvokeNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  PeValue callee = callee_->PartialEvaluate(pe);
  pe.DoneValue(callee);
  std::vector<PeValue> arguments;
  arguments.reserve(arguments_.size());
  for (size_t i = 0; i < arguments_.size(); ++i) {
    PeValue argument = arguments_[i]->PartialEvaluate(pe);
    pe.DoneValue(argument);
    arguments.push_back(argument);
  }
  // The call: one alternative per cached callee (InvokeDirect: a direct
  // call of its current target, relying on its call-target-stable
  // assumption), or the indirect call (InvokeIndirect).
  PeValue result = specializer_.PartialEvaluate(pe.context(), *this, callee,
                                                absl::Span<const PeValue>(arguments));
  pe.Leave();
  return result;
}

// ---------------------------------------------------------------- statements

void SLBlockNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  for (size_t i = 0; i < body_.size(); ++i) {
    body_[i]->PartialEvaluate(pe);
    pe.DoneStatus(kNormal);
  }
  pe.Leave();
}

void SLExpressionStatementNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  expression_->PartialEvaluate(pe);
  pe.Leave();
}

void SLIfNode::PartialEvaluate(PartialEvaluator& pe) {
  ir::Builder& b = pe.builder();
  pe.Enter(this);
  PeValue condition = condition_->PartialEvaluate(pe);
  pe.DoneValue(condition);
  ir::Value* taken = ToBooleanInCompiledCode(pe, condition);
  if (std::optional<bool> known = pe::PeContext::ConstantBool(taken)) {
    // A constant condition (e.g. an inlined callee's constant argument):
    // only the arm that runs is evaluated.
    if (*known) {
      then_->PartialEvaluate(pe);
    } else if (else_) {
      else_->PartialEvaluate(pe);
    }
    pe.Leave();
    return;
  }
  ir::Block* then_block = b.CreateBlock();
  ir::Block* else_block = b.CreateBlock();
  b.Br(taken, then_block, {}, else_block, {});
  PartialEvaluator::Merge after = pe.NewMerge();
  std::vector<PeValue> locals = pe.SaveLocals();
  b.SetInsertionPoint(then_block);
  then_->PartialEvaluate(pe);
  if (!pe.Terminated()) pe.JumpTo(after);
  pe.RestoreLocals(std::move(locals));
  b.SetInsertionPoint(else_block);
  if (else_) else_->PartialEvaluate(pe);
  if (!pe.Terminated()) pe.JumpTo(after);
  pe.Continue(after);
  pe.Leave();
}

void SLWhileNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  pe.Enter(loop_.get());
  int status = loop_->repeating_node()->PartialEvaluateLoop(pe);
  pe.Leave();
  pe.Leave();
  // The loop's status at its exit is kBreak: the statement completes
  // normally (a `return` inside left through PartialEvaluator::Return).
  (void)status;
}

int SLWhileRepeatingNode::PartialEvaluateLoop(PartialEvaluator& pe) {
  ir::Builder& b = pe.builder();
  pe.Enter(this);
  PartialEvaluator::Merge header = pe.NewMerge();
  // The back edge: the end of the body and every `continue` come here;
  // compiled code polls the safepoint there and first-tier code counts the
  // iteration (BackEdge) on the way back to the header.
  PartialEvaluator::Merge back_edge = pe.NewMerge();
  PartialEvaluator::Merge exit = pe.NewMerge();
  pe.JumpTo(header);
  pe.Continue(header);
  PeValue condition = condition_->PartialEvaluate(pe);
  pe.DoneValue(condition);
  ir::Value* go_on = ToBooleanInCompiledCode(pe, condition);
  ir::Block* body_block = b.CreateBlock();
  ir::Block* leave = b.CreateBlock();
  b.Br(go_on, body_block, {}, leave, {});
  b.SetInsertionPoint(leave);
  pe.JumpTo(exit);
  b.SetInsertionPoint(body_block);
  pe.PushLoop(&back_edge, &exit);
  body_->PartialEvaluate(pe);
  pe.PopLoop();
  pe.UndoDone();
  if (!pe.Terminated()) pe.JumpTo(back_edge);
  pe.Continue(back_edge);
  pe.BackEdge();
  pe.JumpTo(header);
  pe.Continue(exit);
  pe.Leave();
  return kBreak;
}

void SLBreakNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.JumpTo(pe.loop_exit());
  pe.ContinueInDeadBlock();
}

void SLContinueNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.JumpTo(pe.loop_header());
  pe.ContinueInDeadBlock();
}

void SLDebuggerNode::PartialEvaluate(PartialEvaluator&) {}

void SLReturnNode::PartialEvaluate(PartialEvaluator& pe) {
  pe.Enter(this);
  PeValue value = value_ ? value_->PartialEvaluate(pe) : pe.Constant(NullValue());
  pe.Leave();
  pe.Return(value, kReturn);
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

PeValue SLNotNode::PartialEvaluateOperation(PartialEvaluator& pe,
                                            absl::Span<const PeValue> operands) {
  pe::PeContext& c = pe.context();
  return c.BoxBoolean(c.Not(c.AsBoolean(operands[0])));
}

PeValue SLToBooleanNode::PartialEvaluateOperation(PartialEvaluator& pe,
                                                  absl::Span<const PeValue> operands) {
  return pe::WithOperands(pe, this, operands, [&] {
    return pe.context().BoxBoolean(ToBooleanInCompiledCode(pe, operands[0]));
  });
}

PeValue SLReadPropertyNode::PartialEvaluateOperation(PartialEvaluator& pe,
                                                     absl::Span<const PeValue> operands) {
  return pe::WithOperands(pe, this, operands, [&] {
    return specializer_.PartialEvaluate(pe.context(), *this, operands[0], operands[1]);
  });
}

PeValue SLWritePropertyNode::PartialEvaluateOperation(PartialEvaluator& pe,
                                                      absl::Span<const PeValue> operands) {
  return pe::WithOperands(pe, this, operands, [&] {
    return specializer_.PartialEvaluate(pe.context(), *this, operands[0], operands[1], operands[2]);
  });
}

PeValue SLInvokeNode::PartialEvaluateOperation(PartialEvaluator& pe,
                                               absl::Span<const PeValue> operands) {
  return pe::WithOperands(pe, this, operands, [&] {
    return specializer_.PartialEvaluate(pe.context(), *this, operands[0], operands.subspan(1));
  });
}

}  // namespace morel::sl
