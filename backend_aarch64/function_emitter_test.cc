// AArch64's own operations, compiled and executed (by the harness's runner:
// natively on AArch64, under the emulator elsewhere) with linear scan and
// with every value spilled (madd/msub's three spilled operands take all
// three scratch registers): the target operations of target_lowering.h and
// zero tests as cbz/cbnz. Every shared machine-IR operation against the
// machine-IR interpreter is //engine/codegen:backend_test.

#include "backend_aarch64/function_emitter.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <string>
#include <vector>

#include "backend_aarch64/abi.h"
#include "backend_aarch64/isa.h"
#include "backend_aarch64/target_lowering.h"
#include "engine/codegen/testing/ir_harness.h"
#include "gtest/gtest.h"

namespace morel::aarch64 {
namespace {

using codegen::Cond;
using codegen::MachineFunction;
using codegen::MOp;
using codegen::testing::IrHarness;
using Op = codegen::MachineOperand;
namespace mi = codegen::mi;

class FunctionEmitterTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.status(); }
  IrHarness h_{"aarch64"};
};

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
