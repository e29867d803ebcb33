#ifndef MOREL_NODES_BYTECODE_BYTECODE_BUILDER_H_
#define MOREL_NODES_BYTECODE_BYTECODE_BUILDER_H_

// BytecodeBuilder: what a language's parser drives to make the code of a
// BytecodeRootNode (Truffle's BytecodeBuilder). It emits the instructions
// of bytecode.h, resolves labels and records the source position of every
// instruction. Build() follows every path from bci 0 to give each
// reachable instruction its operand stack height, and fails (naming the
// bci) on a label used but never bound, heights that differ between the
// edges into an instruction, a pop from a too-small stack, or code that can
// fall off its end; unreachable code is kept but never runs.
//
// Structured helpers on top: short-circuit and/or with the language's
// boolean conversion (the result is the converted value of the last
// operand evaluated, as Truffle's ShortCircuitOperation with a converter).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "nodes/bytecode/bytecode.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/heap.h"
#include "nodes/source.h"
#include "nodes/value.h"

namespace morel::bytecode {

// What a builder produces, and a BytecodeRootNode runs.
struct BytecodeProgram {
  std::vector<int32_t> code;
  // A collector root: constants may be heap values (strings, big numbers).
  heap::TracedVector<Value> constants;
  std::vector<OperationNode> operations;
  // Per code word: the operand stack's height before the instruction that
  // starts there (-1 for an operand word or unreachable code).
  std::vector<int> stack_height;
  int max_stack = 0;
  // Per code word: the index in `sources` of the instruction's source
  // position (-1: none).
  std::vector<int> source_index;
  std::vector<SourceSection> sources;
};

class BytecodeBuilder {
 public:
  struct Label {
    int id = -1;
  };

  Label NewLabel();
  // The next instruction is `label`'s target. The stack's height there is
  // that of the branches to it (or of the fall-through).
  void Bind(Label label);

  // The source position of the instructions emitted from now on.
  void SetSource(SourceSection section);

  void EmitConstant(Value value);
  void EmitArgument(int index, Value missing);
  void EmitLoadLocal(int slot);
  // Pushes local `slot`; if it was never assigned, runs `on_uninitialized`
  // (an operation of no operands: the language's error) instead.
  template <typename T>
  void EmitLoadLocalChecked(int slot, std::unique_ptr<T> on_uninitialized) {
    EmitLoadLocalChecked(slot, OperationNode::Of(std::move(on_uninitialized)));
  }
  void EmitLoadLocalChecked(int slot, OperationNode on_uninitialized);
  void EmitStoreLocal(int slot);
  void EmitPop();
  void EmitDup();
  void EmitBranch(Label target);
  void EmitBranchFalse(Label target);
  void EmitBranchTrue(Label target);
  // Returns the top; right after an EmitLoadLocal, the local
  // (`return.local`).
  void EmitReturn();
  // Runs `operation` (a Node implementing BytecodeOperation) on the top
  // `operands` values, pushes its result. Its last operands fuse into it
  // when they were pushed right before it (with no label bound in between):
  // a constant (`op.const`), a local read (`op.local`), two local reads
  // (`op.local.local`) or a local read and a constant (`op.local.const`);
  // an EmitStoreLocal right after fuses into any of them too (`op.store`,
  // `op.const.store`, `op.local.store`, ...), and so does an
  // EmitBranchFalse or EmitBranchTrue (`op.branch.false`,
  // `op.local.local.branch.true`, ...).
  template <typename T>
  void EmitOperation(std::unique_ptr<T> operation, int operands) {
    EmitOperation(OperationNode::Of(std::move(operation)), operands);
  }
  void EmitOperation(OperationNode operation, int operands);

  enum class ShortCircuit { kAnd, kOr };
  // `left` and `right` each leave one value; `convert` replaces the top
  // with its boolean (the language's conversion, an operation). kAnd: the
  // converted left if it is false, else the converted right; kOr likewise
  // with true. Leaves one value.
  void EmitShortCircuit(ShortCircuit kind, absl::FunctionRef<void()> left,
                        absl::FunctionRef<void()> right, absl::FunctionRef<void()> convert);

  // The bci of the next instruction.
  int bci() const { return static_cast<int>(program_.code.size()); }

  absl::StatusOr<BytecodeProgram> Build() &&;

 private:
  void Emit(Opcode op, std::initializer_list<int32_t> operands);
  int32_t AddOperation(OperationNode operation);
  // The opcode of the instruction `back` instructions before the next one
  // (1: the last emitted) if the next one may fuse with it and the ones
  // after it: none when a label is bound after its start (a branch there
  // would skip a fused part).
  std::optional<Opcode> Fusable(int back) const;
  // The word `i` of the instruction `back` instructions before the next.
  int32_t Word(int back, int i) const;
  // Removes the last `count` instructions (their parts are fused into the
  // next one).
  void Drop(int count);
  // Turns the last instruction into `fused`, which has its words and then
  // `word`, if given (a fused store's slot, a fused branch's target).
  void ExtendLast(Opcode fused, std::optional<int32_t> word);
  void EmitJump(Opcode op, Label target);
  void Fail(std::string message);

  BytecodeProgram program_;
  int current_source_ = -1;
  // The start of each instruction emitted, and the last bci a label was
  // bound to (-1: none): what fusing an instruction into its predecessors
  // checks.
  std::vector<int> starts_;
  int last_bound_bci_ = -1;
  struct LabelState {
    int bci = -1;
    std::vector<int> uses;  // operand words to patch
  };
  std::vector<LabelState> labels_;
  std::string error_;
};

}  // namespace morel::bytecode

#endif  // MOREL_NODES_BYTECODE_BYTECODE_BUILDER_H_
