#ifndef MOREL_NODES_VALUE_H_
#define MOREL_NODES_VALUE_H_

// Value: the uniform representation of a guest value, 16 bytes, trivially
// copyable: a 64-bit payload and a 64-bit tag (a full word, so copying and
// returning a Value never has to preserve padding bits). Tags below kFirstLanguageTag
// belong to the framework; languages define their own tags above it. Tags at
// or above kFirstReferenceTag mark payloads that point into the garbage
// collected guest heap (nodes/heap.h), so the collector finds them.
//
// Why two words rather than pointer tagging: 64-bit integers (SL's fast path)
// stay unboxed everywhere, booleans and null need no allocation, and the
// compiler can keep tag and payload in two registers and fold the tag to a
// constant wherever a specialization proved the type.

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace morel {

using ValueTag = uint64_t;

// No value: an unassigned frame slot, a missing result. Never a guest value.
inline constexpr ValueTag kIllegalTag = 0;
inline constexpr ValueTag kLongTag = 1;     // payload: int64_t
inline constexpr ValueTag kBooleanTag = 2;  // payload: 0 or 1
inline constexpr ValueTag kDoubleTag = 3;   // payload: IEEE double bits
// Not a guest value: the result of a call from compiled code when a guest
// error is pending on this thread (nodes/pending_exception.h). Compiled
// code returns it to its caller at once; the engine rethrows there, so C++
// exceptions never unwind through machine-code frames.
inline constexpr ValueTag kPendingExceptionTag = 4;
// Languages number their immediate tags from here ...
inline constexpr ValueTag kFirstLanguageTag = 16;
// ... and their heap-reference tags from here.
inline constexpr ValueTag kFirstReferenceTag = 1024;

struct Value {
  uint64_t bits;
  ValueTag tag;

  static constexpr Value Illegal() { return Value{0, kIllegalTag}; }
  static constexpr Value Long(int64_t v) {
    return Value{static_cast<uint64_t>(v), kLongTag};
  }
  static constexpr Value Boolean(bool v) { return Value{v ? 1u : 0u, kBooleanTag}; }
  static Value Double(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return Value{bits, kDoubleTag};
  }
  static constexpr Value Immediate(ValueTag tag, uint64_t payload = 0) {
    return Value{payload, tag};
  }
  static Value Reference(ValueTag tag, const void* pointer) {
    return Value{reinterpret_cast<uint64_t>(pointer), tag};
  }

  constexpr bool IsIllegal() const { return tag == kIllegalTag; }
  constexpr bool IsLong() const { return tag == kLongTag; }
  constexpr bool IsBoolean() const { return tag == kBooleanTag; }
  constexpr bool IsDouble() const { return tag == kDoubleTag; }
  constexpr bool IsReference() const { return tag >= kFirstReferenceTag; }
  constexpr bool Is(ValueTag t) const { return tag == t; }

  constexpr int64_t AsLong() const { return static_cast<int64_t>(bits); }
  constexpr bool AsBoolean() const { return bits != 0; }
  double AsDouble() const {
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  template <typename T>
  T* As() const {
    return reinterpret_cast<T*>(bits);
  }

  // Representation identity: same tag and same payload bits.
  friend constexpr bool operator==(const Value& a, const Value& b) {
    return a.tag == b.tag && a.bits == b.bits;
  }
};

static_assert(sizeof(Value) == 16);
static_assert(std::is_trivially_copyable_v<Value>);

}  // namespace morel

#endif  // MOREL_NODES_VALUE_H_
