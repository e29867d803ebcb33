#include "backend_aarch64/target_lowering.h"

#include <algorithm>

#include "engine/ir/block.h"
#include "engine/ir/opcode.h"

namespace morel::aarch64 {
namespace {

using codegen::Cond;
using codegen::LoweringContext;
using codegen::MachineInst;
using codegen::MachineOperand;
using codegen::MOp;
using ir::Opcode;

MachineInst TargetInst(TargetOp op, Cond cond, std::vector<MachineOperand> defs,
                       std::vector<MachineOperand> uses) {
  MachineInst inst{MOp::kTarget, cond, std::move(defs), std::move(uses)};
  inst.target_opcode = static_cast<uint32_t>(op);
  return inst;
}

bool IsI64(const ir::Instruction& inst) { return inst.result()->type() == ir::Type::kI64; }

// An i64 imul with one use, in the block being lowered, that the shared
// lowering does not fold elsewhere (into a mul.ovf at a guard, which
// computes the product already).
bool IsFusableProduct(const ir::Value* v, LoweringContext& cx) {
  const ir::Instruction* def = v->instruction();
  return def != nullptr && def->opcode() == Opcode::kImul && IsI64(*def) &&
         cx.SingleUseInBlock(v) && cx.LoweredAtItsPosition(*def);
}

// Whether `mul`, an operand of `user`, becomes part of user's madd/msub:
// user is an i64 iadd (the product as operand 0, or as operand 1 when
// operand 0 is not a fusable product) or an i64 isub subtracting it
// (operand 1), lowered at its own position. Both the imul's and the user's
// lowering ask this, so they agree.
bool FusesInto(const ir::Instruction& mul, const ir::Instruction& user, LoweringContext& cx) {
  if ((user.opcode() != Opcode::kIadd && user.opcode() != Opcode::kIsub) || !IsI64(user) ||
      !cx.LoweredAtItsPosition(user) || !IsFusableProduct(mul.result(), cx)) {
    return false;
  }
  if (user.opcode() == Opcode::kIadd) {
    if (user.operand(0) == mul.result()) return true;
    return user.operand(1) == mul.result() && !IsFusableProduct(user.operand(0), cx);
  }
  return user.opcode() == Opcode::kIsub && user.operand(1) == mul.result() &&
         user.operand(0) != mul.result();
}

// The instruction of the block that uses `def`'s result (its only use), or
// null. Linear in the block: lowering a block with m such products costs
// O(m * block size), acceptable for the blocks partial evaluation emits.
const ir::Instruction* UserInBlock(const ir::Instruction& def) {
  const auto& insts = def.block()->instructions();
  auto it = std::find(insts.begin(), insts.end(), &def);
  for (++it; it != insts.end(); ++it) {
    for (const ir::Value* operand : (*it)->operands()) {
      if (operand == def.result()) return *it;
    }
  }
  return nullptr;
}

class Lowering final : public codegen::TargetLowering {
 public:
  bool LowerPure(const ir::Instruction& inst, LoweringContext& cx) const override {
    switch (inst.opcode()) {
      case Opcode::kSelect: return Select(inst, cx);
      case Opcode::kImul: {
        // Left to the multiply-add that uses it (below).
        const ir::Instruction* user = IsI64(inst) ? UserInBlock(inst) : nullptr;
        return user != nullptr && FusesInto(inst, *user, cx);
      }
      case Opcode::kIadd: case Opcode::kIsub: return MultiplyAdd(inst, cx);
      default: return false;
    }
  }

 private:
  // d = c ? t : f with c canonical (0/1): cmp c, #0; csel d, t, f, ne.
  // Nothing between the two changes flags (the allocator inserts only
  // register moves and loads/stores of spill slots).
  static bool Select(const ir::Instruction& inst, LoweringContext& cx) {
    if (cx.ConstantOf(inst.operand(0))) return false;  // the shared lowering folds it
    const MachineOperand c = cx.Use(inst.operand(0));
    const MachineOperand t = cx.Use(inst.operand(1));
    const MachineOperand f = cx.Use(inst.operand(2));
    const MachineOperand d = MachineOperand::VReg(cx.VRegOf(inst.result()));
    cx.Emit(TargetInst(TargetOp::kCmp, Cond::kEq, {}, {c, MachineOperand::Imm(0)}));
    cx.Emit(TargetInst(TargetOp::kCsel, Cond::kNe, {d}, {t, f}));
    return true;
  }

  // iadd (imul x, y), z -> madd d, x, y, z; isub z, (imul x, y) -> msub.
  static bool MultiplyAdd(const ir::Instruction& inst, LoweringContext& cx) {
    if (!IsI64(inst)) return false;
    for (int i = 0; i < 2; ++i) {
      const ir::Instruction* mul = inst.operand(i)->instruction();
      if (mul == nullptr || mul->opcode() != Opcode::kImul || !FusesInto(*mul, inst, cx)) continue;
      const MachineOperand x = cx.Use(mul->operand(0));
      const MachineOperand y = cx.Use(mul->operand(1));
      const MachineOperand z = cx.Use(inst.operand(1 - i));
      const MachineOperand d = MachineOperand::VReg(cx.VRegOf(inst.result()));
      const TargetOp op = inst.opcode() == Opcode::kIadd ? TargetOp::kMadd : TargetOp::kMsub;
      cx.Emit(TargetInst(op, Cond::kEq, {d}, {x, y, z}));
      return true;
    }
    return false;
  }
};

}  // namespace

const codegen::TargetLowering& Aarch64TargetLowering() {
  static const Lowering* lowering = new Lowering();
  return *lowering;
}

}  // namespace morel::aarch64
