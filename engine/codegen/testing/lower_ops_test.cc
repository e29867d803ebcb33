// Differential tests of lowering, one IR operation at a time: every pure
// opcode the machine layer can express, at every integer type it accepts,
// with register operands and with constants on either side (immediates,
// materialized constants, swapped compares), compiled natively through
// engine/codegen/compile.h and compared with ir::Interpret over a grid of
// edge-case inputs, with normal allocation and with every vreg spilled.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/codegen/testing/ir_harness.h"
#include "engine/ir/builder.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

using ir::Opcode;
using ir::Type;
using ir::Value;
using testing::IrHarness;

const std::vector<int64_t>& Inputs() {
  static const std::vector<int64_t> v = {0,         1,         -1,        2,          5,
                                         31,        33,        63,        64,         -7,
                                         INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN,  0x80000000,
                                         0xffffffff, 12345678901};
  return v;
}

const std::vector<int64_t>& Constants() {
  static const std::vector<int64_t> v = {0,  1,         -1,        7,         32,
                                         63, INT32_MIN, INT64_MAX, INT64_MIN, 0x123456789};
  return v;
}

// How an operand is formed from the i64 argument: narrowed to the type, or
// a constant.
struct Operand {
  bool constant = false;
  int64_t value = 0;
};

Value* Narrow(ir::Builder& b, Type type, Value* x) {
  if (type == Type::kI64) return x;
  return b.Convert(Opcode::kTrunc, type, x);
}

Value* Widen(ir::Builder& b, Value* r) {
  switch (r->type()) {
    case Type::kI1: return b.Convert(Opcode::kZext, Type::kI64, r);
    case Type::kI32: return b.Convert(Opcode::kSext, Type::kI64, r);
    default: return r;
  }
}

class LowerOpsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.status();
  }

  // Compiles `f` twice (linear scan; spill everything) and compares every
  // input pair with the interpreter. Inputs with undefined behavior in the
  // IR (the interpreter fails) are skipped: native code may trap there.
  void ExpectSame(const ir::Function& f, int arity) {
    ASSERT_TRUE(ir::Verify(f).ok()) << ir::Verify(f) << ir::PrintFunction(f);
    for (bool spill : {false, true}) {
      codegen::NativeCompileOptions options = h_.DefaultOptions();
      options.codegen.allocation.spill_everything = spill;
      auto native = h_.Compile(f, options);
      ASSERT_TRUE(native.ok()) << native.status() << "\n" << ir::PrintFunction(f);
      for (int64_t x : Inputs()) {
        for (int64_t y : arity == 2 ? Inputs() : std::vector<int64_t>{0}) {
          const std::vector<int64_t> args = {x, y};
          auto want = ir::Interpret(f, args);
          if (!want.ok()) continue;
          auto got = (*native)->Run(args);
          ASSERT_TRUE(got.ok()) << got.status();
          ASSERT_EQ(ir::DebugString(*got), ir::DebugString(*want))
              << "args " << x << ", " << y << " spill " << spill << "\n"
              << ir::PrintFunction(f) << (*native)->compiled().machine_ir;
          ++runs_;
        }
      }
    }
  }

  // f(x, y) = widen(op(a, b)) with a, b formed per `lhs`, `rhs`.
  std::unique_ptr<ir::Function> BinaryFunction(Opcode op, ir::Cond cond, Type type, Operand lhs,
                                               Operand rhs) {
    auto f = std::make_unique<ir::Function>("op", std::vector<Type>{Type::kI64, Type::kI64},
                                            std::vector<Type>{Type::kI64});
    ir::Builder b(f.get());
    ir::Block* entry = b.CreateEntryBlock();
    b.SetInsertionPoint(entry);
    auto form = [&](const Operand& o, Value* arg) {
      return o.constant ? b.IConst(type, o.value) : Narrow(b, type, arg);
    };
    Value* a = form(lhs, entry->params()[0]);
    Value* c = form(rhs, entry->params()[1]);
    Value* r = op == Opcode::kIcmp ? b.ICmp(cond, a, c) : b.Binary(op, a, c);
    b.Return({Widen(b, r)});
    return f;
  }

  void CheckBinary(Opcode op, ir::Cond cond, Type type) {
    SCOPED_TRACE(std::string(ir::GetOpcodeInfo(op).name) + " " + std::string(ir::TypeName(type)));
    ExpectSame(*BinaryFunction(op, cond, type, {}, {}), 2);
    for (int64_t k : Constants()) {
      ExpectSame(*BinaryFunction(op, cond, type, {}, {true, k}), 2);
      ExpectSame(*BinaryFunction(op, cond, type, {true, k}, {}), 2);
    }
  }

  IrHarness h_{GetParam()};
  int64_t runs_ = 0;
};

TEST_P(LowerOpsTest, IntegerArithmeticAndShifts) {
  for (Opcode op : {Opcode::kIadd, Opcode::kIsub, Opcode::kImul, Opcode::kSdiv, Opcode::kSrem,
                    Opcode::kShl, Opcode::kLshr, Opcode::kAshr}) {
    for (Type type : {Type::kI32, Type::kI64}) CheckBinary(op, ir::Cond::kEq, type);
  }
  EXPECT_GT(runs_, 100000);
}

// Division by a constant power of two is lowered to shifts (rounding toward
// zero for negative dividends).
TEST_P(LowerOpsTest, DivisionByPowersOfTwo) {
  for (Opcode op : {Opcode::kSdiv, Opcode::kSrem}) {
    for (Type type : {Type::kI32, Type::kI64}) {
      for (int s : {1, 2, 5, 30, 40, 62}) {
        if (type == Type::kI32 && s > 30) continue;
        SCOPED_TRACE(std::string(ir::GetOpcodeInfo(op).name) + " " +
                     std::string(ir::TypeName(type)) + " 2^" + std::to_string(s));
        ExpectSame(*BinaryFunction(op, ir::Cond::kEq, type, {}, {true, int64_t{1} << s}), 2);
      }
    }
  }
  EXPECT_GT(runs_, 5000);
}

// Division by other constants multiplies by a "magic" number (Hacker's
// Delight 10-4) instead of dividing.
TEST_P(LowerOpsTest, DivisionByOtherConstants) {
  for (Opcode op : {Opcode::kSdiv, Opcode::kSrem}) {
    for (Type type : {Type::kI32, Type::kI64}) {
      for (int64_t k : {int64_t{3}, int64_t{5}, int64_t{6}, int64_t{7}, int64_t{10}, int64_t{100},
                        int64_t{641}, int64_t{134456}, int64_t{1000000007}, int64_t{-2},
                        int64_t{-3}, int64_t{-8}, int64_t{-10}, int64_t{-1000000007},
                        int64_t{INT32_MAX}, int64_t{INT32_MIN} + 1, int64_t{0x123456789},
                        INT64_MAX, INT64_MIN + 1, int64_t{-0x123456789}}) {
        if (type == Type::kI32 && (k > INT32_MAX || k < INT32_MIN)) continue;
        SCOPED_TRACE(std::string(ir::GetOpcodeInfo(op).name) + " " +
                     std::string(ir::TypeName(type)) + " by " + std::to_string(k));
        ExpectSame(*BinaryFunction(op, ir::Cond::kEq, type, {}, {true, k}), 2);
      }
    }
  }
  EXPECT_GT(runs_, 20000);
}

TEST_P(LowerOpsTest, OverflowChecksAsValues) {
  for (Opcode op : {Opcode::kIaddOverflows, Opcode::kIsubOverflows, Opcode::kImulOverflows}) {
    for (Type type : {Type::kI32, Type::kI64}) CheckBinary(op, ir::Cond::kEq, type);
  }
}

TEST_P(LowerOpsTest, BitwiseLogicIncludingI1) {
  for (Opcode op : {Opcode::kAnd, Opcode::kOr, Opcode::kXor}) {
    for (Type type : {Type::kI1, Type::kI32, Type::kI64}) CheckBinary(op, ir::Cond::kEq, type);
  }
}

TEST_P(LowerOpsTest, EveryComparisonAtEveryType) {
  for (int c = 0; c < ir::kNumConds; ++c) {
    for (Type type : {Type::kI1, Type::kI32, Type::kI64}) {
      CheckBinary(Opcode::kIcmp, static_cast<ir::Cond>(c), type);
    }
  }
}

TEST_P(LowerOpsTest, UnaryOperationsAndConversions) {
  struct Case {
    Type from;
    Opcode op;
    Type to;  // conversions only
  };
  const std::vector<Case> cases = {
      {Type::kI32, Opcode::kIneg, Type::kInvalid}, {Type::kI64, Opcode::kIneg, Type::kInvalid},
      {Type::kI1, Opcode::kNot, Type::kInvalid},   {Type::kI32, Opcode::kNot, Type::kInvalid},
      {Type::kI64, Opcode::kNot, Type::kInvalid},  {Type::kI1, Opcode::kZext, Type::kI32},
      {Type::kI1, Opcode::kZext, Type::kI64},      {Type::kI32, Opcode::kZext, Type::kI64},
      {Type::kI1, Opcode::kSext, Type::kI32},      {Type::kI1, Opcode::kSext, Type::kI64},
      {Type::kI32, Opcode::kSext, Type::kI64},     {Type::kI64, Opcode::kTrunc, Type::kI32},
      {Type::kI64, Opcode::kTrunc, Type::kI1},     {Type::kI32, Opcode::kTrunc, Type::kI1},
      {Type::kI64, Opcode::kBitcast, Type::kPtr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(ir::GetOpcodeInfo(c.op).name));
    ir::Function f("unary", {Type::kI64, Type::kI64}, {Type::kI64});
    ir::Builder b(&f);
    ir::Block* entry = b.CreateEntryBlock();
    b.SetInsertionPoint(entry);
    Value* a = Narrow(b, c.from, entry->params()[0]);
    Value* r = c.to == Type::kInvalid ? b.Unary(c.op, a) : b.Convert(c.op, c.to, a);
    if (r->type() == Type::kPtr) r = b.Convert(Opcode::kBitcast, Type::kI64, r);
    b.Return({Widen(b, r)});
    ExpectSame(f, 1);
  }
}

TEST_P(LowerOpsTest, SelectAtEveryType) {
  for (Type type : {Type::kI1, Type::kI32, Type::kI64}) {
    for (int constant_cond = -1; constant_cond <= 1; ++constant_cond) {
      ir::Function f("select", {Type::kI64, Type::kI64}, {Type::kI64});
      ir::Builder b(&f);
      ir::Block* entry = b.CreateEntryBlock();
      b.SetInsertionPoint(entry);
      Value* x = entry->params()[0];
      Value* y = entry->params()[1];
      Value* c = constant_cond < 0 ? b.ICmp(ir::Cond::kSlt, x, y) : b.Bool(constant_cond == 1);
      Value* r = b.Select(c, Narrow(b, type, b.Binary(Opcode::kIadd, x, b.I64(3))),
                          Narrow(b, type, y));
      b.Return({Widen(b, r)});
      ExpectSame(f, 2);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, LowerOpsTest, ::testing::ValuesIn(testing::RunnableBackends()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LowerOpsTest);

}  // namespace
}  // namespace morel::codegen
