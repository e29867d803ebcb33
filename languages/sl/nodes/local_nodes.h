#ifndef MOREL_LANGUAGES_SL_NODES_LOCAL_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_LOCAL_NODES_H_

// Local variables: frame slots resolved at parse time (sl_spec §4.1).
// Writes record the slot's kind in the frame descriptor (a speculation the
// compiler reads). Reading a slot before its first assignment is a guest
// error "Uninitialized local variable: <name> at <source> line L col C"
// (IMPL-DEFINED in the reference, which fails internally).

#include <atomic>
#include <memory>
#include <type_traits>

#include "languages/sl/nodes/sl_node.h"
#include "nodes/bytecode/bytecode_operation.h"

namespace morel::sl {

class SLReadLocalNode;
[[noreturn]] void ThrowUninitializedLocal(const SLReadLocalNode& node, const Frame& frame,
                                          int slot);

class SLReadLocalNode final : public SLExpressionNode, public bytecode::BytecodeOperation {
 public:
  SL_EXPRESSION_NODE(SLReadLocalNode)
  // The operation of bytecode's load.local.checked, which runs it only for
  // an unassigned slot (never compiled: compiled code deoptimizes first).
  Value ExecuteOperation(Frame& frame, absl::Span<const Value>) override { return Execute(frame); }
  SLReadLocalNode(SourceSection section, int slot)
      : SLExpressionNode(std::move(section)), slot_(slot) {
    set_local_leaf(slot);
  }
  // Unassigned: the interpreter reports the error (compiled code
  // deoptimizes to here).
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return x.AssignedLocal(slot_,
                           [&](auto& frame) { ThrowUninitializedLocal(*this, frame, slot_); });
  }
  int slot() const { return slot_; }

 private:
  int slot_;
};

// (Bytecode writes locals with store.local, nodes/bytecode/bytecode.h.)
class SLWriteLocalNode final : public SLExpressionNode {
 public:
  SL_EXPRESSION_NODE(SLWriteLocalNode)
  SLWriteLocalNode(SourceSection section, int slot, std::unique_ptr<SLExpressionNode> value)
      : SLExpressionNode(std::move(section)), slot_(slot), value_(std::move(value)) {
    set_write_local();
  }
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    typename X::V value = x.Execute(value_);
    if constexpr (std::is_same_v<X, Interpreting>) {
      // A new kind: out of line, returning what this returns, so that no
      // value of this path lives across a call (GCC had saved five
      // registers for the inline record). (The template form, taking x for
      // every interpreting context, made loop 1.6% slower: x in memory.)
      if (FrameDescriptor::KindOf(value) != recorded_kind_.load(std::memory_order_relaxed))
          [[unlikely]] {
        return RecordKindAndSet(x.frame(), value);
      }
    } else if constexpr (X::InInterpreter()) {
      RecordKind(x.frame(), value);
    }
    x.SetLocal(slot_, value);
    return value;
  }
  MOREL_CHILDREN(value_)
  int slot() const { return slot_; }

 private:
  // The descriptor's kind only ever widens, so once this node recorded a
  // kind it need not touch the (shared) descriptor for it again.
  MOREL_SLOW_PATH Value RecordKindAndSet(Frame& frame, Value value) {
    RecordKind(frame, value);
    frame.Set(slot_, value);
    return value;
  }
  void RecordKind(Frame& frame, Value value) {
    FrameSlotKind kind = FrameDescriptor::KindOf(value);
    if (kind != recorded_kind_.load(std::memory_order_relaxed)) {
      frame.descriptor().RecordWrite(slot_, value);
      recorded_kind_.store(kind, std::memory_order_relaxed);
    }
  }

  int slot_;
  Child<SLExpressionNode> value_;
  std::atomic<FrameSlotKind> recorded_kind_{FrameSlotKind::kIllegal};
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_LOCAL_NODES_H_
