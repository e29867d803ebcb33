#include "engine/ir/instruction.h"

#include "base/check.h"

namespace morel::ir {

Value* Instruction::result() const {
  MOREL_CHECK_MSG(results_.size() == 1, "instruction does not have exactly one result");
  return results_[0];
}

void Instruction::MakeConstant(Type type, int64_t value) {
  MOREL_CHECK(results_.size() == 1);
  opcode_ = Opcode::kIconst;
  type_suffix_ = type;
  imm_ = value;
  operands_.clear();
  targets_.clear();
}

void Instruction::MakeJump(int which) {
  MOREL_CHECK(opcode_ == Opcode::kBr && (which == 0 || which == 1));
  BlockCall target = std::move(targets_[which]);
  targets_.clear();
  targets_.push_back(std::move(target));
  operands_.clear();
  opcode_ = Opcode::kJump;
}

}  // namespace morel::ir
