#include "languages/sl/runtime/sl_object.h"

#include <algorithm>
#include <cstring>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/sl_string.h"
#include "nodes/heap.h"
#include "nodes/interpreter_context.h"

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
  bool has_index_keys;  // SLObject::HasNamedIndexKeys

  static PropertyDictionary* New(size_t capacity) {
    auto* d = static_cast<PropertyDictionary*>(
        heap::AllocateTraced(sizeof(PropertyDictionary)));
    d->capacity = capacity;
    d->count = 0;
    d->has_index_keys = false;
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

  // Returns whether `key` was added (not overwritten).
  bool Put(absl::string_view key, Value value) {
    Entry* entry = Find(key);
    bool added = entry->key == nullptr;
    if (added) {
      entry->key = NewString(key);
      ++count;
    }
    entry->value = value;
    return added;
  }

  // A copy with twice the capacity when more than half full.
  PropertyDictionary* Grown() {
    if (count * 2 < capacity) return this;
    PropertyDictionary* bigger = New(capacity * 2);
    bigger->has_index_keys = has_index_keys;
    for (size_t i = 0; i < capacity; ++i) {
      if (entries[i].key != nullptr) {
        *bigger->Find(entries[i].key->view()) = entries[i];
        ++bigger->count;
      }
    }
    return bigger;
  }
};

Value* NoElements() {
  // Read-only: with capacity 0 nothing writes the values after it.
  alignas(16) static constexpr Value kNoElements[1] = {Value::Long(0)};
  return const_cast<Value*>(kNoElements + 1);
}

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
  int64_t array_index;
  next->has_index_key_ = has_index_key_ || ArrayIndexOf(key, &array_index);
  // Amortized doubling from 4, a function of the property count alone.
  int out_of_line = next->property_count() - SLObject::kInlineSlots;
  next->storage_capacity_ = storage_capacity_;
  if (out_of_line > storage_capacity_) {
    next->storage_capacity_ = storage_capacity_ == 0 ? 4 : 2 * storage_capacity_;
  }
  Shape* raw = next.get();
  transitions_.emplace(std::string(key), std::move(next));
  return raw;
}

bool ArrayIndexOf(absl::string_view key, int64_t* index) {
  // kMaxElementIndex - 1 has 10 digits.
  if (key.empty() || key.size() > 10) return false;
  if (key[0] == '0' && key.size() > 1) return false;
  int64_t value = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  if (value >= kMaxElementIndex) return false;
  *index = value;
  return true;
}

SLObject* NewObject() {
  InterpreterContext c;
  return NewObject(c).As<SLObject>();
}

namespace {
// `object` as the value the templates of sl_object.h take.
Value AsValue(const SLObject* object) { return Value::Reference(kObjectTag, object); }
}  // namespace

bool SLObject::Get(absl::string_view key, Value* out) const {
  int64_t index;
  if (ArrayIndexOf(key, &index) && index < element_capacity()) {
    return GetIndexed(index, out);
  }
  return GetNamed(key, out);
}

bool SLObject::GetIndexed(int64_t index, Value* out) const {
  if (index >= element_capacity()) return GetNamed(absl::StrCat(index), out);
  if (elements[index].IsIllegal()) return false;
  *out = elements[index];
  return true;
}

void SLObject::Put(absl::string_view key, Value value) {
  int64_t index;
  if (ArrayIndexOf(key, &index)) {
    PutIndexed(index, value);
  } else {
    PutNamed(key, value);
  }
}

void SLObject::PutIndexed(int64_t index, Value value) {
  if (index < element_capacity() || GrowElementsFor(index)) {
    elements[index] = value;
    return;
  }
  PutNamed(absl::StrCat(index), value);
  // A shape records it by itself (Shape::has_index_key).
  if (shape->is_dictionary()) dictionary->has_index_keys = true;
}

bool SLObject::HasNamedIndexKeys() const {
  return shape->is_dictionary() ? dictionary->has_index_keys : shape->has_index_key();
}

std::vector<std::string> SLObject::Keys() const {
  std::vector<int64_t> indices;
  for (int64_t i = 0; i < element_capacity(); ++i) {
    if (!elements[i].IsIllegal()) indices.push_back(i);
  }
  // Named keys that are array indices (past the element capacity) sort with
  // the elements' keys.
  std::vector<std::string> others;
  auto add_named = [&](absl::string_view key) {
    int64_t index;
    if (ArrayIndexOf(key, &index)) {
      indices.push_back(index);
    } else {
      others.emplace_back(key);
    }
  };
  if (shape->is_dictionary()) {
    for (size_t i = 0; i < dictionary->capacity; ++i) {
      if (dictionary->entries[i].key != nullptr) add_named(dictionary->entries[i].key->view());
    }
    std::sort(others.begin(), others.end());
  } else {
    for (int i = 0; i < shape->property_count(); ++i) add_named(shape->key(i));
  }
  std::sort(indices.begin(), indices.end());
  std::vector<std::string> keys;
  keys.reserve(indices.size() + others.size());
  for (int64_t index : indices) keys.push_back(absl::StrCat(index));
  for (std::string& other : others) keys.push_back(std::move(other));
  return keys;
}

bool SLObject::GrowElementsFor(int64_t index) {
  // Only just past the end (so a sparse key does not allocate its index's
  // worth of memory), and only while no index key is a named property
  // (growing would otherwise have to move it).
  if (HasNamedIndexKeys() || index >= 2 * element_capacity() + 16) return false;
  int64_t new_capacity =
      std::min(kMaxElementIndex, std::max({index + 1, 2 * element_capacity(), int64_t{8}}));
  // Cleared memory: every new slot is an absent element (kIllegalTag 0).
  // The capacity first, then the values.
  auto* grown = static_cast<Value*>(heap::AllocateTraced(sizeof(Value) * (1 + new_capacity)));
  grown[0] = Value::Long(new_capacity);
  std::memcpy(grown + 1, elements, sizeof(Value) * element_capacity());
  elements = grown + 1;
  return true;
}

bool SLObject::GetNamed(absl::string_view key, Value* out) const {
  if (shape->is_dictionary()) {
    PropertyDictionary::Entry* entry = dictionary->Find(key);
    if (entry->key == nullptr) return false;
    *out = entry->value;
    return true;
  }
  int index = shape->IndexOf(key);
  if (index < 0) return false;
  InterpreterContext c;
  *out = LoadProperty(c, AsValue(this), index);
  return true;
}

bool SLObject::PutNamed(absl::string_view key, Value value) {
  if (!shape->is_dictionary()) {
    int index = shape->IndexOf(key);
    if (index >= 0) {
      InterpreterContext c;
      StoreProperty(c, AsValue(this), index, value);
      return false;
    }
    if (shape->property_count() < Shape::kMaxProperties) {
      AddWithShape(shape->WithProperty(key), value);
      return true;
    }
    ConvertToDictionary();
  }
  dictionary = dictionary->Grown();
  return dictionary->Put(key, value);
}

void SLObject::ConvertToDictionary() {
  PropertyDictionary* table = PropertyDictionary::New(4 * Shape::kMaxProperties);
  InterpreterContext c;
  for (int i = 0; i < shape->property_count(); ++i) {
    table->Put(shape->key(i), LoadProperty(c, AsValue(this), i));
  }
  table->has_index_keys = shape->has_index_key();
  // The slots' values live in the table now; cleared, they keep nothing
  // alive.
  for (Value& slot : inline_slots) slot = Value::Illegal();
  dictionary = table;
  shape = Shape::Dictionary();
}

void SLObject::AddWithShape(Shape* new_shape, Value value) {
  if (!AddFitsInPlace(shape, new_shape)) {
    int capacity = shape->storage_capacity();
    auto* grown = static_cast<Value*>(
        heap::AllocateTraced(sizeof(Value) * new_shape->storage_capacity()));
    if (capacity > 0) std::memcpy(grown, storage, sizeof(Value) * capacity);
    storage = grown;
  }
  InterpreterContext c;
  StoreProperty(c, AsValue(this), new_shape->property_count() - 1, value);
  shape = new_shape;
}

}  // namespace morel::sl
