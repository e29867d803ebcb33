#include "engine/ir/semantics.h"

#include <limits>

#include "gtest/gtest.h"

namespace morel::ir {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(SemanticsTest, WrappingArithmetic) {
  EXPECT_EQ(EvalBinary(Opcode::kIadd, Type::kI64, kMax, 1), kMin);
  EXPECT_EQ(EvalBinary(Opcode::kIadd, Type::kI32, 2147483647, 1), -2147483648LL);
  EXPECT_EQ(EvalBinary(Opcode::kImul, Type::kI64, 3, -4), -12);
  EXPECT_EQ(EvalUnary(Opcode::kIneg, Type::kI64, kMin), kMin);
  EXPECT_EQ(EvalUnary(Opcode::kNot, Type::kI1, 1), 0);
}

TEST(SemanticsTest, OverflowPredicates) {
  EXPECT_EQ(EvalBinary(Opcode::kIaddOverflows, Type::kI64, kMax, 1), 1);
  EXPECT_EQ(EvalBinary(Opcode::kIaddOverflows, Type::kI64, kMax, 0), 0);
  EXPECT_EQ(EvalBinary(Opcode::kIsubOverflows, Type::kI64, kMin, 1), 1);
  EXPECT_EQ(EvalBinary(Opcode::kImulOverflows, Type::kI32, 65536, 65536), 1);
  EXPECT_EQ(EvalBinary(Opcode::kImulOverflows, Type::kI64, 65536, 65536), 0);
}

TEST(SemanticsTest, DivisionIsUndefinedOnZeroAndOverflow) {
  EXPECT_EQ(EvalBinary(Opcode::kSdiv, Type::kI64, -7, 2), -3);
  EXPECT_EQ(EvalBinary(Opcode::kSrem, Type::kI64, -7, 2), -1);
  EXPECT_FALSE(EvalBinary(Opcode::kSdiv, Type::kI64, 1, 0).has_value());
  EXPECT_FALSE(EvalBinary(Opcode::kSrem, Type::kI64, kMin, -1).has_value());
}

TEST(SemanticsTest, ShiftsUseTheAmountModuloTheWidth) {
  EXPECT_EQ(EvalBinary(Opcode::kShl, Type::kI64, 1, 65), 2);
  EXPECT_EQ(EvalBinary(Opcode::kLshr, Type::kI32, -1, 28), 15);
  EXPECT_EQ(EvalBinary(Opcode::kAshr, Type::kI32, -16, 2), -4);
}

TEST(SemanticsTest, Comparisons) {
  EXPECT_EQ(EvalCond(Cond::kSlt, Type::kI64, -1, 0), 1);
  EXPECT_EQ(EvalCond(Cond::kUlt, Type::kI64, -1, 0), 0);
  EXPECT_EQ(EvalCond(Cond::kUgt, Type::kI32, -1, 5), 1);
  EXPECT_EQ(EvalCond(Cond::kSlt, Type::kI1, 1, 0), 1);  // i1 1 is -1 signed
  for (int c = 0; c < kNumConds; ++c) {
    Cond cond = static_cast<Cond>(c);
    for (int64_t a : {-2, 0, 3}) {
      for (int64_t b : {-2, 0, 3}) {
        EXPECT_EQ(EvalCond(InverseCond(cond), Type::kI64, a, b),
                  1 - EvalCond(cond, Type::kI64, a, b));
        EXPECT_EQ(EvalCond(SwapCond(cond), Type::kI64, b, a), EvalCond(cond, Type::kI64, a, b));
      }
    }
  }
}

TEST(SemanticsTest, Conversions) {
  EXPECT_EQ(EvalConvert(Opcode::kZext, Type::kI32, Type::kI64, -1), 4294967295LL);
  EXPECT_EQ(EvalConvert(Opcode::kSext, Type::kI1, Type::kI64, 1), -1);
  EXPECT_EQ(EvalConvert(Opcode::kTrunc, Type::kI64, Type::kI32, 0x1'8000'0000LL), -2147483648LL);
  EXPECT_EQ(EvalConvert(Opcode::kTrunc, Type::kI64, Type::kI1, 3), 1);
}

}  // namespace
}  // namespace morel::ir
