#ifndef MOREL_ENGINE_IR_TYPES_H_
#define MOREL_ENGINE_IR_TYPES_H_

// The value types of the IR and the integer comparison conditions.
//
// There is no tagged-value type: a guest Value (nodes/value.h) is always two
// SSA values, payload (i64) and tag (i64), matching the SysV ABI of
// `struct Value {uint64_t bits; uint64_t tag;}` (two integer registers).
//
// Integer constants and interpreter values are held in an int64_t in
// canonical form: i1 is 0 or 1; i32 is sign-extended from bit 31; i64, ptr
// and f64 (IEEE bits) use all 64 bits. See semantics.h.

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace morel::ir {

enum class Type : uint8_t {
  kInvalid,  // "not yet known"; only during parsing, never in verified IR
  kI1,
  kI32,
  kI64,
  kF64,
  kPtr,
};

absl::string_view TypeName(Type type);  // "i1", "i32", ..., "<invalid>"
std::optional<Type> ParseType(absl::string_view name);

// Width in bits of an integer type (i1 -> 1, i32 -> 32, i64/ptr -> 64).
int BitWidth(Type type);
// Bytes a load or store of the type accesses (i1 -> 1, i32 -> 4, else 8).
int ByteWidth(Type type);
bool IsInteger(Type type);  // i1, i32, i64

// Integer comparison conditions of `icmp`; s = signed, u = unsigned.
enum class Cond : uint8_t { kEq, kNe, kSlt, kSle, kSgt, kSge, kUlt, kUle, kUgt, kUge };
inline constexpr int kNumConds = 10;

absl::string_view CondName(Cond cond);
std::optional<Cond> ParseCond(absl::string_view name);
// !(a cond b) == (a Inverse(cond) b).
Cond InverseCond(Cond cond);
// (a cond b) == (b SwapCond(cond) a).
Cond SwapCond(Cond cond);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_TYPES_H_
