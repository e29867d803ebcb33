#ifndef MOREL_ENGINE_IR_SEMANTICS_H_
#define MOREL_ENGINE_IR_SEMANTICS_H_

// The meaning of the pure opcodes on concrete values: the single executable
// definition shared by the constant folder (engine/opt) and the test
// interpreter (interpreter.h), so the two cannot disagree.
//
// Values are int64_t in canonical form (types.h): i1 is 0/1, i32 is
// sign-extended from bit 31, i64/ptr/f64 use all 64 bits.

#include <cstdint>
#include <optional>

#include "engine/ir/opcode.h"
#include "engine/ir/types.h"

namespace morel::ir {

// Brings an arbitrary 64-bit pattern into canonical form for `type`.
int64_t Normalize(Type type, int64_t bits);

// A binary pure opcode on operands of type `type` (for icmp, see EvalCond).
// nullopt if the result is undefined (sdiv/srem by zero or MIN / -1) or the
// opcode is not a binary pure opcode.
std::optional<int64_t> EvalBinary(Opcode op, Type type, int64_t a, int64_t b);
// ineg, not.
std::optional<int64_t> EvalUnary(Opcode op, Type type, int64_t a);
// icmp: returns 0 or 1.
int64_t EvalCond(Cond cond, Type type, int64_t a, int64_t b);
// zext, sext, trunc, bitcast from `from` to `to`.
std::optional<int64_t> EvalConvert(Opcode op, Type from, Type to, int64_t a);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_SEMANTICS_H_
