#include "engine/ir/value.h"

#include "engine/ir/block.h"
#include "engine/ir/instruction.h"

namespace morel::ir {

Block* Value::defining_block() const {
  if (param_block_ != nullptr) return param_block_;
  return instruction_ == nullptr ? nullptr : instruction_->block();
}

bool Value::is_attached() const {
  if (param_block_ != nullptr) return !param_removed_ && !param_block_->is_removed();
  return instruction_ != nullptr && instruction_->block() != nullptr &&
         !instruction_->block()->is_removed();
}

}  // namespace morel::ir
