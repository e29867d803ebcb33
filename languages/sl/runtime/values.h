#ifndef MOREL_LANGUAGES_SL_RUNTIME_VALUES_H_
#define MOREL_LANGUAGES_SL_RUNTIME_VALUES_H_

// SL's value tags on top of morel::Value (sl_spec §5.1):
//
//   Number   kLongTag (64-bit fast path) or kBigIntegerTag (SLBigInteger*,
//            always outside the 64-bit range: results are normalized)
//   Boolean  kBooleanTag
//   String   kStringTag (SLString*)
//   Function kFunctionTag (SLFunction*, one per name, never collected)
//   Object   kObjectTag (SLObject*)
//   NULL     kNullTag (immediate)
//   type     kTypeTag (immediate; payload = SLTypeKind): typeOf's results

#include <cstdint>

#include "nodes/value.h"

namespace morel::sl {

inline constexpr ValueTag kNullTag = kFirstLanguageTag;
inline constexpr ValueTag kTypeTag = kFirstLanguageTag + 1;
inline constexpr ValueTag kBigIntegerTag = kFirstReferenceTag;
inline constexpr ValueTag kStringTag = kFirstReferenceTag + 1;
inline constexpr ValueTag kFunctionTag = kFirstReferenceTag + 2;
inline constexpr ValueTag kObjectTag = kFirstReferenceTag + 3;

// The meta-objects returned by typeOf, in typeOf's test order.
enum class SLTypeKind : uint64_t {
  kNull,
  kNumber,
  kString,
  kBoolean,
  kFunction,
  kObject,
};

inline constexpr Value NullValue() { return Value::Immediate(kNullTag); }
inline constexpr Value TypeValue(SLTypeKind kind) {
  return Value::Immediate(kTypeTag, static_cast<uint64_t>(kind));
}

inline bool IsNull(const Value& v) { return v.tag == kNullTag; }
inline bool IsNumber(const Value& v) {
  return v.tag == kLongTag || v.tag == kBigIntegerTag;
}
inline bool IsString(const Value& v) { return v.tag == kStringTag; }
inline bool IsFunction(const Value& v) { return v.tag == kFunctionTag; }
inline bool IsObject(const Value& v) { return v.tag == kObjectTag; }
inline bool IsType(const Value& v) { return v.tag == kTypeTag; }

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_VALUES_H_
