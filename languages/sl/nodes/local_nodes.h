#ifndef MOREL_LANGUAGES_SL_NODES_LOCAL_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_LOCAL_NODES_H_

// Local variables: frame slots resolved at parse time (sl_spec §4.1).
// Writes record the slot's kind in the frame descriptor (a speculation the
// compiler reads). Reading a slot before its first assignment is a guest
// error "Uninitialized local variable: <name> at <source> line L col C"
// (IMPL-DEFINED in the reference, which fails internally).

#include <atomic>
#include <memory>

#include "languages/sl/nodes/sl_node.h"
#include "nodes/bytecode/bytecode_operation.h"

namespace morel::sl {

class SLReadLocalNode;
[[noreturn]] void ThrowUninitializedLocal(const SLReadLocalNode& node, const Frame& frame,
                                          int slot);

class SLReadLocalNode final : public SLExpressionNode, public bytecode::BytecodeOperation {
 public:
  MOREL_NODE_KIND(SLReadLocalNode)
  // The operation of bytecode's load.local.checked, which runs it only for
  // an unassigned slot (never compiled: compiled code deoptimizes first).
  Value ExecuteOperation(Frame& frame, absl::Span<const Value>) override { return Execute(frame); }
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLReadLocalNode(SourceSection section, int slot)
      : SLExpressionNode(std::move(section)), slot_(slot) {
    set_local_leaf(slot);
  }
  Value Execute(Frame& frame) override {
    Value value = frame.Get(slot_);
    if (value.IsIllegal()) ThrowUninitializedLocal(*this, frame, slot_);
    return value;
  }
  int slot() const { return slot_; }

 private:
  int slot_;
};

// (Bytecode writes locals with store.local, nodes/bytecode/bytecode.h.)
class SLWriteLocalNode final : public SLExpressionNode {
 public:
  MOREL_NODE_KIND(SLWriteLocalNode)
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLWriteLocalNode(SourceSection section, int slot, std::unique_ptr<SLExpressionNode> value)
      : SLExpressionNode(std::move(section)), slot_(slot), value_(std::move(value)) {}
  Value Execute(Frame& frame) override { return Store(frame, Evaluate(value_.get(), frame)); }
  // Child 0: the value.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    return Outcome::OfValue(
        Store(frame, next_child > 0 ? done[0].value : Evaluate(value_.get(), frame)));
  }
  Value Store(Frame& frame, Value value) {
    // The descriptor's kind only ever widens, so once this node recorded a
    // kind it need not touch the (shared) descriptor for it again.
    FrameSlotKind kind = FrameDescriptor::KindOf(value);
    if (kind != recorded_kind_.load(std::memory_order_relaxed)) {
      frame.descriptor().RecordWrite(slot_, value);
      recorded_kind_.store(kind, std::memory_order_relaxed);
    }
    frame.Set(slot_, value);
    return value;
  }
  void ForEachChild(ChildVisitor visitor) override { visitor(value_.slot()); }
  int slot() const { return slot_; }

 private:
  int slot_;
  Child<SLExpressionNode> value_;
  std::atomic<FrameSlotKind> recorded_kind_{FrameSlotKind::kIllegal};
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_LOCAL_NODES_H_
