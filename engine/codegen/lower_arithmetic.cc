// Lowering of the pure IR operations (lowerer.h). Values are canonical in
// 64-bit registers (i1 = 0/1, i32 sign-extended): 64-bit arithmetic on
// canonical inputs, then re-normalization where the 64-bit result can leave
// the type's range.

#include <bit>
#include <cstdint>
#include <utility>

#include "engine/codegen/lowerer.h"

namespace morel::codegen::internal {
namespace {

using ir::Opcode;
using ir::Type;

// Machine condition for `icmp cond` on canonical values of `type`. Signed
// i1 treats 1 as -1, so its signed order is the reverse of 0 < 1.
Cond MapCond(ir::Cond cond, Type type) {
  const bool i1 = type == Type::kI1;
  switch (cond) {
    case ir::Cond::kEq: return Cond::kEq;
    case ir::Cond::kNe: return Cond::kNe;
    case ir::Cond::kSlt: return i1 ? Cond::kGt : Cond::kLt;
    case ir::Cond::kSle: return i1 ? Cond::kGe : Cond::kLe;
    case ir::Cond::kSgt: return i1 ? Cond::kLt : Cond::kGt;
    case ir::Cond::kSge: return i1 ? Cond::kLe : Cond::kGe;
    case ir::Cond::kUlt: return Cond::kULt;
    case ir::Cond::kUle: return Cond::kULe;
    case ir::Cond::kUgt: return Cond::kUGt;
    case ir::Cond::kUge: return Cond::kUGe;
  }
  return Cond::kEq;
}

// (a c b) == (b Swap(c) a).
Cond SwapCond(Cond c) {
  switch (c) {
    case Cond::kLt: return Cond::kGt;
    case Cond::kLe: return Cond::kGe;
    case Cond::kGt: return Cond::kLt;
    case Cond::kGe: return Cond::kLe;
    case Cond::kULt: return Cond::kUGt;
    case Cond::kULe: return Cond::kUGe;
    case Cond::kUGt: return Cond::kULt;
    case Cond::kUGe: return Cond::kULe;
    default: return c;
  }
}

}  // namespace

void Lowerer::Binary(MOp op, uint32_t d, const ir::Value* a, const ir::Value* b,
                     bool commutative) {
  if (commutative && ConstantOf(a) && !ConstantOf(b)) std::swap(a, b);
  Op ra = Use(a);
  Op rb = UseOrImm(b, op);
  Emit(mi::Binary(op, Op::VReg(d), ra, rb));
}

uint32_t Lowerer::BinaryTemp(MOp op, Op a, Op b) {
  uint32_t t = Temp();
  Emit(mi::Binary(op, Op::VReg(t), a, b));
  return t;
}

void Lowerer::Sext32(uint32_t d, Op src) {
  uint32_t t = BinaryTemp(MOp::kShl, src, Op::Imm(32));
  Emit(mi::Binary(MOp::kSar, Op::VReg(d), Op::VReg(t), Op::Imm(32)));
}

void Lowerer::Zext32(uint32_t d, Op src) {
  uint32_t t = BinaryTemp(MOp::kShl, src, Op::Imm(32));
  Emit(mi::Binary(MOp::kShr, Op::VReg(d), Op::VReg(t), Op::Imm(32)));
}

void Lowerer::Normalize(Type type, uint32_t d, Op src) {
  switch (type) {
    case Type::kI32: Sext32(d, src); return;
    case Type::kI1: Emit(mi::Binary(MOp::kAnd, Op::VReg(d), src, Op::Imm(1))); return;
    default:
      if (!(src.is_vreg() && src.index == d)) Emit(mi::Mov(Op::VReg(d), src));
      return;
  }
}

void Lowerer::SelectMask(uint32_t d, Op cond01, Op if_true, Op if_false) {
  // d = f ^ ((t ^ f) & -c): c = 1 gives t, c = 0 gives f; no branches.
  uint32_t mask = Temp();
  Emit(mi::Unary(MOp::kNeg, Op::VReg(mask), cond01));
  uint32_t diff = BinaryTemp(MOp::kXor, if_true, if_false);
  uint32_t pick = BinaryTemp(MOp::kAnd, Op::VReg(diff), Op::VReg(mask));
  Emit(mi::Binary(MOp::kXor, Op::VReg(d), Op::VReg(pick), if_false));
}

Lowerer::Compare Lowerer::LowerCompare(ir::Cond cond, const ir::Value* x, const ir::Value* y,
                                       MOp op) {
  Cond c = MapCond(cond, x->type());
  if (ConstantOf(x) && !ConstantOf(y)) {
    std::swap(x, y);
    c = SwapCond(c);
  }
  Op a = Use(x);
  Op b = UseOrImm(y, op);
  return {c, a, b};
}

void Lowerer::Shift(const ir::Instruction& inst, uint32_t d) {
  const Type type = inst.operand(0)->type();
  const MOp op = inst.opcode() == Opcode::kShl    ? MOp::kShl
                 : inst.opcode() == Opcode::kLshr ? MOp::kShr
                                                  : MOp::kSar;
  const int width = type == Type::kI32 ? 32 : 64;
  Op count;
  if (std::optional<int64_t> c = ConstantOf(inst.operand(1))) {
    count = Op::Imm(static_cast<int64_t>(static_cast<uint64_t>(*c) % width));
  } else if (width == 32) {
    count = Op::VReg(BinaryTemp(MOp::kAnd, Use(inst.operand(1)), Op::Imm(31)));
  } else {
    count = Use(inst.operand(1));  // the machine shift takes the count mod 64
  }
  Op src = Use(inst.operand(0));
  if (width == 64 || op == MOp::kSar) {  // sar of a sign-extended i32 stays canonical
    Emit(mi::Binary(op, Op::VReg(d), src, count));
    return;
  }
  if (op == MOp::kShr) {
    uint32_t z = Temp();
    Zext32(z, src);
    src = Op::VReg(z);
  }
  Sext32(d, Op::VReg(BinaryTemp(op, src, count)));
}

void Lowerer::MulOverflows64(uint32_t d, Op a, Op b) {
  // Overflow iff a != 0 and (a == -1 ? b == MIN : (a * b) / a != b). The
  // division uses a safe divisor (1 when a is 0 or -1) so it never traps.
  uint32_t zero = Temp(), minus1 = Temp();
  Emit(mi::CmpSet(Cond::kEq, Op::VReg(zero), a, Op::Imm(0)));
  Emit(mi::CmpSet(Cond::kEq, Op::VReg(minus1), a, Op::Imm(-1)));
  uint32_t bad = BinaryTemp(MOp::kOr, Op::VReg(zero), Op::VReg(minus1));
  uint32_t one = Temp();
  Emit(mi::MovImm(Op::VReg(one), 1));
  uint32_t divisor = Temp();
  SelectMask(divisor, Op::VReg(bad), Op::VReg(one), a);
  uint32_t product = BinaryTemp(MOp::kMul, a, b);
  uint32_t quotient = BinaryTemp(MOp::kDiv, Op::VReg(product), Op::VReg(divisor));
  uint32_t differs = Temp();
  Emit(mi::CmpSet(Cond::kNe, Op::VReg(differs), Op::VReg(quotient), b));
  uint32_t min = Temp();
  Emit(mi::MovImm(Op::VReg(min), INT64_MIN));
  uint32_t b_is_min = Temp();
  Emit(mi::CmpSet(Cond::kEq, Op::VReg(b_is_min), b, Op::VReg(min)));
  uint32_t r = Temp();
  SelectMask(r, Op::VReg(minus1), Op::VReg(b_is_min), Op::VReg(differs));
  uint32_t nonzero = BinaryTemp(MOp::kXor, Op::VReg(zero), Op::Imm(1));
  Emit(mi::Binary(MOp::kAnd, Op::VReg(d), Op::VReg(r), Op::VReg(nonzero)));
}

// x / 2^s rounds toward zero: a negative x is biased by 2^s - 1 (the sign
// word shifted right logically) before the arithmetic shift; x % 2^s is x
// minus that quotient times 2^s. A canonical i32 works the same in 64 bits,
// and both results are canonical (|x / 2^s| <= |x|, |x % 2^s| <= |x|).
void Lowerer::DivideByPowerOfTwo(Opcode opcode, uint32_t d, Op x, int s) {
  uint32_t sign = BinaryTemp(MOp::kSar, x, Op::Imm(63));
  uint32_t bias = BinaryTemp(MOp::kShr, Op::VReg(sign), Op::Imm(64 - s));
  uint32_t biased = BinaryTemp(MOp::kAdd, x, Op::VReg(bias));
  if (opcode == Opcode::kSdiv) {
    Emit(mi::Binary(MOp::kSar, Op::VReg(d), Op::VReg(biased), Op::Imm(s)));
    return;
  }
  uint32_t quotient = BinaryTemp(MOp::kSar, Op::VReg(biased), Op::Imm(s));
  uint32_t multiple = BinaryTemp(MOp::kShl, Op::VReg(quotient), Op::Imm(s));
  Emit(mi::Binary(MOp::kSub, Op::VReg(d), x, Op::VReg(multiple)));
}

namespace {
// The multiplier and shift for signed division by `divisor` (|divisor| >= 2,
// not INT64_MIN): Hacker's Delight, section 10-4 ("magic numbers"), for 64
// bits: the least p >= 64 with 2^p > nc * (divisor - 2^p mod divisor), where
// nc is the largest dividend with nc mod |divisor| = |divisor| - 1.
struct Magic {
  int64_t multiplier;
  int shift;
};
Magic SignedMagic(int64_t divisor) {
  constexpr uint64_t kTwo63 = uint64_t{1} << 63;
  const uint64_t ad = divisor < 0 ? -static_cast<uint64_t>(divisor) : divisor;
  const uint64_t t = kTwo63 + (static_cast<uint64_t>(divisor) >> 63);
  const uint64_t anc = t - 1 - t % ad;  // |nc|
  int p = 63;
  uint64_t q1 = kTwo63 / anc, r1 = kTwo63 - q1 * anc;  // 2^p / |nc|, rem
  uint64_t q2 = kTwo63 / ad, r2 = kTwo63 - q2 * ad;    // 2^p / |d|, rem
  uint64_t delta;
  do {
    ++p;
    q1 *= 2;
    r1 *= 2;
    if (r1 >= anc) {
      ++q1;
      r1 -= anc;
    }
    q2 *= 2;
    r2 *= 2;
    if (r2 >= ad) {
      ++q2;
      r2 -= ad;
    }
    delta = ad - r2;
  } while (q1 < delta || (q1 == delta && r1 == 0));
  const uint64_t m = q2 + 1;
  return {static_cast<int64_t>(divisor < 0 ? -m : m), p - 64};
}
}  // namespace

// x / divisor rounding toward zero without a division: the high half of
// x * multiplier, corrected by x where the multiplier's sign differs from
// the divisor's, shifted, plus one if negative; x % divisor is x minus the
// quotient times the divisor. (Canonical i32 inputs give canonical results.)
void Lowerer::DivideByConstant(Opcode opcode, uint32_t d, Op x, int64_t divisor) {
  const Magic magic = SignedMagic(divisor);
  uint32_t multiplier = Temp();
  Emit(mi::MovImm(Op::VReg(multiplier), magic.multiplier));
  uint32_t q = BinaryTemp(MOp::kMulHigh, x, Op::VReg(multiplier));
  if (divisor > 0 && magic.multiplier < 0) q = BinaryTemp(MOp::kAdd, Op::VReg(q), x);
  if (divisor < 0 && magic.multiplier > 0) q = BinaryTemp(MOp::kSub, Op::VReg(q), x);
  if (magic.shift > 0) q = BinaryTemp(MOp::kSar, Op::VReg(q), Op::Imm(magic.shift));
  uint32_t sign = BinaryTemp(MOp::kShr, Op::VReg(q), Op::Imm(63));
  if (opcode == Opcode::kSdiv) {
    Emit(mi::Binary(MOp::kAdd, Op::VReg(d), Op::VReg(q), Op::VReg(sign)));
    return;
  }
  uint32_t quotient = BinaryTemp(MOp::kAdd, Op::VReg(q), Op::VReg(sign));
  uint32_t k = Temp();
  Emit(mi::MovImm(Op::VReg(k), divisor));
  uint32_t multiple = BinaryTemp(MOp::kMul, Op::VReg(quotient), Op::VReg(k));
  Emit(mi::Binary(MOp::kSub, Op::VReg(d), x, Op::VReg(multiple)));
}

void Lowerer::Overflows(const ir::Instruction& inst, uint32_t d) {
  const ir::Value* x = inst.operand(0);
  const ir::Value* y = inst.operand(1);
  const MOp op = inst.opcode() == Opcode::kIaddOverflows   ? MOp::kAdd
                 : inst.opcode() == Opcode::kIsubOverflows ? MOp::kSub
                                                           : MOp::kMul;
  if (x->type() == Type::kI32) {
    // The exact result of two sign-extended i32 fits in 64 bits: it
    // overflows iff it differs from its own 32-bit normalization.
    uint32_t s = Temp();
    Binary(op, s, x, y, op != MOp::kSub);
    uint32_t n = Temp();
    Sext32(n, Op::VReg(s));
    Emit(mi::CmpSet(Cond::kNe, Op::VReg(d), Op::VReg(s), Op::VReg(n)));
    return;
  }
  Op a = Use(x);
  Op b = Use(y);
  if (op == MOp::kMul) {
    MulOverflows64(d, a, b);
    return;
  }
  uint32_t s = BinaryTemp(op, a, b);
  uint32_t t1, t2;
  if (op == MOp::kAdd) {  // sign(s ^ a) & sign(s ^ b)
    t1 = BinaryTemp(MOp::kXor, Op::VReg(s), a);
    t2 = BinaryTemp(MOp::kXor, Op::VReg(s), b);
  } else {  // sign(a ^ b) & sign(a ^ s)
    t1 = BinaryTemp(MOp::kXor, a, b);
    t2 = BinaryTemp(MOp::kXor, a, Op::VReg(s));
  }
  uint32_t t = BinaryTemp(MOp::kAnd, Op::VReg(t1), Op::VReg(t2));
  Emit(mi::Binary(MOp::kShr, Op::VReg(d), Op::VReg(t), Op::Imm(63)));
}

absl::Status Lowerer::LowerPure(const ir::Instruction& inst) {
  const Opcode opcode = inst.opcode();
  if (opcode == Opcode::kIconst || opcode == Opcode::kPconst) {
    return absl::OkStatus();  // rematerialized at each use
  }
  if (const TargetLowering* target = backend_.target_lowering();
      target != nullptr && target->LowerPure(inst, *this)) {
    return absl::OkStatus();
  }
  const uint32_t d = VRegOf(inst.result());
  const Type type = inst.result()->type();
  auto a = [&] { return inst.operand(0); };
  auto b = [&] { return inst.operand(1); };
  // add/sub/mul: wrap at the type's width.
  auto arith = [&](MOp op, bool commutative) {
    if (type == Type::kI64) {
      Binary(op, d, a(), b(), commutative);
    } else {
      uint32_t t = Temp();
      Binary(op, t, a(), b(), commutative);
      Sext32(d, Op::VReg(t));
    }
  };
  switch (opcode) {
    case Opcode::kIadd: arith(MOp::kAdd, true); break;
    case Opcode::kIsub: arith(MOp::kSub, false); break;
    case Opcode::kImul: arith(MOp::kMul, true); break;
    case Opcode::kSdiv:
    case Opcode::kSrem: {
      // By a constant other than 0, 1, -1 and INT64_MIN (canonicalize folds
      // the ones by 1 and of two constants): no division instruction.
      if (std::optional<int64_t> k = ConstantOf(b());
          k.has_value() && (*k > 1 || (*k < -1 && *k != INT64_MIN)) &&
          !ConstantOf(a()).has_value()) {
        if (*k > 0 && std::has_single_bit(static_cast<uint64_t>(*k))) {
          DivideByPowerOfTwo(opcode, d, Use(a()), std::countr_zero(static_cast<uint64_t>(*k)));
        } else {
          DivideByConstant(opcode, d, Use(a()), *k);
        }
        break;
      }
      // The quotient/remainder of sign-extended i32 is a canonical i32
      // (MIN / -1 is undefined in the IR).
      Op x = Use(a());
      Op y = Use(b());
      Emit(mi::Binary(opcode == Opcode::kSdiv ? MOp::kDiv : MOp::kRem, Op::VReg(d), x, y));
      break;
    }
    case Opcode::kIneg: {
      uint32_t t = Temp();
      Emit(mi::Unary(MOp::kNeg, Op::VReg(t), Use(a())));
      Normalize(type, d, Op::VReg(t));
      break;
    }
    case Opcode::kIaddOverflows:
    case Opcode::kIsubOverflows:
    case Opcode::kImulOverflows: Overflows(inst, d); break;
    // Bitwise operations keep every canonical form.
    case Opcode::kAnd: Binary(MOp::kAnd, d, a(), b(), true); break;
    case Opcode::kOr: Binary(MOp::kOr, d, a(), b(), true); break;
    case Opcode::kXor: Binary(MOp::kXor, d, a(), b(), true); break;
    case Opcode::kNot:
      if (type == Type::kI1) {
        Emit(mi::Binary(MOp::kXor, Op::VReg(d), Use(a()), Op::Imm(1)));
      } else {
        Emit(mi::Unary(MOp::kNot, Op::VReg(d), Use(a())));
      }
      break;
    case Opcode::kShl:
    case Opcode::kLshr:
    case Opcode::kAshr: Shift(inst, d); break;
    case Opcode::kIcmp: {
      Compare c = LowerCompare(inst.cond(), a(), b(), MOp::kCmpSet);
      Emit(mi::CmpSet(c.cond, Op::VReg(d), c.a, c.b));
      break;
    }
    case Opcode::kSelect:
      if (std::optional<int64_t> c = ConstantOf(a())) {
        MoveInto(d, *c != 0 ? inst.operand(1) : inst.operand(2));
      } else {
        Op cond = Use(a());
        Op t = Use(inst.operand(1));
        Op f = Use(inst.operand(2));
        SelectMask(d, cond, t, f);
      }
      break;
    case Opcode::kZext:
      if (a()->type() == Type::kI32) {
        Zext32(d, Use(a()));
      } else {
        MoveInto(d, a());  // i1 is already 0/1
      }
      break;
    case Opcode::kSext:
      if (a()->type() == Type::kI1) {
        Emit(mi::Unary(MOp::kNeg, Op::VReg(d), Use(a())));  // 1 -> all ones
      } else {
        MoveInto(d, a());  // i32 is kept sign-extended
      }
      break;
    case Opcode::kTrunc: Normalize(type, d, Use(a())); break;
    case Opcode::kBitcast: MoveInto(d, a()); break;  // i64 <-> ptr (f64 rejected earlier)
    default:
      return absl::UnimplementedError(
          absl::StrCat("lowering of '", inst.info().name, "' is not implemented"));
  }
  return absl::OkStatus();
}

}  // namespace morel::codegen::internal
