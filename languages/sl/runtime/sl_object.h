#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_

// SL objects: maps from string keys to values, with identity (sl_spec §6.9).
//
// An object's layout is its Shape: the ordered list of its property keys.
// Shapes form a transition tree from the empty shape (adding key k to shape
// S always yields the same shape), so objects built the same way share a
// shape, and a property inline cache can check one pointer and use a fixed
// storage index. Shapes are immortal and shared by every context.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "nodes/value.h"

namespace morel::sl {

class Shape {
 public:
  // The shape of a new object: no properties.
  static Shape* Empty();

  // The storage index of `key`, or -1.
  int IndexOf(absl::string_view key) const;
  // The shape with `key` appended (created once, then shared).
  Shape* WithProperty(absl::string_view key);
  int property_count() const { return static_cast<int>(keys_.size()); }
  const std::string& key(int index) const { return keys_[index]; }

 private:
  Shape() = default;

  std::vector<std::string> keys_;
  absl::flat_hash_map<std::string, int> index_;
  mutable std::mutex transitions_lock_;
  absl::flat_hash_map<std::string, std::unique_ptr<Shape>> transitions_;
};

struct SLObject {
  Shape* shape;
  Value* storage;  // collected, capacity >= shape->property_count()
  int capacity;

  // Reads `key`; false if absent.
  bool Get(absl::string_view key, Value* out) const;
  // Creates or overwrites `key`.
  void Put(absl::string_view key, Value value);
  // Moves to `new_shape` (one more property than now) and stores `value` at
  // its last index.
  void AddWithShape(Shape* new_shape, Value value);
};

SLObject* NewObject();

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_
