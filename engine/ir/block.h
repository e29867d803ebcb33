#ifndef MOREL_ENGINE_IR_BLOCK_H_
#define MOREL_ENGINE_IR_BLOCK_H_

// Block: a basic block with parameters (Cranelift style; there are no phis:
// predecessors pass arguments through jump/br). A well-formed block ends in
// exactly one terminator (jump, br, return, deopt, unreachable). Printed as
// block<id>; blocks are owned by their Function, which keeps them in layout
// order (the first is the entry block; its parameters are the function's
// parameters).

#include <cstdint>
#include <functional>
#include <vector>

namespace morel::ir {

class Function;
class Instruction;
class Value;

class Block {
 public:
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  uint32_t id() const { return id_; }
  Function* function() const { return function_; }
  // True once Function::RemoveBlock removed it from the layout.
  bool is_removed() const { return removed_; }

  const std::vector<Value*>& params() const { return params_; }
  const std::vector<Instruction*>& instructions() const { return insts_; }
  bool empty() const { return insts_.empty(); }
  // The last instruction if it is a terminator, else nullptr.
  Instruction* terminator() const;
  // Targets of the terminator, in order (a br to the same block twice lists
  // it twice).
  std::vector<Block*> successors() const;

  // Attach a detached instruction. CHECK-fails if it is in a block.
  void Append(Instruction* inst);
  void InsertBefore(Instruction* before, Instruction* inst);
  // Detaches `inst` (O(size of block)); its results become unattached.
  void Remove(Instruction* inst);
  // Detaches every instruction for which pred is true, in one sweep.
  int RemoveIf(const std::function<bool(Instruction*)>& pred);

 private:
  friend class Function;
  Block(Function* function, uint32_t id) : function_(function), id_(id) {}

  Function* function_;
  uint32_t id_;
  bool removed_ = false;
  std::vector<Value*> params_;
  std::vector<Instruction*> insts_;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_BLOCK_H_
