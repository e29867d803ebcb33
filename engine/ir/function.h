#ifndef MOREL_ENGINE_IR_FUNCTION_H_
#define MOREL_ENGINE_IR_FUNCTION_H_

// Function: the unit of compilation. Owns its blocks (in layout order, the
// first is the entry), instructions, values and frame states; nothing is
// freed before the Function, so pointers stay valid while passes detach
// things. Text form (printer.h):
//
//   func @name(i64, i64) -> (i64, i64) {
//     fs0 = eager interpreter target 1 resume 4 locals [v0:v1] stack []
//   block0(v0: i64, v1: i64):
//     v2 = iconst.i64 1
//     ...
//   }

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "engine/ir/block.h"
#include "engine/ir/frame_state.h"
#include "engine/ir/instruction.h"
#include "engine/ir/types.h"
#include "engine/ir/value.h"

namespace morel::ir {

class Function {
 public:
  Function(std::string name, std::vector<Type> param_types,
           std::vector<Type> result_types);
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;
  ~Function();

  const std::string& name() const { return name_; }
  const std::vector<Type>& param_types() const { return param_types_; }
  const std::vector<Type>& result_types() const { return result_types_; }

  // Blocks in layout order; blocks()[0] is the entry block.
  const std::vector<Block*>& blocks() const { return layout_; }
  Block* entry() const { return layout_.empty() ? nullptr : layout_[0]; }
  // Instructions in all blocks (the "IR nodes" of traces and budgets).
  int InstructionCount() const;

  // Appends a new empty block to the layout. With `id`, uses that id
  // (the parser keeps the text's ids); CHECK-fails if it is taken.
  Block* CreateBlock(std::optional<uint32_t> id = std::nullopt);
  // Removes the block from the layout; its parameters and instructions
  // become unattached.
  void RemoveBlock(Block* block);
  // Removes every block for which remove(block) is true, in one sweep.
  void RemoveBlocksIf(const std::function<bool(Block*)>& remove);
  // Moves `block` to position `index` of the layout.
  void MoveBlock(Block* block, int index);

  Value* AddBlockParam(Block* block, Type type,
                       std::optional<uint32_t> id = std::nullopt);
  // Removes parameter `index` of `block` and the matching argument of every
  // jump/br in the function that targets `block`.
  void RemoveBlockParam(Block* block, int index);

  // A detached instruction with one result per type (fresh ids, or `ids`).
  Instruction* CreateInstruction(Opcode opcode,
                                 absl::Span<const Type> result_types = {},
                                 absl::Span<const uint32_t> ids = {});

  // A new frame state (fresh id, or `id`), owned by the function.
  FrameState* CreateFrameState(std::optional<uint32_t> id = std::nullopt);
  const std::vector<FrameState*>& frame_states() const { return frame_states_; }
  void RemoveFrameState(FrameState* fs);

  // A new virtual object (fresh id, or `id`), owned by the function; it
  // exists in the IR while a frame state references it.
  VirtualObject* CreateVirtualObject(std::optional<uint32_t> id = std::nullopt);
  // The virtual objects the function's frame states reference, by id.
  std::vector<VirtualObject*> ReferencedVirtualObjects() const;

  // Replaces every use (operands, block arguments, frame-state inputs) of a
  // key of `map` by its value, following chains (a->b, b->c gives a->c).
  void ReplaceUses(const absl::flat_hash_map<Value*, Value*>& map);

  // Upper bounds of the ids in use, for dense side tables.
  uint32_t value_id_bound() const { return next_value_id_; }
  uint32_t block_id_bound() const { return next_block_id_; }

  // True if `id` is used by some value ever created in this function.
  bool HasValueId(uint32_t id) const { return value_ids_.contains(id); }

 private:
  Value* NewValue(Type type, std::optional<uint32_t> id);

  std::string name_;
  std::vector<Type> param_types_;
  std::vector<Type> result_types_;

  std::vector<std::unique_ptr<Block>> block_arena_;
  std::vector<std::unique_ptr<Instruction>> inst_arena_;
  std::vector<std::unique_ptr<Value>> value_arena_;
  std::vector<std::unique_ptr<FrameState>> frame_state_arena_;
  std::vector<std::unique_ptr<VirtualObject>> object_arena_;

  std::vector<Block*> layout_;
  std::vector<FrameState*> frame_states_;
  absl::flat_hash_map<uint32_t, Value*> value_ids_;
  absl::flat_hash_map<uint32_t, Block*> block_ids_;
  absl::flat_hash_map<uint32_t, FrameState*> frame_state_ids_;
  uint32_t next_value_id_ = 0;
  uint32_t next_block_id_ = 0;
  uint32_t next_frame_state_id_ = 0;
  uint32_t next_object_id_ = 0;
  absl::flat_hash_map<uint32_t, VirtualObject*> object_ids_;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_FUNCTION_H_
