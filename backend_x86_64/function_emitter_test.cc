// x86_64's own forms through MOp::kTarget (the emitter's contract with the
// target lowering hook). Every shared machine-IR operation against the
// machine-IR interpreter, with every aliasing of the two-address rewrites
// and spill-everything, is //engine/codegen:backend_test.

#include "backend_x86_64/function_emitter.h"

#include <cstdint>
#include <string>
#include <vector>

#include "backend_x86_64/abi.h"
#include "backend_x86_64/isa.h"
#include "backend_x86_64/x86_64_backend.h"
#include "gtest/gtest.h"

namespace morel::x86_64 {
namespace {

using codegen::Cond;
using codegen::MachineFunction;
using codegen::MOp;
using Op = codegen::MachineOperand;
namespace mi = codegen::mi;

using Fn2 = int64_t (*)(int64_t, int64_t);

class FunctionEmitterTest : public ::testing::Test {
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

}  // namespace
}  // namespace morel::x86_64
