#include "nodes/bytecode/bytecode_root_node.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "base/check.h"
#include "nodes/bytecode/bytecode_switch.h"
#include "nodes/call_target.h"
#include "nodes/directives.h"
#include "nodes/loop_node.h"
#include "nodes/node_runtime.h"

namespace morel::bytecode {
namespace switch_internal {

MOREL_INLINING_CUTOFF bool FlushBackEdges(BackEdgeCounter& counter, BytecodeRootNode& root,
                                          int target, int height, Frame& frame, Value* result) {
  if (!counter.Flush()) return false;
  std::optional<Value> osr_result = BytecodeOSRNode::TryOSR(root, target, height, frame);
  if (osr_result.has_value()) {
    *result = *osr_result;
    return true;
  }
  counter.Rearm();
  return false;
}

void UnwindActivations(Activation* innermost) {
  Activation* outermost = innermost;
  for (Activation* record = innermost; record != nullptr; record = record->caller_record) {
    BackEdgeCounter::Report(record->caller_root(), record->back_edges_pending);
    outermost = record;
  }
  InterpreterStack::SetCurrentFrame(outermost->frame.caller());
  InterpreterStack::ForThisThread().PopTo(outermost);
}

}  // namespace switch_internal

BytecodeRootNode::BytecodeRootNode(SourceSection source_section, std::string name,
                                   std::unique_ptr<FrameDescriptor> frame_descriptor,
                                   BytecodeProgram program)
    : RootNode(std::move(source_section), std::move(name), std::move(frame_descriptor)),
      program_(std::move(program)) {
  for (OperationNode& op : program_.operations) {
    auto slot = std::make_unique<ChildSlot>();
    slot->Exchange(op.node.release());
    operation_slots_.push_back(std::move(slot));
    operations_.push_back(op.operation);
  }
  program_.operations.clear();
  quickened_code_ = program_.code;
  set_extra_frame_slots(program_.max_stack);
  stack_base_ = RootNode::frame_descriptor().size() + 1;
  frame_storage_bytes_ = sizeof(Value) * static_cast<size_t>(frame_storage_size());
  AdoptChildren();
}

void BytecodeRootNode::ForEachChild(ChildVisitor visitor) {
  for (std::unique_ptr<ChildSlot>& slot : operation_slots_) visitor(*slot);
}

void BytecodeRootNode::OnChildReplaced(Node& old_child, Node& new_child) {
  auto* replacement = dynamic_cast<BytecodeOperation*>(&new_child);
  MOREL_CHECK_MSG(replacement != nullptr,
                  "an operation of bytecode was replaced by a node that is no operation");
  for (size_t k = 0; k < operation_slots_.size(); ++k) {
    if (operation_slots_[k]->get() != &new_child) continue;
    // The generic handler first: a quickened instruction never runs an
    // operation of another class.
    SetOperationOpcodes(static_cast<int>(k), /*quicken=*/false);
    operations_[k] = replacement;
    SetOperationOpcodes(static_cast<int>(k), /*quicken=*/true);
  }
  (void)old_child;
}

const SourceSection* BytecodeRootNode::SourceAt(int bci) const {
  if (bci < 0 || bci >= static_cast<int>(program_.source_index.size())) return nullptr;
  const int index = program_.source_index[bci];
  return index < 0 ? nullptr : &program_.sources[index];
}

std::string BytecodeRootNode::Disassemble() const {
  std::function<std::string(int)> describe = [this](int k) {
    return std::string(operation_node(k)->kind_name());
  };
  return bytecode::Disassemble(program_.code, &describe);
}

Value BytecodeRootNode::Execute(Frame& frame) { return Dispatch(frame, 0, 0); }

Value BytecodeRootNode::ExecuteOSR(Frame& osr_frame, int target_bci, int64_t interpreter_state) {
  MOREL_CHECK_MSG(target_bci >= 0 && target_bci < static_cast<int>(program_.code.size()) &&
                      stack_height(target_bci) >= 0 &&
                      stack_height(target_bci) == interpreter_state,
                  "a bytecode OSR entry must be a reachable instruction with its stack height");
  return Dispatch(osr_frame, target_bci, stack_height(target_bci));
}

Outcome BytecodeRootNode::Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) {
  const int size = static_cast<int>(program_.code.size());
  Value* stack = frame.slot_storage() + stack_base();
  auto restore = [&] {
    for (size_t i = 0; i < done.size(); ++i) stack[i] = done[i].value;
  };
  const int sp = static_cast<int>(done.size());
  if (next_child >= 0 && next_child < size && stack_height(next_child) >= 0 &&
      sp == stack_height(next_child)) {
    // At an instruction, with its operand stack.
    restore();
    return Outcome::OfValue(Dispatch(frame, next_child, sp));
  }
  // After the operation at bci = next_child - 1 (never an instruction's
  // start when next_child is: operations take three to six words): the
  // stack below its operands, then its result.
  const int bci = next_child - 1;
  MOREL_CHECK_MSG(bci >= 0 && bci < size && stack_height(bci) >= 0 &&
                      IsOperation(static_cast<Opcode>(program_.code[bci])) &&
                      sp == stack_height(bci) - Pops(program_.code, bci) + 1,
                  "bytecode resumed at no instruction, or with a stack of the "
                  "wrong height");
  restore();
  const int next = bci + Length(static_cast<Opcode>(program_.code[bci]));
  const OperationInstruction instruction = DecodeOperation(program_.code, bci);
  if (instruction.store_slot >= 0) {
    // The fused store.local's part.
    switch_internal::StoreLocal(frame.descriptor(), frame.slot_storage(), instruction.store_slot,
                                stack[sp - 1]);
    return Outcome::OfValue(Dispatch(frame, next, sp - 1));
  }
  if (instruction.branch_target >= 0) {
    // The fused branch's part (a back edge taken here is not counted).
    const bool taken = stack[sp - 1].AsBoolean() == instruction.branch_if;
    return Outcome::OfValue(Dispatch(frame, taken ? instruction.branch_target : next, sp - 1));
  }
  return Outcome::OfValue(Dispatch(frame, next, sp));
}

// The generic switch: every operation through its vtable.
Value BytecodeRootNode::Dispatch(Frame& frame, int bci, int height) {
  return DispatchWith<InlinedOperations<>>(frame, bci, height);
}

void BytecodeRootNode::Quicken() { SetOperationOpcodes(/*k=*/-1, /*quicken=*/true); }

void BytecodeRootNode::SetOperationOpcodes(int k, bool quicken) {
  const std::vector<int32_t>& code = program_.code;
  for (int bci : Bcis(code)) {
    const Opcode op = static_cast<Opcode>(code[bci]);
    if (!IsOperation(op) || (k >= 0 && code[bci + 1] != k)) continue;
    const int inlined = quicken ? InlinedOperationIndex(*operations_[code[bci + 1]],
                                                        DecodeOperation(code, bci).operand_count())
                                : -1;
    int32_t opcode = code[bci];
    if (inlined >= 0) {
      MOREL_CHECK(inlined < kMaxInlinedOperations);
      opcode = QuickenedOpcode(FormOf(op), inlined);
    }
    quickened_code_[bci] = opcode;
  }
}

}  // namespace morel::bytecode
