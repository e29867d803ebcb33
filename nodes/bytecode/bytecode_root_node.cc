#include "nodes/bytecode/bytecode_root_node.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "base/check.h"
#include "nodes/call_target.h"
#include "nodes/directives.h"
#include "nodes/loop_node.h"
#include "nodes/node_runtime.h"

namespace morel::bytecode {
namespace {

// The back edges of one activation. Counted in a local (one increment and
// compare per back edge) and handed out in batches: to the call target as
// loop iterations (at most every kReportInterval, and when the activation
// leaves, also by a guest error, as LoopNode reports its iterations) and to
// the root's OSR back-edge counter, each batch ending where the next OSR
// poll may come due (BytecodeOSRNode::BackEdgesUntilPoll), so that polls
// fall on the same back edges as with a poll per back edge.
class BackEdgeCounter {
 public:
  static constexpr int kReportInterval = 1024;
  explicit BackEdgeCounter(BytecodeRootNode& root) : root_(root), limit_(NextLimit()) {}
  ~BackEdgeCounter() {
    if (pending_ == 0) return;
    LoopNode::ReportLoopCount(root_, pending_);
    // Fewer than BackEdgesUntilPoll: no poll can be due.
    BytecodeOSRNode::CountOSRBackEdges(root_, pending_);
  }
  // Counts a back edge; true when the batch is complete (then Flush()).
  bool Count() { return ++pending_ >= limit_; }
  // The next batch ends where the next poll may come due (after TryOSR,
  // which may have reset the method's count).
  void Rearm() { limit_ = NextLimit(); }
  // Hands the batch out; returns whether an OSR poll is due.
  bool Flush() {
    const int batch = pending_;
    pending_ = 0;
    LoopNode::ReportLoopCount(root_, batch);
    const bool due = BytecodeOSRNode::PollOSRBackEdge(root_, batch);
    limit_ = NextLimit();
    return due;
  }

 private:
  int NextLimit() const {
    return static_cast<int>(
        std::min<int64_t>(BytecodeOSRNode::BackEdgesUntilPoll(root_), kReportInterval));
  }

  BytecodeRootNode& root_;
  int pending_ = 0;
  int limit_;
};

// A batch of back edges is complete (BackEdgeCounter::Count): hands it out
// and, when an OSR poll is due, tries OSR from `target` with the operand
// stack's height `height`. True when OSR code ran the rest of the call
// target (then `*result` is its result). Out of line: the interpreter loop
// keeps only the count and the compare.
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

// store.local: widens the slot's kind in the frame descriptor (as a
// language's write node does), then stores. Also the fused forms' store.
inline void StoreLocal(const FrameDescriptor& descriptor, Value* locals, int slot, Value value) {
  descriptor.RecordWrite(slot, value);
  locals[slot] = value;
}

}  // namespace

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
  set_extra_frame_slots(program_.max_stack);
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
    if (operation_slots_[k]->get() == &new_child) operations_[k] = replacement;
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
  // start when next_child is: operations take three or four words): the
  // stack below its operands, then its result.
  const int bci = next_child - 1;
  MOREL_CHECK_MSG(bci >= 0 && bci < size && stack_height(bci) >= 0 &&
                      IsOperation(static_cast<Opcode>(program_.code[bci])) &&
                      sp == stack_height(bci) - Pops(program_.code, bci) + 1,
                  "bytecode resumed at no instruction, or with a stack of the "
                  "wrong height");
  restore();
  const int next = bci + Length(static_cast<Opcode>(program_.code[bci]));
  if (const int slot = DecodeOperation(program_.code, bci).store_slot; slot >= 0) {
    // The fused store.local's part.
    StoreLocal(frame.descriptor(), frame.slot_storage(), slot, stack[sp - 1]);
    return Outcome::OfValue(Dispatch(frame, next, sp - 1));
  }
  return Outcome::OfValue(Dispatch(frame, next, sp));
}

// The interpreter loop. `ip` points at the instruction, `sp` past the top
// of the operand stack, which is the frame's (`stack`); operands stay in the
// frame until the instruction that consumes them is done (a collection
// during an operation sees them).
Value BytecodeRootNode::Dispatch(Frame& frame, int bci, int height) {
  const int32_t* const code = program_.code.data();
  const int32_t* ip = code + bci;
  const Value* const constants = program_.constants.data();
  Value* const locals = frame.slot_storage();
  Value* const stack = locals + stack_base();
  Value* sp = stack + height;
  const FrameDescriptor& descriptor = frame.descriptor();
  const absl::Span<const Value> arguments = frame.arguments();
  NodeRuntime* runtime = call_target() != nullptr ? call_target()->runtime() : nullptr;
  BackEdgeCounter back_edges(*this);
  // A taken branch to `target` at or before it: a loop's back edge. Polls
  // the safepoint and counts toward OSR; true when OSR code ran the rest of
  // the call target from `target`, whose operand stack (`height` values)
  // is in the frame: then `*result` is the call target's result.
  auto back_edge = [this, runtime, &back_edges, &frame](int target, int height, Value* result) {
    if (runtime != nullptr && runtime->SafepointRequested()) [[unlikely]] {
      runtime->OnSafepoint();
    }
    if (back_edges.Count()) [[unlikely]] {
      return FlushBackEdges(back_edges, *this, target, height, frame, result);
    }
    return false;
  };
  // Threaded dispatch: each instruction jumps to the next one's handler
  // through this table (one indirect jump per handler, which predicts
  // better than one shared switch), indexed by opcode in the order of
  // MOREL_BYTECODES.
#define MOREL_BYTECODE_HANDLER(name, mnemonic, operands, pops, pushes) &&handle_##name,
  static const void* const kHandlers[] = {MOREL_BYTECODES(MOREL_BYTECODE_HANDLER)};
#undef MOREL_BYTECODE_HANDLER
  static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) == kNumOpcodes);
#define MOREL_NEXT() goto* kHandlers[*ip]
  Value result;
  MOREL_NEXT();
handle_kConstant:
  *sp++ = constants[ip[1]];
  ip += 2;
  MOREL_NEXT();
handle_kArgument: {
  const size_t index = static_cast<size_t>(ip[1]);
  *sp++ = index < arguments.size() ? arguments[index] : constants[ip[2]];
  ip += 3;
  MOREL_NEXT();
}
handle_kLoadLocal:
  *sp++ = locals[ip[1]];
  ip += 2;
  MOREL_NEXT();
handle_kLoadLocalChecked: {
  Value value = locals[ip[1]];
  if (value.IsIllegal()) [[unlikely]] {
    value = operation(ip[2])->ExecuteOperation(frame, {});
  }
  *sp++ = value;
  ip += 3;
  MOREL_NEXT();
}
handle_kStoreLocal:
  StoreLocal(descriptor, locals, ip[1], *--sp);
  ip += 2;
  MOREL_NEXT();
handle_kPop:
  --sp;
  ip += 1;
  MOREL_NEXT();
handle_kDup:
  sp[0] = sp[-1];
  ++sp;
  ip += 1;
  MOREL_NEXT();
handle_kBranch: {
  const int target = ip[1];
  if (target <= ip - code &&
      back_edge(target, static_cast<int>(sp - stack), &result)) [[unlikely]] {
    return result;
  }
  ip = code + target;
  MOREL_NEXT();
}
handle_kBranchFalse:
  if ((--sp)->AsBoolean()) {
    ip += 2;
    MOREL_NEXT();
  }
  goto taken_conditional;
handle_kBranchTrue:
  if (!(--sp)->AsBoolean()) {
    ip += 2;
    MOREL_NEXT();
  }
taken_conditional: {
  const int target = ip[1];
  if (target <= ip - code &&
      back_edge(target, static_cast<int>(sp - stack), &result)) [[unlikely]] {
    return result;  // a conditional back edge
  }
  ip = code + target;
  MOREL_NEXT();
}
handle_kReturn:
  return *--sp;
handle_kOperation: {
  BytecodeOperation* op = operation(ip[1]);
  const int n = ip[2];
  sp -= n;
  *sp = op->ExecuteOperation(frame, absl::Span<const Value>(sp, n));
  ++sp;
  ip += 3;
  MOREL_NEXT();
}
// The fused forms (layouts: bytecode.h). A constant operand goes on the
// stack above the others, so the operation sees one span.
handle_kOperationConstant: {
  BytecodeOperation* op = operation(ip[1]);
  *sp++ = constants[ip[2]];
  const int n = ip[3] + 1;
  sp -= n;
  *sp = op->ExecuteOperation(frame, absl::Span<const Value>(sp, n));
  ++sp;
  ip += 4;
  MOREL_NEXT();
}
handle_kOperationStore: {
  BytecodeOperation* op = operation(ip[1]);
  const int n = ip[2];
  sp -= n;
  const Value value = op->ExecuteOperation(frame, absl::Span<const Value>(sp, n));
  StoreLocal(descriptor, locals, ip[3], value);
  ip += 4;
  MOREL_NEXT();
}
handle_kOperationConstantStore: {
  BytecodeOperation* op = operation(ip[1]);
  *sp++ = constants[ip[2]];
  const int n = ip[3] + 1;
  sp -= n;
  const Value value = op->ExecuteOperation(frame, absl::Span<const Value>(sp, n));
  StoreLocal(descriptor, locals, ip[4], value);
  ip += 5;
  MOREL_NEXT();
}
#undef MOREL_NEXT
}

}  // namespace morel::bytecode
