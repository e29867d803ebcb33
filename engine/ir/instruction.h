#ifndef MOREL_ENGINE_IR_INSTRUCTION_H_
#define MOREL_ENGINE_IR_INSTRUCTION_H_

// Instruction: one operation of a block. Which fields are meaningful is
// decided by the opcode's format (opcodes.def / opcode.h):
//   operands      value operands (arity per the table; variadic for calls
//                 and return)
//   results       0..2 values (2 only for calls returning a guest Value)
//   type_suffix   iconst, conversions, load, store: the `.T` of the text
//   imm           iconst value (canonical form, types.h), pconst bits,
//                 load/store offset, call_target's target id
//   alias_class   load, store: the memory region accessed (alias_class.h);
//                 nullptr (the default) = unknown, may alias anything
//   cond          icmp
//   callee        call_runtime
//   frame_state   guard, safepoint, deopt (eager); calls (lazy, optional)
//   reason        guard, deopt
//   deopt_action  guard, deopt: whether deoptimizing there invalidates the
//                 code (kInvalidate, the default) or keeps it (kKeepCode)
//   targets       jump (1), br (2: taken if true, taken if false); each a
//                 block and the arguments for its parameters
// Instructions are created by Function::CreateInstruction (or the Builder)
// and owned by the Function. Setters exist for passes that rewrite in
// place; keeping the instruction well-formed is the pass's job, and the
// verifier checks it.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/ir/alias_class.h"
#include "engine/ir/frame_state.h"
#include "engine/ir/opcode.h"
#include "engine/ir/types.h"

namespace morel::ir {

class Block;
class Value;
struct RuntimeFunction;

// A control-flow edge with the arguments passed to the target's parameters.
struct BlockCall {
  Block* block = nullptr;
  std::vector<Value*> args;
};

class Instruction {
 public:
  Instruction(const Instruction&) = delete;
  Instruction& operator=(const Instruction&) = delete;

  Opcode opcode() const { return opcode_; }
  const OpcodeInfo& info() const { return GetOpcodeInfo(opcode_); }
  // The block the instruction is in, or nullptr if detached.
  Block* block() const { return block_; }

  const std::vector<Value*>& operands() const { return operands_; }
  std::vector<Value*>& mutable_operands() { return operands_; }
  Value* operand(int i) const { return operands_[i]; }
  void set_operand(int i, Value* v) { operands_[i] = v; }

  const std::vector<Value*>& results() const { return results_; }
  // The single result; CHECK-fails if there is not exactly one.
  Value* result() const;

  Type type_suffix() const { return type_suffix_; }
  void set_type_suffix(Type t) { type_suffix_ = t; }
  int64_t imm() const { return imm_; }
  void set_imm(int64_t imm) { imm_ = imm; }
  const AliasClass* alias_class() const { return alias_class_; }
  void set_alias_class(const AliasClass* c) { alias_class_ = c; }
  Cond cond() const { return cond_; }
  void set_cond(Cond c) { cond_ = c; }
  const RuntimeFunction* callee() const { return callee_; }
  void set_callee(const RuntimeFunction* f) { callee_ = f; }
  FrameState* frame_state() const { return frame_state_; }
  void set_frame_state(FrameState* fs) { frame_state_ = fs; }
  const std::string& reason() const { return reason_; }
  void set_reason(std::string reason) { reason_ = std::move(reason); }
  DeoptAction deopt_action() const { return deopt_action_; }
  void set_deopt_action(DeoptAction action) { deopt_action_ = action; }
  const std::vector<BlockCall>& targets() const { return targets_; }
  std::vector<BlockCall>& mutable_targets() { return targets_; }

  // Rewrites a single-result pure instruction in place into
  // `iconst.<type> value`; its result value (and every use) stays.
  void MakeConstant(Type type, int64_t value);
  // Rewrites a br into `jump` to its target `which` (0 or 1).
  void MakeJump(int which);
  // Changes the opcode without touching any other field (for rewrites that
  // keep the format, e.g. icmp condition or operand swaps).
  void set_opcode(Opcode op) { opcode_ = op; }

  // Calls f(Value*&) for every value use of the instruction: operands and
  // block arguments (not the frame state; see FrameState::ForEachValue).
  template <typename F>
  void ForEachUse(F&& f) {
    for (Value*& v : operands_) f(v);
    for (BlockCall& t : targets_) {
      for (Value*& v : t.args) f(v);
    }
  }

 private:
  friend class Function;
  friend class Block;
  explicit Instruction(Opcode op) : opcode_(op) {}

  Opcode opcode_;
  Type type_suffix_ = Type::kInvalid;
  Cond cond_ = Cond::kEq;
  Block* block_ = nullptr;
  int64_t imm_ = 0;
  std::vector<Value*> operands_;
  std::vector<Value*> results_;
  const AliasClass* alias_class_ = nullptr;
  const RuntimeFunction* callee_ = nullptr;
  FrameState* frame_state_ = nullptr;
  std::string reason_;
  DeoptAction deopt_action_ = DeoptAction::kInvalidate;
  std::vector<BlockCall> targets_;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_INSTRUCTION_H_
