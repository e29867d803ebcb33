#include "engine/ir/function.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"

#include "base/check.h"

namespace morel::ir {

Function::Function(std::string name, std::vector<Type> param_types,
                   std::vector<Type> result_types)
    : name_(std::move(name)),
      param_types_(std::move(param_types)),
      result_types_(std::move(result_types)) {}

Function::~Function() = default;

int Function::InstructionCount() const {
  int count = 0;
  for (const Block* block : layout_) count += static_cast<int>(block->instructions().size());
  return count;
}

Block* Function::CreateBlock(std::optional<uint32_t> id) {
  uint32_t block_id = id.value_or(next_block_id_);
  MOREL_CHECK_MSG(!block_ids_.contains(block_id), "block id already in use");
  next_block_id_ = std::max(next_block_id_, block_id + 1);
  block_arena_.push_back(std::unique_ptr<Block>(new Block(this, block_id)));
  Block* block = block_arena_.back().get();
  block_ids_[block_id] = block;
  layout_.push_back(block);
  return block;
}

void Function::RemoveBlock(Block* block) {
  RemoveBlocksIf([block](Block* b) { return b == block; });
}

void Function::RemoveBlocksIf(const std::function<bool(Block*)>& remove) {
  std::vector<Block*> kept;
  for (Block* b : layout_) {
    if (remove(b)) {
      b->removed_ = true;
    } else {
      kept.push_back(b);
    }
  }
  layout_ = std::move(kept);
}

void Function::MoveBlock(Block* block, int index) {
  auto it = std::find(layout_.begin(), layout_.end(), block);
  MOREL_CHECK(it != layout_.end());
  layout_.erase(it);
  layout_.insert(layout_.begin() + index, block);
}

Value* Function::NewValue(Type type, std::optional<uint32_t> id) {
  uint32_t value_id = id.value_or(next_value_id_);
  MOREL_CHECK_MSG(!value_ids_.contains(value_id), "value id already in use");
  next_value_id_ = std::max(next_value_id_, value_id + 1);
  value_arena_.push_back(std::unique_ptr<Value>(new Value(value_id, type)));
  Value* v = value_arena_.back().get();
  value_ids_[value_id] = v;
  return v;
}

Value* Function::AddBlockParam(Block* block, Type type, std::optional<uint32_t> id) {
  Value* v = NewValue(type, id);
  v->param_block_ = block;
  v->index_ = static_cast<int>(block->params_.size());
  block->params_.push_back(v);
  return v;
}

void Function::RemoveBlockParam(Block* block, int index) {
  MOREL_CHECK(index >= 0 && index < static_cast<int>(block->params_.size()));
  block->params_[index]->param_removed_ = true;
  block->params_.erase(block->params_.begin() + index);
  for (int i = index; i < static_cast<int>(block->params_.size()); ++i) {
    block->params_[i]->index_ = i;
  }
  for (Block* b : layout_) {
    Instruction* t = b->terminator();
    if (t == nullptr) continue;
    for (BlockCall& call : t->targets_) {
      if (call.block == block && index < static_cast<int>(call.args.size())) {
        call.args.erase(call.args.begin() + index);
      }
    }
  }
}

Instruction* Function::CreateInstruction(Opcode opcode,
                                         absl::Span<const Type> result_types,
                                         absl::Span<const uint32_t> ids) {
  MOREL_CHECK(ids.empty() || ids.size() == result_types.size());
  inst_arena_.push_back(std::unique_ptr<Instruction>(new Instruction(opcode)));
  Instruction* inst = inst_arena_.back().get();
  for (size_t i = 0; i < result_types.size(); ++i) {
    Value* v = NewValue(result_types[i],
                        ids.empty() ? std::nullopt : std::optional<uint32_t>(ids[i]));
    v->instruction_ = inst;
    v->index_ = static_cast<int>(i);
    inst->results_.push_back(v);
  }
  return inst;
}

FrameState* Function::CreateFrameState(std::optional<uint32_t> id) {
  uint32_t fs_id = id.value_or(next_frame_state_id_);
  MOREL_CHECK_MSG(!frame_state_ids_.contains(fs_id), "frame state id already in use");
  next_frame_state_id_ = std::max(next_frame_state_id_, fs_id + 1);
  frame_state_arena_.push_back(std::make_unique<FrameState>());
  FrameState* fs = frame_state_arena_.back().get();
  fs->id = fs_id;
  frame_state_ids_[fs_id] = fs;
  frame_states_.push_back(fs);
  return fs;
}

VirtualObject* Function::CreateVirtualObject(std::optional<uint32_t> id) {
  uint32_t object_id = id.value_or(next_object_id_);
  MOREL_CHECK_MSG(!object_ids_.contains(object_id), "virtual object id already in use");
  next_object_id_ = std::max(next_object_id_, object_id + 1);
  object_arena_.push_back(std::make_unique<VirtualObject>());
  VirtualObject* object = object_arena_.back().get();
  object->id = object_id;
  object_ids_[object_id] = object;
  return object;
}

std::vector<VirtualObject*> Function::ReferencedVirtualObjects() const {
  absl::flat_hash_set<VirtualObject*> seen;
  std::vector<VirtualObject*> objects;
  for (FrameState* fs : frame_states_) {
    for (VirtualObject* object : fs->VirtualObjects()) {
      if (seen.insert(object).second) objects.push_back(object);
    }
  }
  std::sort(objects.begin(), objects.end(),
            [](const VirtualObject* a, const VirtualObject* b) { return a->id < b->id; });
  return objects;
}

void Function::RemoveFrameState(FrameState* fs) {
  auto it = std::find(frame_states_.begin(), frame_states_.end(), fs);
  MOREL_CHECK(it != frame_states_.end());
  frame_states_.erase(it);
}

void Function::ReplaceUses(const absl::flat_hash_map<Value*, Value*>& map) {
  if (map.empty()) return;
  auto resolve = [&map](Value*& v) {
    if (v == nullptr) return;
    int steps = 0;
    for (auto it = map.find(v); it != map.end(); it = map.find(v)) {
      v = it->second;
      MOREL_CHECK_MSG(++steps < 1000000, "cyclic value replacement");
    }
  };
  for (Block* b : layout_) {
    for (Instruction* inst : b->insts_) inst->ForEachUse(resolve);
  }
  for (FrameState* fs : frame_states_) fs->ForEachValue(resolve);
}

}  // namespace morel::ir
