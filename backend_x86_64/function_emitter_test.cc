// Every machine-IR operation, compiled and executed natively, against the
// machine-IR interpreter (engine/codegen/testing) on random operands; with
// normal allocation and with every value spilled (exercising the scratch
// registers and the two-address rewrites).

#include "backend_x86_64/function_emitter.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "backend_x86_64/abi.h"
#include "backend_x86_64/isa.h"
#include "backend_x86_64/x86_64_backend.h"
#include "engine/codegen/testing/mir_interpreter.h"
#include "gtest/gtest.h"

namespace morel::x86_64 {
namespace {

using codegen::Cond;
using codegen::MachineFunction;
using codegen::MOp;
using Op = codegen::MachineOperand;
namespace mi = codegen::mi;

using Fn2 = int64_t (*)(int64_t, int64_t);

struct Case {
  MOp op;
  bool imm;
  Cond cond;
  // Which operand the result overwrites (non-SSA vregs): 0 fresh, 1 = a, 2 = b.
  int dst_alias;
};

// f(x, y) = x op y (or x op imm), with optional aliasing of the destination.
MachineFunction Build(const Case& c, int64_t imm) {
  MachineFunction mf("op");
  uint32_t b = mf.NewBlock();
  const auto& args = SysVRegisterInfo().argument_regs;
  uint32_t x = mf.NewVReg(), y = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(args[0])));
  mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(args[1])));
  uint32_t d = c.dst_alias == 1 ? x : c.dst_alias == 2 ? y : mf.NewVReg();
  Op rhs = c.imm ? Op::Imm(imm) : Op::VReg(y);
  switch (c.op) {
    case MOp::kNeg: case MOp::kNot:
      mf.Append(b, mi::Unary(c.op, Op::VReg(d), Op::VReg(x)));
      break;
    case MOp::kCmpSet:
      mf.Append(b, mi::CmpSet(c.cond, Op::VReg(d), Op::VReg(x), rhs));
      break;
    default:
      mf.Append(b, mi::Binary(c.op, Op::VReg(d), Op::VReg(x), rhs));
  }
  // Keep x and y alive past the operation so aliasing matters.
  uint32_t r = mf.NewVReg();
  mf.Append(b, mi::Binary(MOp::kXor, Op::VReg(r), Op::VReg(d), Op::VReg(x)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(r), Op::VReg(r), Op::VReg(y)));
  mf.Append(b, mi::Mov(Op::Phys(kRax), Op::VReg(r)));
  mf.Append(b, mi::Ret({Op::Phys(kRax)}));
  mf.ComputeSuccessors();
  return mf;
}

class FunctionEmitterTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
#if !defined(__x86_64__)
    GTEST_SKIP() << "executes x86_64 code";
#endif
    backend_ = CreateX86_64Backend();
  }
  std::unique_ptr<codegen::Backend> backend_;
  codegen::CodeCache cache_;
};

TEST_P(FunctionEmitterTest, EveryOperationMatchesTheInterpreter) {
  const bool spill_everything = GetParam();
  std::vector<Case> cases;
  for (MOp op : {MOp::kAdd, MOp::kSub, MOp::kMul, MOp::kAnd, MOp::kOr, MOp::kXor, MOp::kShl,
                 MOp::kSar, MOp::kShr, MOp::kDiv, MOp::kRem, MOp::kNeg, MOp::kNot}) {
    for (int alias = 0; alias < 3; ++alias) {
      cases.push_back({op, false, Cond::kEq, alias});
      if (op != MOp::kDiv && op != MOp::kRem && op != MOp::kNeg && op != MOp::kNot) {
        cases.push_back({op, true, Cond::kEq, alias});
      }
    }
  }
  for (int c = 0; c <= static_cast<int>(Cond::kUGe); ++c) {
    cases.push_back({MOp::kCmpSet, false, static_cast<Cond>(c), 0});
    cases.push_back({MOp::kCmpSet, true, static_cast<Cond>(c), 1});
  }
  std::mt19937_64 rng(42);
  const codegen::RegisterInfo& ri = backend_->register_info();
  int runs = 0;
  for (const Case& c : cases) {
    const bool shift = c.op == MOp::kShl || c.op == MOp::kSar || c.op == MOp::kShr;
    int64_t imm = shift ? static_cast<int64_t>(rng() % 64)
                        : (rng() % 2 ? static_cast<int8_t>(rng()) : static_cast<int32_t>(rng()));
    MachineFunction reference = Build(c, imm);
    MachineFunction mf = reference;
    codegen::CompileOptions options;
    options.allocation.spill_everything = spill_everything;
    auto code = backend_->Compile(mf, options, cache_);
    ASSERT_TRUE(code.ok()) << codegen::MOpName(c.op) << ": " << code.status();
    auto fn = reinterpret_cast<Fn2>(const_cast<void*>(code->entry()));
    for (int i = 0; i < 20; ++i) {
      int64_t x = static_cast<int64_t>(rng()) >> (rng() % 64);
      int64_t y = static_cast<int64_t>(rng()) >> (rng() % 64);
      if (i == 0) y = x;
      if (shift) y &= 63;
      if ((c.op == MOp::kDiv || c.op == MOp::kRem) && (y == 0 || y == -1)) y = 7;
      auto want = codegen::testing::RunMir(reference, ri,
                                           {static_cast<uint64_t>(x), static_cast<uint64_t>(y)});
      ASSERT_TRUE(want.ok()) << want.status();
      ASSERT_EQ(static_cast<uint64_t>(fn(x, y)), want->returned[0])
          << codegen::MOpName(c.op) << (c.imm ? " imm " : " reg ") << "alias " << c.dst_alias
          << " cond " << codegen::CondName(c.cond) << " x=" << x << " y=" << y << " imm=" << imm
          << "\n" << mf.Dump(&ri.names);
      ++runs;
    }
  }
  EXPECT_EQ(runs, static_cast<int>(cases.size()) * 20);
}

INSTANTIATE_TEST_SUITE_P(Allocation, FunctionEmitterTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "SpillEverything" : "LinearScan";
                         });

TEST_F(FunctionEmitterTest, TargetFormsPassThrough) {
  // max(x, y) with cmov: d = x; cmp x, y; cmovl d, y.
  MachineFunction mf("max");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), y = mf.NewVReg(), d = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(kRdi)));
  mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(kRsi)));
  mf.Append(b, mi::Mov(Op::VReg(d), Op::VReg(x)));
  codegen::MachineInst cmp{MOp::kTarget, Cond::kEq, {}, {Op::VReg(x), Op::VReg(y)}};
  cmp.target_opcode = static_cast<uint32_t>(Form::kCmpRR);
  mf.Append(b, cmp);
  codegen::MachineInst cmov{MOp::kTarget, Cond::kLt, {Op::VReg(d)}, {Op::VReg(d), Op::VReg(y)}};
  cmov.target_opcode = static_cast<uint32_t>(Form::kCmov);
  mf.Append(b, cmov);
  mf.Append(b, mi::Mov(Op::Phys(kRax), Op::VReg(d)));
  mf.Append(b, mi::Ret({Op::Phys(kRax)}));
  mf.ComputeSuccessors();
  auto code = backend_->Compile(mf, {}, cache_);
  ASSERT_TRUE(code.ok()) << code.status();
  auto fn = reinterpret_cast<Fn2>(const_cast<void*>(code->entry()));
  EXPECT_EQ(fn(3, 9), 9);
  EXPECT_EQ(fn(9, 3), 9);
  EXPECT_EQ(fn(-4, -8), -4);
}

TEST_F(FunctionEmitterTest, RejectsIllegalImmediates) {
  EXPECT_FALSE(backend_->IsLegalImmediate(MOp::kAdd, int64_t{1} << 40));
  EXPECT_TRUE(backend_->IsLegalImmediate(MOp::kMovImm, int64_t{1} << 40));
  MachineFunction mf("big");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(kRdi)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(x), Op::VReg(x), Op::Imm(int64_t{1} << 40)));
  mf.Append(b, mi::Mov(Op::Phys(kRax), Op::VReg(x)));
  mf.Append(b, mi::Ret({Op::Phys(kRax)}));
  mf.ComputeSuccessors();
  auto code = backend_->Compile(mf, {}, cache_);
  EXPECT_FALSE(code.ok());
}

}  // namespace
}  // namespace morel::x86_64
