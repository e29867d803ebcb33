#ifndef MOREL_ENGINE_CODEGEN_LOWERER_H_
#define MOREL_ENGINE_CODEGEN_LOWERER_H_

// Internal to lowering (lower.h): the state of one Lower() call, shared by
// lower.cc (driver, control flow, calls, deopts, fusion) and
// lower_arithmetic.cc (pure operations).

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "engine/codegen/lower.h"
#include "engine/codegen/target_lowering.h"

namespace morel::codegen::internal {

using Op = MachineOperand;

class Lowerer final : public LoweringContext {
 public:
  Lowerer(const ir::Function& f, const Backend& backend, const LoweringOptions& options)
      : f_(f), backend_(backend), ri_(backend.register_info()), options_(options),
        mf_(f.name()) {}

  absl::StatusOr<LoweredFunction> Run();

 private:
  // ------------------------------------------------------------ analysis
  absl::Status CheckSupported(const ir::Instruction& inst) const;
  void CountUses(const std::vector<ir::Block*>& blocks);
  bool SingleUseInBlock(const ir::Value* v, const ir::Block* block) const;
  const ir::Instruction* FindFusableArith(const ir::Instruction& guard,
                                          const ir::Instruction& overflow) const;
  void PlanBlock(const ir::Block& block);

  // -------------------------------------------------------------- values
  // LoweringContext (also what a TargetLowering hook sees).
  uint32_t VRegOf(const ir::Value* v) override;
  std::optional<int64_t> ConstantOf(const ir::Value* v) const override;
  uint32_t Temp() override { return mf_.NewVReg(); }
  MachineInst& Emit(MachineInst inst) override { return mf_.Append(block_, std::move(inst)); }
  bool SingleUseInBlock(const ir::Value* v) const override {
    return SingleUseInBlock(v, ir_block_);
  }
  bool LoweredAtItsPosition(const ir::Instruction& inst) const override {
    return inst.block() == ir_block_ && !deferred_.contains(&inst);
  }
  // A register operand holding v (constants are materialized into a temp).
  Op Use(const ir::Value* v) override;
  // v as an immediate operand of `op` if it is a legal constant, else Use(v).
  Op UseOrImm(const ir::Value* v, MOp op) override;
  // Copies v into vreg d (kMovImm for constants).
  void MoveInto(uint32_t d, const ir::Value* v);

  // --------------------------------------------------------- arithmetic
  absl::Status LowerPure(const ir::Instruction& inst);
  void Binary(MOp op, uint32_t d, const ir::Value* a, const ir::Value* b, bool commutative);
  uint32_t BinaryTemp(MOp op, Op a, Op b);
  // sdiv/srem of x by the constant 2^s (0 < s < 63), with shifts.
  void DivideByPowerOfTwo(ir::Opcode opcode, uint32_t d, Op x, int s);
  // ... and by any other constant (|divisor| >= 2, not INT64_MIN), with a
  // multiplication.
  void DivideByConstant(ir::Opcode opcode, uint32_t d, Op x, int64_t divisor);
  void Sext32(uint32_t d, Op src);
  void Zext32(uint32_t d, Op src);
  void Normalize(ir::Type type, uint32_t d, Op src);  // d = canonical(src)
  void Shift(const ir::Instruction& inst, uint32_t d);
  void Overflows(const ir::Instruction& inst, uint32_t d);
  void MulOverflows64(uint32_t d, Op a, Op b);
  void SelectMask(uint32_t d, Op cond01, Op if_true, Op if_false);
  struct Compare {
    Cond cond;
    Op a, b;
  };
  Compare LowerCompare(ir::Cond cond, const ir::Value* x, const ir::Value* y, MOp op);

  // ----------------------------------------------- effects and control
  absl::Status LowerInst(const ir::Instruction& inst);
  absl::Status LowerCall(const ir::Instruction& inst);
  absl::StatusOr<std::vector<Op>> DispatchArguments(const ir::Instruction& inst);
  void LowerGuard(const ir::Instruction& inst);
  absl::Status LowerTerminator(const ir::Instruction& inst);
  void EmitCopies(const ir::BlockCall& edge);
  uint32_t EdgeBlock(const ir::BlockCall& edge);
  int32_t AddDeopt(const ir::FrameState* fs, DeoptEntry::Cause cause, const std::string& reason,
                   ir::DeoptAction action = ir::DeoptAction::kInvalidate);
  // The exit of a guard or deopt: its frame state, reason and action.
  int32_t AddDeopt(const ir::Instruction& inst, DeoptEntry::Cause cause) {
    return AddDeopt(inst.frame_state(), cause, inst.reason(), inst.deopt_action());
  }

  const ir::Function& f_;
  const Backend& backend_;
  const RegisterInfo& ri_;
  const LoweringOptions& options_;
  MachineFunction mf_;
  DeoptMap map_;
  uint32_t block_ = 0;  // current machine block
  const ir::Block* ir_block_ = nullptr;

  std::vector<uint32_t> vregs_;  // by value id; kNoVReg if none yet
  absl::flat_hash_map<const ir::Block*, uint32_t> mblock_;
  absl::flat_hash_map<const ir::Value*, int> uses_;  // operands, args, frame states
  absl::flat_hash_set<const ir::Value*> in_frame_state_;
  // Instructions not emitted at their position (folded into a later one).
  absl::flat_hash_set<const ir::Instruction*> deferred_;
  // guard -> the overflow check it fuses with, and the arithmetic whose
  // result the fused instruction defines (nullptr: a dead temporary).
  struct Fusion {
    const ir::Instruction* overflow = nullptr;
    const ir::Instruction* arith = nullptr;
  };
  absl::flat_hash_map<const ir::Instruction*, Fusion> fused_guards_;
};

}  // namespace morel::codegen::internal

#endif  // MOREL_ENGINE_CODEGEN_LOWERER_H_
