#ifndef MOREL_ENGINE_IR_BUILDER_H_
#define MOREL_ENGINE_IR_BUILDER_H_

// Builder: how the partial evaluator (and tests) construct IR.
//
//   ir::Function f("add", {Type::kI64, Type::kI64}, {Type::kI64});
//   ir::Builder b(&f);
//   ir::Block* entry = b.CreateEntryBlock();   // params from the signature
//   b.SetInsertionPoint(entry);
//   ir::Value* sum = b.Binary(Opcode::kIadd, entry->params()[0], entry->params()[1]);
//   b.Return({sum});
//
// Instructions are appended at the end of the insertion block. The builder
// computes result types from the opcode table but does not validate
// operands: run the verifier (verifier.h) on what you build.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"

namespace morel::ir {

class Builder {
 public:
  explicit Builder(Function* function) : function_(function) {}

  Function* function() const { return function_; }

  // ------------------------------------------------------------ blocks
  Block* CreateBlock() { return function_->CreateBlock(); }
  // Creates the first block with one parameter per function parameter.
  // CHECK-fails if the function already has blocks.
  Block* CreateEntryBlock();
  Value* AddBlockParam(Block* block, Type type) {
    return function_->AddBlockParam(block, type);
  }
  // Subsequent instructions are appended to `block`.
  void SetInsertionPoint(Block* block) { block_ = block; }
  Block* insertion_block() const { return block_; }
  // True if the insertion block already ends in a terminator.
  bool IsTerminated() const;

  // --------------------------------------------------------- constants
  Value* IConst(Type type, int64_t value);  // value is normalized to the type
  Value* I64(int64_t value) { return IConst(Type::kI64, value); }
  Value* I32(int32_t value) { return IConst(Type::kI32, value); }
  Value* Bool(bool value) { return IConst(Type::kI1, value ? 1 : 0); }
  Value* PConst(uint64_t bits);

  // -------------------------------------------------------- pure ops
  Value* Unary(Opcode op, Value* a);                // ineg, not
  Value* Binary(Opcode op, Value* a, Value* b);     // iadd ... fdiv
  Value* ICmp(Cond cond, Value* a, Value* b);
  Value* Select(Value* cond, Value* if_true, Value* if_false);
  Value* Convert(Opcode op, Type to, Value* a);     // zext sext trunc bitcast

  // ------------------------------------------------------------ memory
  // `alias`: the memory region accessed (alias_class.h); nullptr = unknown.
  Value* Load(Type type, Value* ptr, int32_t offset, const AliasClass* alias = nullptr);
  // `alloc bytes`: a new zero-filled object (bytes > 0, a multiple of 8).
  Value* Alloc(int64_t bytes);
  void Store(Value* value, Value* ptr, int32_t offset, const AliasClass* alias = nullptr);

  // ------------------------------------------------------------- calls
  // `lazy` may be null unless the callee may deoptimize.
  std::vector<Value*> CallRuntime(const RuntimeFunction* callee,
                                  absl::Span<Value* const> args,
                                  FrameState* lazy = nullptr);
  std::vector<Value*> CallTarget(int64_t target_id, absl::Span<Value* const> args,
                                 absl::Span<const Type> result_types,
                                 FrameState* lazy = nullptr);

  // ----------------------------------------- speculation and frame states
  FrameState* CreateFrameState(DeoptKind kind, int64_t call_target_id,
                               int64_t resume_point, std::vector<ValuePair> locals,
                               std::vector<ValuePair> stack,
                               FrameState* parent = nullptr);
  // `action`: what deoptimizing here does to the code (frame_state.h).
  void Guard(Value* cond, FrameState* eager, std::string reason,
             DeoptAction action = DeoptAction::kInvalidate);
  void Safepoint(FrameState* eager);

  // ------------------------------------------------------- terminators
  void Jump(Block* target, absl::Span<Value* const> args = {});
  void Br(Value* cond, Block* if_true, absl::Span<Value* const> true_args,
          Block* if_false, absl::Span<Value* const> false_args);
  void Return(absl::Span<Value* const> values);
  void Deopt(FrameState* eager, std::string reason,
             DeoptAction action = DeoptAction::kInvalidate);
  void Unreachable();

  // Low level: appends a fully set-up instruction.
  Instruction* Append(Instruction* inst);

 private:
  Instruction* NewWithInferredResult(Opcode op, std::vector<Value*> operands,
                                     Type suffix = Type::kInvalid);

  Function* function_;
  Block* block_ = nullptr;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_BUILDER_H_
