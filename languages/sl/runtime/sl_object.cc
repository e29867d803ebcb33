#include "languages/sl/runtime/sl_object.h"

#include <cstring>

#include "absl/hash/hash.h"
#include "languages/sl/runtime/sl_string.h"
#include "nodes/heap.h"

namespace morel::sl {

// An open-addressing hash table from key strings to values, in the collected
// heap (keys and values are traced through it).
struct PropertyDictionary {
  struct Entry {
    SLString* key;  // null: empty
    Value value;
  };
  size_t capacity;  // a power of two
  size_t count;
  Entry* entries;

  static PropertyDictionary* New(size_t capacity) {
    auto* d = static_cast<PropertyDictionary*>(
        heap::AllocateTraced(sizeof(PropertyDictionary)));
    d->capacity = capacity;
    d->count = 0;
    d->entries = static_cast<Entry*>(heap::AllocateTraced(sizeof(Entry) * capacity));
    return d;
  }

  Entry* Find(absl::string_view key) {
    size_t mask = capacity - 1;
    for (size_t i = absl::Hash<absl::string_view>()(key) & mask;; i = (i + 1) & mask) {
      Entry* entry = &entries[i];
      if (entry->key == nullptr || entry->key->view() == key) return entry;
    }
  }

  void Put(absl::string_view key, Value value) {
    Entry* entry = Find(key);
    if (entry->key == nullptr) {
      entry->key = NewString(key);
      ++count;
    }
    entry->value = value;
  }

  // A copy with twice the capacity when more than half full.
  PropertyDictionary* Grown() {
    if (count * 2 < capacity) return this;
    PropertyDictionary* bigger = New(capacity * 2);
    for (size_t i = 0; i < capacity; ++i) {
      if (entries[i].key != nullptr) {
        *bigger->Find(entries[i].key->view()) = entries[i];
        ++bigger->count;
      }
    }
    return bigger;
  }
};

Shape* Shape::Empty() {
  static Shape* empty = new Shape();
  return empty;
}

Shape* Shape::Dictionary() {
  static Shape* dictionary = new Shape();
  return dictionary;
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
  object->dictionary = nullptr;
  return object;
}

bool SLObject::Get(absl::string_view key, Value* out) const {
  if (shape->is_dictionary()) {
    PropertyDictionary::Entry* entry = dictionary->Find(key);
    if (entry->key == nullptr) return false;
    *out = entry->value;
    return true;
  }
  int index = shape->IndexOf(key);
  if (index < 0) return false;
  *out = storage[index];
  return true;
}

void SLObject::Put(absl::string_view key, Value value) {
  if (!shape->is_dictionary()) {
    int index = shape->IndexOf(key);
    if (index >= 0) {
      storage[index] = value;
      return;
    }
    if (shape->property_count() < Shape::kMaxProperties) {
      AddWithShape(shape->WithProperty(key), value);
      return;
    }
    ConvertToDictionary();
  }
  dictionary = dictionary->Grown();
  dictionary->Put(key, value);
}

void SLObject::ConvertToDictionary() {
  PropertyDictionary* table = PropertyDictionary::New(4 * Shape::kMaxProperties);
  for (int i = 0; i < shape->property_count(); ++i) {
    table->Put(shape->key(i), storage[i]);
  }
  dictionary = table;
  storage = nullptr;
  capacity = 0;
  shape = Shape::Dictionary();
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
