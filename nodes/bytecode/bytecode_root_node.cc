#include "nodes/bytecode/bytecode_root_node.h"

#include <climits>
#include <cstdint>
#include <utility>

#include "base/check.h"
#include "nodes/call_target.h"
#include "nodes/loop_node.h"
#include "nodes/node_runtime.h"

namespace morel::bytecode {
namespace {

// The back edges of one activation: reported to the call target as loop
// iterations every kReportInterval and when the activation leaves (also by
// a guest error), as LoopNode reports its iterations; their total paces the
// OSR polls.
class BackEdgeReporter {
 public:
  static constexpr int kReportInterval = 1024;
  explicit BackEdgeReporter(Node& root) : root_(root) {}
  ~BackEdgeReporter() {
    if (pending_ > 0) LoopNode::ReportLoopCount(root_, pending_);
  }
  // Counts a back edge; returns the activation's back edges so far.
  int64_t Count() {
    if (++pending_ == kReportInterval) {
      LoopNode::ReportLoopCount(root_, pending_);
      pending_ = 0;
    }
    return ++total_;
  }

 private:
  Node& root_;
  int pending_ = 0;
  int64_t total_ = 0;
};

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

int BytecodeRootNode::OsrPollMask(NodeRuntime& runtime) {
  int mask = osr_poll_mask_.load(std::memory_order_relaxed);
  if (mask == kUnknownMask) {
    mask = runtime.OsrPollMask();
    osr_poll_mask_.store(mask, std::memory_order_relaxed);
  }
  return mask;
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
  // start when next_child is: operations take three words): the stack
  // below its operands, then its result.
  const int bci = next_child - 1;
  MOREL_CHECK_MSG(bci >= 0 && bci < size && stack_height(bci) >= 0 &&
                      static_cast<Opcode>(program_.code[bci]) == Opcode::kOperation &&
                      sp == stack_height(bci) - Pops(program_.code, bci) + 1,
                  "bytecode resumed at no instruction, or with a stack of the "
                  "wrong height");
  restore();
  return Outcome::OfValue(Dispatch(frame, bci + Length(Opcode::kOperation), sp));
}

// The interpreter loop. `stack` is the frame's operand stack, `sp` its
// height; operands stay in the frame until the instruction that consumes
// them is done (a collection during an operation sees them).
Value BytecodeRootNode::Dispatch(Frame& frame, int bci, int sp) {
  const int32_t* code = program_.code.data();
  const Value* constants = program_.constants.data();
  Value* stack = frame.slot_storage() + stack_base();
  const absl::Span<const Value> arguments = frame.arguments();
  NodeRuntime* runtime = call_target() != nullptr ? call_target()->runtime() : nullptr;
  const int osr_mask = runtime != nullptr ? OsrPollMask(*runtime) : -1;
  BackEdgeReporter back_edges(*this);
  for (;;) {
    switch (static_cast<Opcode>(code[bci])) {
      case Opcode::kConstant:
        stack[sp++] = constants[code[bci + 1]];
        bci += 2;
        break;
      case Opcode::kArgument: {
        const size_t index = static_cast<size_t>(code[bci + 1]);
        stack[sp++] = index < arguments.size() ? arguments[index] : constants[code[bci + 2]];
        bci += 3;
        break;
      }
      case Opcode::kLoadLocal:
        stack[sp++] = frame.Get(code[bci + 1]);
        bci += 2;
        break;
      case Opcode::kStoreLocal:
        frame.Set(code[bci + 1], stack[--sp]);
        bci += 2;
        break;
      case Opcode::kPop:
        --sp;
        bci += 1;
        break;
      case Opcode::kDup:
        stack[sp] = stack[sp - 1];
        ++sp;
        bci += 1;
        break;
      case Opcode::kBranch: {
        const int target = code[bci + 1];
        if (target <= bci) {  // a back edge
          const int64_t count = back_edges.Count();
          if (runtime != nullptr && runtime->SafepointRequested()) [[unlikely]] {
            runtime->OnSafepoint();
          }
          if (osr_mask >= 0 && (count & osr_mask) == 0) [[unlikely]] {
            // The operand stack of `target` is in the frame (sp values, the
            // builder's height there); OSR code may run the rest of the
            // call target from it.
            Value result;
            if (runtime->PollBytecodeOSR(*this, target, frame,
                                         count > INT_MAX ? INT_MAX : static_cast<int>(count),
                                         &result)) {
              return result;
            }
          }
        }
        bci = target;
        break;
      }
      case Opcode::kBranchFalse:
        bci = stack[--sp].AsBoolean() ? bci + 2 : code[bci + 1];
        break;
      case Opcode::kBranchTrue:
        bci = stack[--sp].AsBoolean() ? code[bci + 1] : bci + 2;
        break;
      case Opcode::kReturn:
        return stack[--sp];
      case Opcode::kOperation: {
        BytecodeOperation* op = operation(code[bci + 1]);
        const int n = code[bci + 2];
        sp -= n;
        stack[sp] = op->ExecuteOperation(frame, absl::Span<const Value>(stack + sp, n));
        ++sp;
        bci += 3;
        break;
      }
    }
  }
}

}  // namespace morel::bytecode
