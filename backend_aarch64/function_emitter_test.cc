// Every machine-IR operation, compiled and executed (by the harness's
// runner: natively on AArch64, under the emulator elsewhere), against the
// machine-IR interpreter (engine/codegen/testing) on random operands; with
// normal allocation and with every value spilled (exercising the scratch
// registers); the target operations; zero tests as cbz/cbnz.

#include "backend_aarch64/function_emitter.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <random>
#include <string>
#include <vector>

#include "backend_aarch64/abi.h"
#include "backend_aarch64/isa.h"
#include "backend_aarch64/target_lowering.h"
#include "engine/codegen/testing/ir_harness.h"
#include "engine/codegen/testing/mir_interpreter.h"
#include "gtest/gtest.h"

namespace morel::aarch64 {
namespace {

using codegen::Cond;
using codegen::MachineFunction;
using codegen::MOp;
using codegen::testing::IrHarness;
using Op = codegen::MachineOperand;
namespace mi = codegen::mi;

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
  const auto& args = Aapcs64RegisterInfo().argument_regs;
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
  mf.Append(b, mi::Mov(Op::Phys(kX0), Op::VReg(r)));
  mf.Append(b, mi::Ret({Op::Phys(kX0)}));
  mf.ComputeSuccessors();
  return mf;
}

// A random immediate the backend accepts for `op`.
int64_t LegalImmediate(const codegen::Backend& backend, MOp op, std::mt19937_64& rng) {
  for (;;) {
    int64_t v;
    switch (rng() % 4) {
      case 0: v = static_cast<int64_t>(rng() % 4096); break;
      case 1: v = -static_cast<int64_t>(rng() % 4096); break;
      case 2: v = static_cast<int64_t>(rng() % 4096) << 12; break;
      default: {  // a bitmask immediate
        const unsigned ones = 1 + rng() % 63, rotation = rng() % 64;
        uint64_t u = (uint64_t{1} << ones) - 1;
        u = rotation == 0 ? u : (u >> rotation) | (u << (64 - rotation));
        v = static_cast<int64_t>(u);
      }
    }
    if (op == MOp::kShl || op == MOp::kSar || op == MOp::kShr) v &= 63;
    if (backend.IsLegalImmediate(op, v)) return v;
  }
}

class FunctionEmitterTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.status(); }
  IrHarness h_{"aarch64"};
};

TEST_P(FunctionEmitterTest, EveryOperationMatchesTheInterpreter) {
  const bool spill_everything = GetParam();
  std::vector<Case> cases;
  for (MOp op : {MOp::kAdd, MOp::kSub, MOp::kMul, MOp::kAnd, MOp::kOr, MOp::kXor, MOp::kShl,
                 MOp::kSar, MOp::kShr, MOp::kDiv, MOp::kRem, MOp::kNeg, MOp::kNot}) {
    for (int alias = 0; alias < 3; ++alias) {
      cases.push_back({op, false, Cond::kEq, alias});
      if (op != MOp::kDiv && op != MOp::kRem && op != MOp::kNeg && op != MOp::kNot &&
          op != MOp::kMul) {
        for (int k = 0; k < 3; ++k) cases.push_back({op, true, Cond::kEq, alias});
      }
    }
  }
  for (int c = 0; c <= static_cast<int>(Cond::kUGe); ++c) {
    cases.push_back({MOp::kCmpSet, false, static_cast<Cond>(c), 0});
    cases.push_back({MOp::kCmpSet, true, static_cast<Cond>(c), 1});
    cases.push_back({MOp::kCmpSet, true, static_cast<Cond>(c), 0});
  }
  std::mt19937_64 rng(42);
  const codegen::RegisterInfo& ri = h_.backend().register_info();
  int runs = 0;
  for (const Case& c : cases) {
    const bool shift = c.op == MOp::kShl || c.op == MOp::kSar || c.op == MOp::kShr;
    const int64_t imm = c.imm ? LegalImmediate(h_.backend(), c.op, rng) : 0;
    MachineFunction reference = Build(c, imm);
    MachineFunction mf = reference;
    codegen::CompileOptions options;
    options.allocation.spill_everything = spill_everything;
    auto code = h_.backend().Compile(mf, options, h_.cache());
    ASSERT_TRUE(code.ok()) << codegen::MOpName(c.op) << " #" << imm << ": " << code.status();
    for (int i = 0; i < 20; ++i) {
      int64_t x = static_cast<int64_t>(rng()) >> (rng() % 64);
      int64_t y = static_cast<int64_t>(rng()) >> (rng() % 64);
      if (i == 0) y = x;
      if (i == 1 && c.imm) x = imm;  // equal operands for the compares
      if (shift) y &= 63;
      if ((c.op == MOp::kDiv || c.op == MOp::kRem) && (y == 0 || y == -1)) y = 7;
      auto want = codegen::testing::RunMir(reference, ri,
                                           {static_cast<uint64_t>(x), static_cast<uint64_t>(y)});
      ASSERT_TRUE(want.ok()) << want.status();
      auto got = h_.runner().Call(code->entry(), {x, y});
      ASSERT_TRUE(got.ok()) << got.status();
      ASSERT_EQ(got->first, want->returned[0])
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

codegen::MachineInst Target(TargetOp op, Cond cond, std::vector<Op> defs, std::vector<Op> uses) {
  codegen::MachineInst inst{MOp::kTarget, cond, std::move(defs), std::move(uses)};
  inst.target_opcode = static_cast<uint32_t>(op);
  return inst;
}

// max(x, y) as cmp + csel; x * y + z and z - x * y as madd/msub.
TEST_P(FunctionEmitterTest, TargetOperations) {
  codegen::CompileOptions options;
  options.allocation.spill_everything = GetParam();
  {
    MachineFunction mf("max");
    uint32_t b = mf.NewBlock();
    uint32_t x = mf.NewVReg(), y = mf.NewVReg(), d = mf.NewVReg();
    mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(kX0)));
    mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(kX1)));
    mf.Append(b, Target(TargetOp::kCmp, Cond::kEq, {}, {Op::VReg(x), Op::VReg(y)}));
    mf.Append(b, Target(TargetOp::kCsel, Cond::kGt, {Op::VReg(d)}, {Op::VReg(x), Op::VReg(y)}));
    mf.Append(b, mi::Mov(Op::Phys(kX0), Op::VReg(d)));
    mf.Append(b, mi::Ret({Op::Phys(kX0)}));
    mf.ComputeSuccessors();
    auto code = h_.backend().Compile(mf, options, h_.cache());
    ASSERT_TRUE(code.ok()) << code.status();
    for (auto [x, y] : {std::pair<int64_t, int64_t>{3, 9}, {9, 3}, {-4, -8}, {INT64_MIN, 0}}) {
      auto got = h_.runner().Call(code->entry(), {x, y});
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(static_cast<int64_t>(got->first), std::max(x, y));
    }
  }
  for (TargetOp op : {TargetOp::kMadd, TargetOp::kMsub}) {
    MachineFunction mf("madd");
    uint32_t b = mf.NewBlock();
    uint32_t x = mf.NewVReg(), y = mf.NewVReg(), z = mf.NewVReg(), d = mf.NewVReg();
    mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(kX0)));
    mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(kX1)));
    mf.Append(b, mi::Mov(Op::VReg(z), Op::Phys(kX2)));
    mf.Append(b, Target(op, Cond::kEq, {Op::VReg(d)}, {Op::VReg(x), Op::VReg(y), Op::VReg(z)}));
    mf.Append(b, mi::Mov(Op::Phys(kX0), Op::VReg(d)));
    mf.Append(b, mi::Ret({Op::Phys(kX0)}));
    mf.ComputeSuccessors();
    auto code = h_.backend().Compile(mf, options, h_.cache());
    ASSERT_TRUE(code.ok()) << code.status();
    auto got = h_.runner().Call(code->entry(), {6, 7, 100});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(static_cast<int64_t>(got->first), op == TargetOp::kMadd ? 142 : 58);
  }
}

// Branches on x == 0 / x != 0 take no compare: cbz/cbnz, both ways round.
TEST_P(FunctionEmitterTest, ZeroTestsAreCompareAndBranch) {
  for (Cond cond : {Cond::kEq, Cond::kNe}) {
    for (bool then_falls_through : {false, true}) {
      MachineFunction mf("zero");
      uint32_t entry = mf.NewBlock(), a = mf.NewBlock(), b = mf.NewBlock();
      uint32_t x = mf.NewVReg(), r = mf.NewVReg();
      mf.Append(entry, mi::Mov(Op::VReg(x), Op::Phys(kX0)));
      // Layout order: entry, a, b; "then" is a or b.
      const uint32_t then_block = then_falls_through ? a : b;
      const uint32_t else_block = then_falls_through ? b : a;
      mf.Append(entry, mi::Branch(cond, Op::VReg(x), Op::Imm(0), then_block, else_block));
      for (uint32_t blk : {a, b}) {
        mf.Append(blk, mi::MovImm(Op::VReg(r), blk == then_block ? 1 : 2));
        mf.Append(blk, mi::Mov(Op::Phys(kX0), Op::VReg(r)));
        mf.Append(blk, mi::Ret({Op::Phys(kX0)}));
      }
      mf.ComputeSuccessors();
      codegen::CompileOptions options;
      options.allocation.spill_everything = GetParam();
      auto code = h_.backend().Compile(mf, options, h_.cache());
      ASSERT_TRUE(code.ok()) << code.status();
      auto listing = h_.backend().Disassemble(
          absl::MakeConstSpan(code->region.start, code->region.size), 0);
      ASSERT_TRUE(listing.ok());
      EXPECT_TRUE(listing->find("cbz") != std::string::npos ||
                  listing->find("cbnz") != std::string::npos)
          << *listing;
      EXPECT_EQ(listing->find("cmp"), std::string::npos) << *listing;
      for (int64_t v : {int64_t{0}, int64_t{5}, int64_t{-1}, INT64_MIN}) {
        auto got = h_.runner().Call(code->entry(), {v});
        ASSERT_TRUE(got.ok()) << got.status();
        const bool taken = cond == Cond::kEq ? v == 0 : v != 0;
        EXPECT_EQ(got->first, taken ? 1u : 2u) << codegen::CondName(cond) << " " << v;
      }
    }
  }
}

}  // namespace
}  // namespace morel::aarch64
