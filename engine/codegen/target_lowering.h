#ifndef MOREL_ENGINE_CODEGEN_TARGET_LOWERING_H_
#define MOREL_ENGINE_CODEGEN_TARGET_LOWERING_H_

// The per-target lowering hook (Backend::target_lowering): a backend sees
// each pure IR operation before the shared lowering (lower.h) and may emit
// it itself -- as shared machine ops or as MOp::kTarget instructions of its
// own forms -- when the target has a better sequence than the
// target-independent one (x86_64: select as cmov; AArch64: csel, madd, ...).
// Whatever it emits must compute exactly what the shared lowering would: the
// result in canonical form (i1 = 0/1, i32 sign-extended, lower.h), no other
// effect. Operations it declines fall through to the shared lowering, so a
// backend without a hook, or one that declines everything, is correct.
//
// Machine flags are not values of the machine IR: a kTarget instruction
// that reads flags must follow the one that sets them directly, and nothing
// the register allocator inserts between them (copies, spill stores and
// reloads) may change flags on that target.

#include <cstdint>
#include <optional>

#include "engine/codegen/machine_function.h"
#include "engine/ir/instruction.h"
#include "engine/ir/value.h"

namespace morel::codegen {

// What a hook may use of the lowering in progress.
class LoweringContext {
 public:
  virtual ~LoweringContext() = default;

  // A register operand holding `v` (constants are materialized into a temp).
  virtual MachineOperand Use(const ir::Value* v) = 0;
  // `v` as an immediate operand of `op` if it is a constant that
  // Backend::IsLegalImmediate accepts, else Use(v).
  virtual MachineOperand UseOrImm(const ir::Value* v, MOp op) = 0;
  // The value of `v` if it is an iconst/pconst.
  virtual std::optional<int64_t> ConstantOf(const ir::Value* v) const = 0;
  // The vreg that holds `v` (define it to define the IR value).
  virtual uint32_t VRegOf(const ir::Value* v) = 0;
  // A fresh vreg.
  virtual uint32_t Temp() = 0;
  // Appends to the current machine block.
  virtual MachineInst& Emit(MachineInst inst) = 0;

  // For fusing an operation into its user (e.g. a multiply into a
  // multiply-add): whether `v` has exactly one use -- operands, block
  // arguments and frame states counted -- and is defined in the block
  // being lowered ...
  virtual bool SingleUseInBlock(const ir::Value* v) const = 0;
  // ... and whether `inst`, of that block, will be offered to LowerPure at
  // its own position (false when the shared lowering folds it into another
  // instruction: compare-and-branch, overflow-checked arithmetic). A hook
  // that emits nothing for an operation, leaving it to its user, must be
  // sure the user's LowerPure runs and emits it.
  virtual bool LoweredAtItsPosition(const ir::Instruction& inst) const = 0;
};

class TargetLowering {
 public:
  virtual ~TargetLowering() = default;
  // Emits `inst`, a pure operation with one result (not iconst/pconst), and
  // returns true; or emits nothing and returns false.
  virtual bool LowerPure(const ir::Instruction& inst, LoweringContext& cx) const = 0;
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_TARGET_LOWERING_H_
