#include "engine/ir/block.h"

#include <algorithm>

#include "base/check.h"
#include "engine/ir/instruction.h"

namespace morel::ir {

Instruction* Block::terminator() const {
  if (insts_.empty() || !IsTerminator(insts_.back()->opcode())) return nullptr;
  return insts_.back();
}

std::vector<Block*> Block::successors() const {
  std::vector<Block*> result;
  if (Instruction* t = terminator()) {
    for (const BlockCall& call : t->targets()) result.push_back(call.block);
  }
  return result;
}

void Block::Append(Instruction* inst) {
  MOREL_CHECK_MSG(inst->block_ == nullptr, "instruction is already in a block");
  inst->block_ = this;
  insts_.push_back(inst);
}

void Block::InsertBefore(Instruction* before, Instruction* inst) {
  MOREL_CHECK_MSG(inst->block_ == nullptr, "instruction is already in a block");
  auto it = std::find(insts_.begin(), insts_.end(), before);
  MOREL_CHECK_MSG(it != insts_.end(), "InsertBefore: position not in this block");
  inst->block_ = this;
  insts_.insert(it, inst);
}

void Block::Remove(Instruction* inst) {
  auto it = std::find(insts_.begin(), insts_.end(), inst);
  MOREL_CHECK_MSG(it != insts_.end(), "Remove: instruction not in this block");
  insts_.erase(it);
  inst->block_ = nullptr;
}

int Block::RemoveIf(const std::function<bool(Instruction*)>& pred) {
  int removed = 0;
  std::vector<Instruction*> kept;
  kept.reserve(insts_.size());
  for (Instruction* inst : insts_) {
    if (pred(inst)) {
      inst->block_ = nullptr;
      ++removed;
    } else {
      kept.push_back(inst);
    }
  }
  insts_ = std::move(kept);
  return removed;
}

}  // namespace morel::ir
