#include "languages/sl/runtime/sl_object.h"

#include <cstring>

#include "nodes/heap.h"

namespace morel::sl {

Shape* Shape::Empty() {
  static Shape* empty = new Shape();
  return empty;
}

int Shape::IndexOf(absl::string_view key) const {
  auto it = index_.find(key);
  return it == index_.end() ? -1 : it->second;
}

Shape* Shape::WithProperty(absl::string_view key) {
  std::lock_guard<std::mutex> guard(transitions_lock_);
  auto it = transitions_.find(key);
  if (it != transitions_.end()) return it->second.get();
  std::unique_ptr<Shape> next(new Shape());
  next->keys_ = keys_;
  next->keys_.emplace_back(key);
  next->index_ = index_;
  next->index_.emplace(std::string(key), static_cast<int>(keys_.size()));
  Shape* raw = next.get();
  transitions_.emplace(std::string(key), std::move(next));
  return raw;
}

SLObject* NewObject() {
  auto* object = static_cast<SLObject*>(heap::AllocateTraced(sizeof(SLObject)));
  object->shape = Shape::Empty();
  object->storage = nullptr;
  object->capacity = 0;
  return object;
}

bool SLObject::Get(absl::string_view key, Value* out) const {
  int index = shape->IndexOf(key);
  if (index < 0) return false;
  *out = storage[index];
  return true;
}

void SLObject::Put(absl::string_view key, Value value) {
  int index = shape->IndexOf(key);
  if (index >= 0) {
    storage[index] = value;
    return;
  }
  AddWithShape(shape->WithProperty(key), value);
}

void SLObject::AddWithShape(Shape* new_shape, Value value) {
  int index = new_shape->property_count() - 1;
  if (index >= capacity) {
    int new_capacity = capacity == 0 ? 4 : capacity * 2;
    auto* grown =
        static_cast<Value*>(heap::AllocateTraced(sizeof(Value) * new_capacity));
    if (capacity > 0) std::memcpy(grown, storage, sizeof(Value) * capacity);
    storage = grown;
    capacity = new_capacity;
  }
  storage[index] = value;
  shape = new_shape;
}

}  // namespace morel::sl
