#include "engine/ir/semantics.h"

#include <bit>
#include <limits>

namespace morel::ir {
namespace {

uint64_t U(int64_t v) { return static_cast<uint64_t>(v); }
int64_t S(uint64_t v) { return static_cast<int64_t>(v); }

// Unsigned view of a canonical value at the type's width.
uint64_t Unsigned(Type type, int64_t v) {
  switch (type) {
    case Type::kI1: return U(v) & 1;
    case Type::kI32: return U(v) & 0xffffffffu;
    default: return U(v);
  }
}

double D(int64_t v) { return std::bit_cast<double>(v); }
int64_t FromD(double d) { return std::bit_cast<int64_t>(d); }

template <typename T>
std::optional<int64_t> Overflows(Opcode op, int64_t a, int64_t b) {
  T r;
  T x = static_cast<T>(a), y = static_cast<T>(b);
  bool o = false;
  switch (op) {
    case Opcode::kIaddOverflows: o = __builtin_add_overflow(x, y, &r); break;
    case Opcode::kIsubOverflows: o = __builtin_sub_overflow(x, y, &r); break;
    case Opcode::kImulOverflows: o = __builtin_mul_overflow(x, y, &r); break;
    default: return std::nullopt;
  }
  return o ? 1 : 0;
}

}  // namespace

int64_t Normalize(Type type, int64_t bits) {
  switch (type) {
    case Type::kI1: return bits & 1;
    case Type::kI32: return static_cast<int32_t>(static_cast<uint32_t>(U(bits)));
    default: return bits;
  }
}

std::optional<int64_t> EvalBinary(Opcode op, Type type, int64_t a, int64_t b) {
  const int width = BitWidth(type);
  switch (op) {
    case Opcode::kIadd: return Normalize(type, S(U(a) + U(b)));
    case Opcode::kIsub: return Normalize(type, S(U(a) - U(b)));
    case Opcode::kImul: return Normalize(type, S(U(a) * U(b)));
    case Opcode::kSdiv:
    case Opcode::kSrem: {
      if (b == 0) return std::nullopt;
      int64_t min = type == Type::kI32 ? std::numeric_limits<int32_t>::min()
                                       : std::numeric_limits<int64_t>::min();
      if (a == min && b == -1) return std::nullopt;
      return Normalize(type, op == Opcode::kSdiv ? a / b : a % b);
    }
    case Opcode::kIaddOverflows:
    case Opcode::kIsubOverflows:
    case Opcode::kImulOverflows:
      return type == Type::kI32 ? Overflows<int32_t>(op, a, b)
                                : Overflows<int64_t>(op, a, b);
    case Opcode::kAnd: return Normalize(type, a & b);
    case Opcode::kOr: return Normalize(type, a | b);
    case Opcode::kXor: return Normalize(type, a ^ b);
    case Opcode::kShl: return Normalize(type, S(U(a) << (U(b) % width)));
    case Opcode::kLshr: return Normalize(type, S(Unsigned(type, a) >> (U(b) % width)));
    case Opcode::kAshr: return Normalize(type, a >> (U(b) % width));
    case Opcode::kFadd: return FromD(D(a) + D(b));
    case Opcode::kFsub: return FromD(D(a) - D(b));
    case Opcode::kFmul: return FromD(D(a) * D(b));
    case Opcode::kFdiv: return FromD(D(a) / D(b));
    default: return std::nullopt;
  }
}

std::optional<int64_t> EvalUnary(Opcode op, Type type, int64_t a) {
  switch (op) {
    case Opcode::kIneg: return Normalize(type, S(0 - U(a)));
    case Opcode::kNot: return Normalize(type, ~a);
    default: return std::nullopt;
  }
}

int64_t EvalCond(Cond cond, Type type, int64_t a, int64_t b) {
  uint64_t ua = Unsigned(type, a), ub = Unsigned(type, b);
  if (type == Type::kI1) {  // signed i1: 1 is -1
    a = -a;
    b = -b;
  }
  switch (cond) {
    case Cond::kEq: return a == b;
    case Cond::kNe: return a != b;
    case Cond::kSlt: return a < b;
    case Cond::kSle: return a <= b;
    case Cond::kSgt: return a > b;
    case Cond::kSge: return a >= b;
    case Cond::kUlt: return ua < ub;
    case Cond::kUle: return ua <= ub;
    case Cond::kUgt: return ua > ub;
    case Cond::kUge: return ua >= ub;
  }
  return 0;
}

std::optional<int64_t> EvalConvert(Opcode op, Type from, Type to, int64_t a) {
  switch (op) {
    case Opcode::kZext: return Normalize(to, S(Unsigned(from, a)));
    case Opcode::kSext: return Normalize(to, from == Type::kI1 ? -a : a);
    case Opcode::kTrunc: return Normalize(to, a);
    case Opcode::kBitcast: return a;
    default: return std::nullopt;
  }
}

}  // namespace morel::ir
