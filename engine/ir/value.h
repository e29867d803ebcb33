#ifndef MOREL_ENGINE_IR_VALUE_H_
#define MOREL_ENGINE_IR_VALUE_H_

// Value: an SSA value, defined either by an instruction (one of its 0..2
// results) or as a parameter of a block. Values are owned by their Function
// and printed as v<id>; ids are unique within the function.

#include <cstdint>

#include "engine/ir/types.h"

namespace morel::ir {

class Block;
class Instruction;

class Value {
 public:
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;

  uint32_t id() const { return id_; }
  Type type() const { return type_; }
  // Only the parser (type inference) and in-place rewrites change types.
  void set_type(Type type) { type_ = type; }

  bool is_block_param() const { return param_block_ != nullptr; }
  // The defining instruction, or nullptr for a block parameter.
  Instruction* instruction() const { return instruction_; }
  // The block whose parameter this is, or nullptr.
  Block* param_block() const { return param_block_; }
  // Result index within the defining instruction, or parameter index.
  int index() const { return index_; }
  // The block where the value is defined; nullptr if the defining
  // instruction is not in a block.
  Block* defining_block() const;
  // True if the definition is still part of the function (the instruction
  // is in a block of the function, or the parameter in a live block).
  bool is_attached() const;

 private:
  friend class Function;
  Value(uint32_t id, Type type) : id_(id), type_(type) {}

  uint32_t id_;
  Type type_;
  int index_ = 0;
  bool param_removed_ = false;
  Instruction* instruction_ = nullptr;
  Block* param_block_ = nullptr;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_VALUE_H_
