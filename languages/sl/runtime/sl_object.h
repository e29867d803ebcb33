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
//
// Elements (V8's and Truffle's arrays in disguise): a key that is an array
// index -- the §5.4 string form of an integer 0 <= k < kMaxElementIndex, so
// o[3] and o["3"] alike, but not o["03"] -- lives in `elements`, a dense
// array of `element_capacity` values (an Illegal value marks an absent
// element), whenever k < element_capacity; an index key at or past the
// capacity lives with the named properties under its string. Writes just
// past the end grow the array (amortized doubling) unless the object
// already holds index keys as named properties (`named_index_keys`), which
// keeps the rule "k < element_capacity <=> k is in elements" true without
// moving properties. SL never enumerates keys, so where a key lives is not
// observable; shape caches never cache index keys (their place depends on
// the object's capacity, not its shape).

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

// The largest array index plus one: index keys are 0 .. 2^31 - 2.
inline constexpr int64_t kMaxElementIndex = (int64_t{1} << 31) - 1;

// Whether `key` is an array index (canonical decimal, no sign, no leading
// zero, < kMaxElementIndex); if so stores it in `*index`.
bool ArrayIndexOf(absl::string_view key, int64_t* index);
inline bool IsArrayIndex(int64_t key) { return key >= 0 && key < kMaxElementIndex; }

struct SLObject {
  Shape* shape;
  // Shaped: collected, capacity >= shape->property_count().
  // Dictionary mode: unused (see `dictionary`).
  Value* storage;
  int capacity;
  PropertyDictionary* dictionary;  // collected; only in dictionary mode
  Value* elements;                 // collected; element_capacity values
  int64_t element_capacity;
  int64_t named_index_keys;  // index keys held as named properties

  // Reads `key`; false if absent.
  bool Get(absl::string_view key, Value* out) const;
  // Creates or overwrites `key`.
  void Put(absl::string_view key, Value value);
  // The same for the array index `index` (IsArrayIndex), without building
  // its string unless it lives with the named properties.
  bool GetIndexed(int64_t index, Value* out) const;
  void PutIndexed(int64_t index, Value value);
  // Moves to `new_shape` (one more property than now) and stores `value` at
  // its last index.
  void AddWithShape(Shape* new_shape, Value value);

 private:
  void ConvertToDictionary();
  bool GetNamed(absl::string_view key, Value* out) const;
  // Returns whether the property was added (not overwritten).
  bool PutNamed(absl::string_view key, Value value);
  // Grows `elements` to hold `index` if index keys may still move there.
  bool GrowElementsFor(int64_t index);
};

SLObject* NewObject();

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_
