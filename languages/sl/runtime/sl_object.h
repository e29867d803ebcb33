#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_

// SL objects: maps from string keys to values, with identity (sl_spec §6.9).
//
// An object's layout is its Shape: the ordered list of its property keys.
// Shapes form a transition tree from the empty shape (adding key k to shape
// S always yields the same shape), so objects built the same way share a
// shape, and a property inline cache can check one pointer and use a fixed
// storage index. Shapes are immortal and shared by every context.
//
// An object that grows past Shape::kMaxProperties switches to dictionary
// mode (Truffle's answer to objects used as maps or arrays): its shape
// becomes Shape::Dictionary() and its storage a hash table, so n properties
// cost O(n) instead of a chain of n shapes with O(n^2) keys.

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
  static constexpr int kMaxProperties = 32;

  // The shape of a new object: no properties.
  static Shape* Empty();
  // The shape of every object in dictionary mode (no fixed layout).
  static Shape* Dictionary();
  bool is_dictionary() const { return this == Dictionary(); }

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

struct PropertyDictionary;

struct SLObject {
  Shape* shape;
  // Shaped: collected, capacity >= shape->property_count().
  // Dictionary mode: unused (see `dictionary`).
  Value* storage;
  int capacity;
  PropertyDictionary* dictionary;  // collected; only in dictionary mode

  // Reads `key`; false if absent.
  bool Get(absl::string_view key, Value* out) const;
  // Creates or overwrites `key`.
  void Put(absl::string_view key, Value value);
  // Moves to `new_shape` (one more property than now) and stores `value` at
  // its last index.
  void AddWithShape(Shape* new_shape, Value value);

 private:
  void ConvertToDictionary();
};

SLObject* NewObject();

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_
