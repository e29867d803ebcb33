#include "nodes/frame.h"

namespace morel {
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
  int index = size();
  if (index == capacity_) {
    int capacity = capacity_ == 0 ? 8 : capacity_ * 2;
    auto kinds = std::make_unique<std::atomic<FrameSlotKind>[]>(capacity);
    for (int i = 0; i < capacity; ++i) {
      kinds[i].store(i < index ? kinds_[i].load(std::memory_order_relaxed)
                               : FrameSlotKind::kIllegal,
                     std::memory_order_relaxed);
    }
    kinds_ = std::move(kinds);
    capacity_ = capacity;
  }
  names_.push_back(std::move(name));
  size_ = static_cast<int>(names_.size());
  return index;
}

void FrameDescriptor::Generalize(int slot, FrameSlotKind wanted) const {
  std::atomic<FrameSlotKind>& kind = kinds_[slot];
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
  for (const std::string& name : names_) copy->AddSlot(name);
  return copy;
}

}  // namespace morel
