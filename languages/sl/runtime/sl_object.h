#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_

// SL objects: maps from string keys to values, with identity (sl_spec §6.9).
//
// An object's layout is its Shape: the ordered list of its property keys.
// Shapes form a transition tree from the empty shape (adding key k to shape
// S always yields the same shape), so objects built the same way share a
// shape, and a property inline cache can check one pointer and use a fixed
// property index. Shapes are immortal and shared by every context.
//
// Where a property's value lives (V8's and Truffle DynamicObject's in-object
// fields): property i < SLObject::kInlineSlots in the object itself
// (`inline_slots[i]`), the rest in the out-of-line `storage` array
// (`storage[i - kInlineSlots]`). The storage's capacity is a function of the
// shape (Shape::storage_capacity()), never stored in the object: so compiled
// code that checked the shape knows whether adding a property fits, and a
// new object plus its first kInlineSlots properties is a fixed-size block
// written by plain stores (escape analysis can then keep it virtual).
//
// An object that grows past Shape::kMaxProperties switches to dictionary
// mode (Truffle's answer to objects used as maps or arrays): its shape
// becomes Shape::Dictionary(), its properties move to a hash table
// (`dictionary`, sharing the word of `storage`) and its inline slots are
// cleared, so n properties cost O(n) instead of a chain of n shapes with
// O(n^2) keys.
//
// Elements (V8's and Truffle's arrays in disguise): a key that is an array
// index -- the §5.4 string form of an integer 0 <= k < kMaxElementIndex, so
// o[3] and o["3"] alike, but not o["03"] -- lives in `elements`, a dense
// array of element_capacity() values (an Illegal value marks an absent
// element), whenever k < element_capacity(); an index key at or past the
// capacity lives with the named properties under its string. Writes just
// past the end grow the array (amortized doubling) unless the object
// already holds index keys as named properties (HasNamedIndexKeys: a fact
// of the shape, or of the dictionary), which keeps the rule
// "k < element_capacity() <=> k is in elements" true without moving
// properties. Where a key lives is not observable: SL code never enumerates
// keys, and the host's enumeration (SLObject::Keys, for the embedding API)
// orders them by what they are, not where they are; shape caches never
// cache index keys (their place depends on the object's capacity, not its
// shape).
//
// The layout is written to be read and written from compiled code through
// the execution-context vocabulary (nodes/interpreter_context.h): the
// templates at the end (NewObject, LoadProperty, StoreProperty) are the
// interpreter's code and the compiler's alike.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "languages/sl/runtime/values.h"
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

  // The property index of `key`, or -1.
  int IndexOf(absl::string_view key) const;
  // The shape with `key` appended (created once, then shared).
  Shape* WithProperty(absl::string_view key);
  int property_count() const { return static_cast<int>(keys_.size()); }
  const std::string& key(int index) const { return keys_[index]; }
  // Values in the out-of-line storage of an object of this shape: 0 while
  // every property is inline, then at least 4 and doubling (so adding one
  // property rarely moves the storage).
  int storage_capacity() const { return storage_capacity_; }
  // Whether some key is an array index (an index key that did not fit the
  // elements: SLObject::HasNamedIndexKeys).
  bool has_index_key() const { return has_index_key_; }

 private:
  Shape() = default;

  std::vector<std::string> keys_;
  absl::flat_hash_map<std::string, int> index_;
  int storage_capacity_ = 0;
  bool has_index_key_ = false;
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

// A header of three words, then the inline slots. Every field is a whole
// word (compiled code loads and stores 64-bit words only); the allocation
// is zero-filled, so a new object is its header with `shape` and
// `elements` (NoElements()) set.
struct SLObject {
  // In-object property slots: 3, so an object is 24 + 16 * 3 = 72 bytes,
  // which the collector serves from its 80-byte size class (it adds one
  // byte to every request: a pointer one past the end still keeps the
  // block alive). Every byte counts: programs that keep lists and trees of
  // small objects spend most of their time allocating and collecting, and
  // that time follows the size class. Measured (opt, whole process, median
  // of 5 paired runs, the table sizes of tools/bench): from 112-byte
  // objects (four header words, 4 slots) to 96 (3 slots), linkedlist 0.74x
  // and binarytrees 0.83x the time; from 96 to 80, 0.81x and 0.90x more.
  // Earlier figures for K, from when the header had four words (steady
  // state, ms per iteration; ObjectsChurn's two halves at size 100000):
  //               all out of line   K=2    K=4    K=6    K=8
  //   fields       2.55            2.25   2.30   2.30   2.30
  //   richards     0.86            0.82   0.84   0.83   0.81
  //   poly        13.6            13.6   13.1   13.0   13.2
  //   particles   32.5             8.5   12.1   12.5   15.2
  //   points      20.2            14.0    8.0    9.7   10.4
  // Smaller objects leave the collector less to mark and sweep (particles
  // keeps a long list alive), but an object with more than K properties
  // needs out-of-line storage, a second allocation (when the table was
  // measured its first add called the runtime, and escape analysis could
  // not remove it: points' 3-property temporaries, K=2, lost 75%; since
  // then that add is an `alloc` escape analysis keeps virtual, see
  // property_nodes.h). K=3 keeps 3-property temporaries in one block of the
  // 80-byte class; K=4 would take the 96-byte one.
  static constexpr int kInlineSlots = 3;

  Shape* shape;
  union {
    // Shaped: property i >= kInlineSlots at storage[i - kInlineSlots];
    // shape->storage_capacity() values (null when that is 0). Collected.
    Value* storage;
    // Dictionary mode: every named property. Collected.
    PropertyDictionary* dictionary;
  };
  // element_capacity() values from elements[0]; elements[-1] holds that
  // capacity (a Long) in the same block, so it costs the object no word.
  // Collected (an interior pointer, which keeps the block alive), or
  // NoElements() (capacity 0, never written).
  Value* elements;
  // Shaped: property i < kInlineSlots. Dictionary mode: cleared, unused.
  Value inline_slots[kInlineSlots];

  int64_t element_capacity() const { return elements[-1].AsLong(); }

  // Reads `key`; false if absent.
  bool Get(absl::string_view key, Value* out) const;
  // Creates or overwrites `key`.
  void Put(absl::string_view key, Value value);
  // The same for the array index `index` (IsArrayIndex), without building
  // its string unless it lives with the named properties.
  bool GetIndexed(int64_t index, Value* out) const;
  void PutIndexed(int64_t index, Value value);
  // Moves to `new_shape` (one more property than now) and stores `value` at
  // its last index, growing the storage if the new property is out of line
  // and does not fit.
  void AddWithShape(Shape* new_shape, Value value);
  // Whether some named property's key is an array index (element growth
  // then stops: growing would have to move it).
  bool HasNamedIndexKeys() const;
  // Every key (not an SL operation: sl_spec §6.9 has no enumeration; the
  // embedding API's member keys), in JavaScript's order of own keys: the
  // array-index keys in ascending numeric order, then the others in the
  // order they were added. The exception: an object in dictionary mode
  // (more than Shape::kMaxProperties named properties) does not remember
  // that order, and gives its other keys in byte order instead.
  std::vector<std::string> Keys() const;

 private:
  void ConvertToDictionary();
  bool GetNamed(absl::string_view key, Value* out) const;
  // Returns whether the property was added (not overwritten).
  bool PutNamed(absl::string_view key, Value value);
  // Grows `elements` to hold `index` if index keys may still move there.
  bool GrowElementsFor(int64_t index);
};

static_assert(sizeof(SLObject) == 3 * 8 + SLObject::kInlineSlots * sizeof(Value));

// The `elements` of an object without elements: just past a static Long(0),
// the capacity (outside the collected heap, and read-only).
Value* NoElements();

// Whether adding a property to an object of `shape` that yields
// `new_shape` is two stores (the value into its slot, then the shape): the
// new property is inline, or its storage slot exists already -- that is,
// the storage need not grow (Shape::WithProperty grows the capacity
// exactly when the new property's slot is out of line and past it).
inline bool AddFitsInPlace(const Shape* shape, const Shape* new_shape) {
  return new_shape->storage_capacity() == shape->storage_capacity();
}

// ---- the object model over an execution context (nodes/specialization.h)
// Written once; the interpreter runs these with InterpreterContext (so does
// the runtime, sl_object.cc), the compiler with its IR-emitting context.
// LoadProperty and StoreProperty are the only accessors of a shaped
// property's slot (inline or in the storage).

// A new empty object (new()). The allocation is zero-filled: no storage,
// cleared slots; only the shape and the (absent) elements are written.
template <typename C>
typename C::V NewObject(C& c) {
  typename C::V object = c.template New<SLObject>(kObjectTag);
  c.StoreField(object, &SLObject::shape, Shape::Empty());
  c.StoreField(object, &SLObject::elements, NoElements());
  return object;
}

// The element capacity of an object (0 without elements): elements[-1].
template <typename C>
auto ElementCapacity(C& c, typename C::V object) {
  return c.AsLong(c.LoadValue(c.LoadField(object, &SLObject::elements), -1));
}

// Property `index` of a shaped object (`object` is an object of a shape
// with more than `index` properties).
template <typename C>
typename C::V LoadProperty(C& c, typename C::V object, int index) {
  if (index < SLObject::kInlineSlots) {
    return c.LoadValue(object, &SLObject::inline_slots, index);
  }
  return c.LoadValue(c.LoadField(object, &SLObject::storage), index - SLObject::kInlineSlots);
}
// The same slot, written (it exists: see AddFitsInPlace for a new one).
template <typename C>
void StoreProperty(C& c, typename C::V object, int index, typename C::V value) {
  if (index < SLObject::kInlineSlots) {
    c.StoreValue(object, &SLObject::inline_slots, index, value);
  } else {
    c.StoreValue(c.LoadField(object, &SLObject::storage), index - SLObject::kInlineSlots,
                 value);
  }
}

SLObject* NewObject();

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_OBJECT_H_
