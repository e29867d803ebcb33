#include "engine/codegen/machine_function.h"

#include <string>

#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

using Op = MachineOperand;

TEST(MachineFunctionTest, DumpIsCompactAndComplete) {
  MachineFunction mf("f");
  uint32_t b0 = mf.NewBlock(), b1 = mf.NewBlock(), b2 = mf.NewBlock();
  uint32_t a = mf.NewVReg(), c = mf.NewVReg();
  mf.Append(b0, mi::Mov(Op::VReg(a), Op::Phys(7)));
  mf.Append(b0, mi::Binary(MOp::kAdd, Op::VReg(c), Op::VReg(a), Op::Imm(10)));
  DeoptState st;
  st.id = 3;
  st.values = {Op::VReg(c), Op::Imm(1)};
  mf.Append(b0, mi::DeoptIf(Cond::kGt, Op::VReg(c), Op::Imm(100),
                            static_cast<int32_t>(mf.AddDeoptState(st))));
  mf.Append(b0, mi::Branch(Cond::kLt, Op::VReg(c), Op::Imm(10), b1, b2));
  mf.Append(b1, mi::Jump(b2));
  mf.Append(b2, mi::Mov(Op::Phys(0), Op::VReg(c)));
  mf.Append(b2, mi::Ret({Op::Phys(0)}));
  mf.block(b1).osr_entry = 0;
  mf.ComputeSuccessors();
  EXPECT_EQ(mf.block(b0).successors, (std::vector<uint32_t>{b1, b2}));
  EXPECT_EQ(mf.block(b1).successors, (std::vector<uint32_t>{b2}));
  EXPECT_TRUE(mf.block(b2).successors.empty());
  std::vector<std::string> names = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"};
  EXPECT_EQ(mf.Dump(&names),
            "function f:\n"
            "b0:\n"
            "  v0 = mov rdi\n"
            "  v1 = add v0, 10\n"
            "  deopt.if.gt v1, 100 deopt#3[v1, 1]\n"
            "  branch.lt v1, 10, b1, b2\n"
            "b1:  ; osr entry 0\n"
            "  jump b2\n"
            "b2:\n"
            "  rax = mov v1\n"
            "  ret rax\n");
}

TEST(MachineFunctionTest, CondNegationIsAnInvolution) {
  for (int c = 0; c <= static_cast<int>(Cond::kUGe); ++c) {
    Cond cond = static_cast<Cond>(c);
    EXPECT_NE(NegateCond(cond), cond);
    EXPECT_EQ(NegateCond(NegateCond(cond)), cond);
  }
}

}  // namespace
}  // namespace morel::codegen
