#include "nodes/frame.h"

namespace morel {
namespace {
thread_local Frame* current_frame = nullptr;
}  // namespace

const char* FrameSlotKindName(FrameSlotKind kind) {
  switch (kind) {
    case FrameSlotKind::kIllegal:
      return "Illegal";
    case FrameSlotKind::kLong:
      return "Long";
    case FrameSlotKind::kBoolean:
      return "Boolean";
    case FrameSlotKind::kObject:
      return "Object";
  }
  return "?";
}

int FrameDescriptor::AddSlot(std::string name) {
  auto slot = std::make_unique<Slot>();
  slot->name = std::move(name);
  slots_.push_back(std::move(slot));
  return size() - 1;
}

void FrameDescriptor::Generalize(int slot, FrameSlotKind wanted) const {
  std::atomic<FrameSlotKind>& kind = slots_[slot]->kind;
  FrameSlotKind current = kind.load(std::memory_order_acquire);
  while (current != wanted && current != FrameSlotKind::kObject) {
    FrameSlotKind next =
        current == FrameSlotKind::kIllegal ? wanted : FrameSlotKind::kObject;
    if (kind.compare_exchange_weak(current, next, std::memory_order_acq_rel)) {
      return;
    }
  }
}

std::unique_ptr<FrameDescriptor> FrameDescriptor::CopyUninitialized() const {
  auto copy = std::make_unique<FrameDescriptor>();
  for (const auto& slot : slots_) copy->AddSlot(slot->name);
  return copy;
}

Frame* Frame::Current() { return current_frame; }

FrameScope::FrameScope(Frame* frame) : previous_(current_frame) {
  current_frame = frame;
}
FrameScope::~FrameScope() { current_frame = previous_; }

}  // namespace morel
