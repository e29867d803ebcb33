#ifndef MOREL_ENGINE_IR_OPCODE_H_
#define MOREL_ENGINE_IR_OPCODE_H_

// Opcode and its static properties, generated from opcodes.def (the only
// list of opcodes; the semantics of each opcode are documented there).

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"

namespace morel::ir {

// How an instruction is printed and parsed (see printer.cc / parser.cc).
enum class OpFormat : uint8_t {
  kConst,               // v = iconst.T N
  kPointerConst,        // v = pconst 0xHEX
  kUnary,               // v = op a
  kBinary,              // v = op a, b
  kCompare,             // v = icmp cond a, b
  kSelectFormat,        // v = select c, a, b
  kConvert,             // v = op.T a
  kLoadFormat,          // v = load.T p, offset
  kStoreFormat,         // store.T x, p, offset
  kAllocFormat,         // v = alloc N
  kCallRuntimeFormat,   // v, w = call_runtime @name(args) -> (T, T)[, fsN]
  kCallTargetFormat,    // v, w = call_target @id(args) -> (T, T)[, fsN]
  kGuardFormat,         // guard c, fsN, "reason"
  kSafepointFormat,     // safepoint fsN
  kJumpFormat,          // jump blockN(args)
  kBrFormat,            // br c, blockN(args), blockM(args)
  kReturnFormat,        // return a, b
  kDeoptFormat,         // deopt fsN, "reason"
  kNullary,             // op
};

// Which operand types an opcode accepts (checked by the verifier).
enum class OperandRule : uint8_t {
  kNoOperands,
  kInt,              // one of i32, i64
  kBits,             // one of i1, i32, i64
  kSameInt,          // two operands of the same type, i32 or i64
  kSameBits,         // two operands of the same type, i1, i32 or i64
  kSameComparable,   // two operands of the same type, i1, i32, i64 or ptr
  kSameF64,          // two f64
  kSelectOperands,   // i1, T, T
  kExtend,           // i1 or i32, narrower than the suffix type
  kTruncate,         // i32 or i64, wider than the suffix type (i1 or i32)
  kBitcastOperand,   // i64, f64 or ptr, to a different one of those
  kAddress,          // ptr
  kValueAndAddress,  // value of the suffix type, ptr
  kCondition,        // i1
  kCallArguments,    // per the callee's signature (runtime) or any (target)
  kReturnValues,     // per the function's result types
};

// How the result type(s) are determined.
enum class ResultRule : uint8_t {
  kNoResult,
  kSuffixType,       // the `.T` suffix of the instruction
  kPtrResult,        // ptr
  kSameAsOperand0,
  kSameAsOperand1,
  kBoolResult,       // i1
  kCallResults,      // the call's declared result types (0..2)
};

enum class Effects : uint8_t { kPure, kEffect, kTerminator };

// The largest object `alloc` (and a virtual object) may have.
inline constexpr int64_t kMaxAllocBytes = int64_t{1} << 16;

enum class Opcode : uint8_t {
#define MOREL_IR_OPCODE(id, name, format, arity, operands, result, effects, doc) id,
#include "engine/ir/opcodes.def"
#undef MOREL_IR_OPCODE
};

struct OpcodeInfo {
  Opcode opcode;
  absl::string_view name;
  OpFormat format;
  int arity;  // -1: variadic
  OperandRule operands;
  ResultRule result;
  Effects effects;
  absl::string_view semantics;
};

inline constexpr int kNumOpcodes = 0
#define MOREL_IR_OPCODE(id, name, format, arity, operands, result, effects, doc) +1
#include "engine/ir/opcodes.def"
#undef MOREL_IR_OPCODE
    ;

const OpcodeInfo& GetOpcodeInfo(Opcode opcode);
absl::string_view OpcodeName(Opcode opcode);
// The parser's keyword table: "iadd" -> kIadd.
std::optional<Opcode> OpcodeFromName(absl::string_view name);

inline bool IsPure(Opcode op) { return GetOpcodeInfo(op).effects == Effects::kPure; }
inline bool IsTerminator(Opcode op) {
  return GetOpcodeInfo(op).effects == Effects::kTerminator;
}
// True for the opcodes whose text form carries a `.T` suffix.
bool HasTypeSuffix(Opcode op);
// True for opcodes that reference a frame state (guard, safepoint, deopt;
// calls optionally).
bool UsesFrameState(Opcode op);
// True for opcodes with a reason string (guard, deopt).
bool HasReason(Opcode op);
// Commutative binary opcodes (canonicalization puts constants on the right).
bool IsCommutative(Opcode op);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_OPCODE_H_
