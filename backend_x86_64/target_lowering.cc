#include "backend_x86_64/target_lowering.h"

#include "backend_x86_64/isa.h"
#include "engine/ir/opcode.h"

namespace morel::x86_64 {
namespace {

using codegen::Cond;
using codegen::LoweringContext;
using codegen::MachineInst;
using codegen::MachineOperand;
using codegen::MOp;

MachineInst TargetInst(Form form, Cond cond, std::vector<MachineOperand> defs,
                       std::vector<MachineOperand> uses) {
  MachineInst inst{MOp::kTarget, cond, std::move(defs), std::move(uses)};
  inst.target_opcode = static_cast<uint32_t>(form);
  return inst;
}

class Lowering final : public codegen::TargetLowering {
 public:
  bool LowerPure(const ir::Instruction& inst, LoweringContext& cx) const override {
    if (inst.opcode() == ir::Opcode::kSelect) return Select(inst, cx);
    return false;
  }

 private:
  // d = c ? t : f with c canonical (0/1). Every operand is in a register
  // before the test: nothing between the test and the cmov may set flags
  // (register copies and spill reloads are movs, which do not).
  static bool Select(const ir::Instruction& inst, LoweringContext& cx) {
    if (cx.ConstantOf(inst.operand(0))) return false;  // the shared lowering folds it
    const MachineOperand c = cx.Use(inst.operand(0));
    const MachineOperand t = cx.Use(inst.operand(1));
    const MachineOperand f = cx.Use(inst.operand(2));
    const MachineOperand d = MachineOperand::VReg(cx.VRegOf(inst.result()));
    cx.Emit(codegen::mi::Mov(d, f));
    cx.Emit(TargetInst(Form::kTestRR, Cond::kEq, {}, {c, c}));
    cx.Emit(TargetInst(Form::kCmov, Cond::kNe, {d}, {d, t}));
    return true;
  }
};

}  // namespace

const codegen::TargetLowering& X86_64TargetLowering() {
  static const Lowering* lowering = new Lowering();
  return *lowering;
}

}  // namespace morel::x86_64
