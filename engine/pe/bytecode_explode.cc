// Partial evaluation of a bytecode root: merge explosion (Truffle's
// @ExplodeLoop(kind = MERGE_EXPLODE) over a bytecode dispatch loop).
//
// The code and the operations are constants of the compilation, so the
// dispatch loop unrolls completely: each reachable instruction is emitted
// once, in bci order, with its operand stack as a compile-time list of SSA
// values. A branch target is a merge: a block whose parameters are every
// local and the operand stack there (the builder guarantees one height per
// bci), so the states of all predecessors meet in block parameters -- a
// loop header's included, whose back edge jumps to it later.
//
// Frame states: the root's path entry resumes at a bci with the operand
// stack as its done values (SetResumePosition); an operation's own entry
// holds its operands (CompiledOperation). BytecodeRootNode::Resume documents
// both forms. A back edge's safepoint resumes at the branch's target.
//
// Bytecode OSR (osr::BytecodeOsrRootNode) explodes the same code from an
// entry bci, a loop header: the entry block loads the activation's locals
// and the header's operand stack from its frame and jumps to the header's
// merge; only instructions reachable from there are emitted, and `return`
// returns the function's result. Frame states are the same (a
// deoptimization resumes the function's activation on its frame,
// engine/runtime).

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "engine/pe/compiled_operation.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/pe_context.h"
#include "nodes/bytecode/bytecode.h"
#include "nodes/bytecode/bytecode_root_node.h"

namespace morel::pe {

namespace {

std::vector<ir::Value*> Flatten(const std::vector<PeValue>& stack) {
  std::vector<ir::Value*> values;
  values.reserve(stack.size() * 2);
  for (const PeValue& v : stack) {
    values.push_back(v.payload);
    values.push_back(v.tag);
  }
  return values;
}

std::vector<PeValue> Unflatten(const std::vector<ir::Value*>& values) {
  std::vector<PeValue> stack;
  stack.reserve(values.size() / 2);
  for (size_t i = 0; i + 1 < values.size(); i += 2) stack.push_back({values[i], values[i + 1]});
  return stack;
}

}  // namespace

absl::Status PartialEvaluator::EvaluateBytecode(bytecode::BytecodeRootNode& root, int osr_entry_bci,
                                                absl::Span<const ValueTag> osr_entry_tags) {
  using bytecode::Opcode;
  const absl::Span<const int32_t> code = root.code();
  const int size = static_cast<int>(code.size());
  const bool osr_entry = osr_entry_bci >= 0;
  MOREL_CHECK_MSG(!osr_entry || (osr_entry_bci < size && root.stack_height(osr_entry_bci) >= 0),
                  "bytecode OSR from no reachable instruction");

  // The instructions to emit: those reachable from bci 0 (the builder's
  // stack heights), or from the OSR entry.
  std::vector<bool> reachable(size, false);
  if (!osr_entry) {
    for (int bci : bytecode::Bcis(code)) reachable[bci] = root.stack_height(bci) >= 0;
  } else {
    std::vector<int> work = {osr_entry_bci};
    reachable[osr_entry_bci] = true;
    while (!work.empty()) {
      const int bci = work.back();
      work.pop_back();
      const Opcode op = static_cast<Opcode>(code[bci]);
      for (int next : {bytecode::EndsBlock(op) ? -1 : bci + bytecode::Length(op),
                       bytecode::BranchTarget(code, bci)}) {
        if (next < 0 || reachable[next]) continue;
        reachable[next] = true;
        work.push_back(next);
      }
    }
  }

  // A merge at every target of a reachable branch, and at the OSR entry.
  std::vector<int> merge_of(size, -1);
  std::vector<Merge> merges;
  auto add_merge = [&](int target) {
    if (merge_of[target] >= 0) return;
    merge_of[target] = static_cast<int>(merges.size());
    merges.push_back(NewMerge(2 * root.stack_height(target)));
  };
  for (int bci : bytecode::Bcis(code)) {
    const int target = bytecode::BranchTarget(code, bci);
    if (target >= 0 && reachable[bci]) add_merge(target);
  }
  if (osr_entry) add_merge(osr_entry_bci);

  Enter(&root);
  std::vector<PeValue> stack;
  if (osr_entry) {
    // The activation's state at the entry (a loop header the interpreter
    // was about to run): its locals and operand stack, from its frame.
    stack = EnterBytecodeOsr(root.stack_base(), root.stack_height(osr_entry_bci));
    // A deoptimization here resumes the interpreter at the entry.
    SetResumePosition(osr_entry_bci, stack);
    SpeculateOsrEntryTags(osr_entry_tags);
    JumpTo(merges[merge_of[osr_entry_bci]], Flatten(stack));
  }
  auto pop = [&stack] {
    PeValue top = stack.back();
    stack.pop_back();
    return top;
  };
  // A conditional branch at `bci` on `value` (the language guarantees a
  // Boolean, bytecode.h) to `target_bci` if it is `branch_if`, with the
  // stack as it is after the branch.
  auto conditional = [&](int bci, PeValue value, int target_bci, bool branch_if) {
    ir::Value* condition = context().AsBoolean(value);
    Merge& target = merges[merge_of[target_bci]];
    ir::Block* fall_through = builder_.CreateBlock();
    if (target_bci <= bci) {
      // A conditional back edge: its safepoint (resuming at the loop's
      // next iteration) on the taken edge only.
      ir::Block* back_edge = builder_.CreateBlock();
      if (branch_if) {
        builder_.Br(condition, back_edge, {}, fall_through, {});
      } else {
        builder_.Br(condition, fall_through, {}, back_edge, {});
      }
      builder_.SetInsertionPoint(back_edge);
      SetResumePosition(target_bci, stack);
      BackEdge();
      JumpTo(target, Flatten(stack));
    } else {
      std::vector<ir::Value*> taken = MergeArguments(Flatten(stack));
      if (branch_if) {
        builder_.Br(condition, target.block, taken, fall_through, {});
      } else {
        builder_.Br(condition, fall_through, {}, target.block, taken);
      }
    }
    builder_.SetInsertionPoint(fall_through);
  };
  for (int bci = 0; bci < size;) {
    const Opcode op = static_cast<Opcode>(code[bci]);
    const int next = bci + bytecode::Length(op);
    if (!reachable[bci]) {
      bci = next;
      continue;
    }
    if (merge_of[bci] >= 0) {
      Merge& merge = merges[merge_of[bci]];
      if (!Terminated()) JumpTo(merge, Flatten(stack));
      stack = Unflatten(Continue(merge));
    } else if (Terminated()) {
      // Only after an operation that always deoptimizes (its value is a
      // placeholder): the rest of the straight line is dead code.
      ContinueInDeadBlock();
    }
    MOREL_CHECK_MSG(static_cast<int>(stack.size()) == root.stack_height(bci),
                    "bytecode operand stack height differs from the builder's");
    switch (op) {
      case Opcode::kConstant:
        stack.push_back(Constant(root.constant(code[bci + 1])));
        break;
      case Opcode::kArgument:
        stack.push_back(Argument(code[bci + 1], root.constant(code[bci + 2])));
        break;
      case Opcode::kArgumentStore:
        SetLocal(code[bci + 3], Argument(code[bci + 1], root.constant(code[bci + 2])));
        break;
      case Opcode::kLoadLocal:
        stack.push_back(Local(code[bci + 1]));
        break;
      case Opcode::kLoadLocalChecked:
        // An uninitialized read deoptimizes to this bci, where the
        // interpreter runs the instruction's operation (the language's error).
        SetResumePosition(bci, stack);
        stack.push_back(AssignedLocal(code[bci + 1]));
        break;
      case Opcode::kStoreLocal:
        SetLocal(code[bci + 1], pop());
        break;
      case Opcode::kPop:
        stack.pop_back();
        break;
      case Opcode::kDup:
        stack.push_back(stack.back());
        break;
      case Opcode::kBranch: {
        const int target = code[bci + 1];
        if (target <= bci) {
          // The safepoint's state resumes at the loop's next iteration.
          SetResumePosition(target, stack);
          BackEdge();
        }
        JumpTo(merges[merge_of[target]], Flatten(stack));
        break;
      }
      case Opcode::kBranchFalse:
      case Opcode::kBranchTrue: {
        PeValue condition = pop();
        conditional(bci, condition, code[bci + 1], op == Opcode::kBranchTrue);
        break;
      }
      case Opcode::kReturn:
        Return(pop());
        break;
      case Opcode::kReturnLocal:
        Return(Local(code[bci + 1]));
        break;
      default: {
        MOREL_CHECK_MSG(bytecode::IsOperation(op), "an opcode partial evaluation does not know");
        const bytecode::OperationInstruction instruction = bytecode::DecodeOperation(code, bci);
        const int index = instruction.operation;
        // The fused operands, as load.local and constant would push them.
        for (int i = 0; i < instruction.local_count; ++i) {
          stack.push_back(Local(instruction.locals[i]));
        }
        if (instruction.constant >= 0) {
          stack.push_back(Constant(root.constant(instruction.constant)));
        }
        const int count = instruction.operand_count();
        auto* operation = dynamic_cast<CompiledOperation*>(root.operation_node(index));
        if (operation == nullptr) {
          Leave();
          return absl::UnimplementedError(
              absl::StrCat("bytecode operation ", root.operation_node(index)->kind_name(),
                           " cannot be compiled (it implements no pe::CompiledOperation)"));
        }
        std::vector<PeValue> operands(stack.end() - count, stack.end());
        stack.resize(stack.size() - count);
        // While the operation runs, the root waits for instruction bci's
        // result with the stack below its operands.
        SetResumePosition(bci, stack);
        PeValue result = operation->PartialEvaluateOperation(*this, operands);
        if (failed()) {
          Leave();
          return absl::OkStatus();  // Run() reports the bailout
        }
        if (instruction.store_slot >= 0) {
          SetLocal(instruction.store_slot, result);  // the fused store.local
        } else if (instruction.branch_target >= 0) {
          // The fused branch.false or branch.true (in a dead block after an
          // operation that always deoptimizes, as the unfused branch would be).
          if (Terminated()) ContinueInDeadBlock();
          conditional(bci, result, instruction.branch_target, instruction.branch_if);
        } else {
          stack.push_back(result);
        }
        break;
      }
    }
    bci = next;
  }
  Leave();
  return absl::OkStatus();
}

}  // namespace morel::pe
