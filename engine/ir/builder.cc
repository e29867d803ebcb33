#include "engine/ir/builder.h"

#include "base/check.h"
#include "engine/ir/semantics.h"
#include "engine/ir/type_rules.h"

namespace morel::ir {

Block* Builder::CreateEntryBlock() {
  MOREL_CHECK_MSG(function_->blocks().empty(), "function already has an entry block");
  Block* entry = function_->CreateBlock();
  for (Type t : function_->param_types()) function_->AddBlockParam(entry, t);
  return entry;
}

bool Builder::IsTerminated() const {
  return block_ != nullptr && block_->terminator() != nullptr;
}

Instruction* Builder::Append(Instruction* inst) {
  MOREL_CHECK_MSG(block_ != nullptr, "Builder: no insertion point");
  block_->Append(inst);
  return inst;
}

Instruction* Builder::NewWithInferredResult(Opcode op, std::vector<Value*> operands,
                                            Type suffix) {
  std::optional<Type> type = InferSingleResultType(op, operands, suffix);
  MOREL_CHECK_MSG(type.has_value(),
                  "Builder: cannot infer the result type (operand of invalid type?)");
  Instruction* inst = function_->CreateInstruction(op, {*type});
  inst->mutable_operands() = std::move(operands);
  inst->set_type_suffix(suffix);
  return Append(inst);
}

Value* Builder::IConst(Type type, int64_t value) {
  Instruction* inst = function_->CreateInstruction(Opcode::kIconst, {type});
  inst->set_type_suffix(type);
  inst->set_imm(Normalize(type, value));
  return Append(inst)->result();
}

Value* Builder::PConst(uint64_t bits) {
  Instruction* inst = function_->CreateInstruction(Opcode::kPconst, {Type::kPtr});
  inst->set_imm(static_cast<int64_t>(bits));
  return Append(inst)->result();
}

Value* Builder::Alloc(int64_t bytes) {
  Instruction* inst = function_->CreateInstruction(Opcode::kAlloc, {Type::kPtr});
  inst->set_imm(bytes);
  return Append(inst)->result();
}

Value* Builder::Unary(Opcode op, Value* a) {
  MOREL_CHECK(GetOpcodeInfo(op).format == OpFormat::kUnary);
  return NewWithInferredResult(op, {a})->result();
}

Value* Builder::Binary(Opcode op, Value* a, Value* b) {
  MOREL_CHECK(GetOpcodeInfo(op).format == OpFormat::kBinary);
  return NewWithInferredResult(op, {a, b})->result();
}

Value* Builder::ICmp(Cond cond, Value* a, Value* b) {
  Instruction* inst = NewWithInferredResult(Opcode::kIcmp, {a, b});
  inst->set_cond(cond);
  return inst->result();
}

Value* Builder::Select(Value* cond, Value* if_true, Value* if_false) {
  return NewWithInferredResult(Opcode::kSelect, {cond, if_true, if_false})->result();
}

Value* Builder::Convert(Opcode op, Type to, Value* a) {
  MOREL_CHECK(GetOpcodeInfo(op).format == OpFormat::kConvert);
  return NewWithInferredResult(op, {a}, to)->result();
}

Value* Builder::Load(Type type, Value* ptr, int32_t offset, const AliasClass* alias) {
  Instruction* inst = NewWithInferredResult(Opcode::kLoad, {ptr}, type);
  inst->set_imm(offset);
  inst->set_alias_class(alias);
  return inst->result();
}

void Builder::Store(Value* value, Value* ptr, int32_t offset, const AliasClass* alias) {
  Instruction* inst = function_->CreateInstruction(Opcode::kStore, {});
  inst->mutable_operands() = {value, ptr};
  inst->set_type_suffix(value->type());
  inst->set_imm(offset);
  inst->set_alias_class(alias);
  Append(inst);
}

std::vector<Value*> Builder::CallRuntime(const RuntimeFunction* callee,
                                         absl::Span<Value* const> args,
                                         FrameState* lazy) {
  Instruction* inst =
      function_->CreateInstruction(Opcode::kCallRuntime, callee->signature.results);
  inst->set_callee(callee);
  inst->mutable_operands().assign(args.begin(), args.end());
  inst->set_frame_state(lazy);
  return Append(inst)->results();
}

std::vector<Value*> Builder::CallTarget(int64_t target_id, absl::Span<Value* const> args,
                                        absl::Span<const Type> result_types,
                                        FrameState* lazy) {
  Instruction* inst = function_->CreateInstruction(Opcode::kCallTarget, result_types);
  inst->set_imm(target_id);
  inst->mutable_operands().assign(args.begin(), args.end());
  inst->set_frame_state(lazy);
  return Append(inst)->results();
}

FrameState* Builder::CreateFrameState(DeoptKind kind, int64_t call_target_id,
                                      int64_t resume_point, std::vector<ValuePair> locals,
                                      std::vector<ValuePair> stack, FrameState* parent) {
  FrameState* fs = function_->CreateFrameState();
  fs->deopt_kind = kind;
  fs->call_target_id = call_target_id;
  fs->resume_point = resume_point;
  fs->locals = std::move(locals);
  fs->stack = std::move(stack);
  fs->parent = parent;
  return fs;
}

void Builder::Guard(Value* cond, FrameState* eager, std::string reason, DeoptAction action) {
  Instruction* inst = function_->CreateInstruction(Opcode::kGuard);
  inst->mutable_operands() = {cond};
  inst->set_frame_state(eager);
  inst->set_reason(std::move(reason));
  inst->set_deopt_action(action);
  Append(inst);
}

void Builder::Safepoint(FrameState* eager) {
  Instruction* inst = function_->CreateInstruction(Opcode::kSafepoint);
  inst->set_frame_state(eager);
  Append(inst);
}

void Builder::Jump(Block* target, absl::Span<Value* const> args) {
  Instruction* inst = function_->CreateInstruction(Opcode::kJump);
  inst->mutable_targets().push_back(BlockCall{target, {args.begin(), args.end()}});
  Append(inst);
}

void Builder::Br(Value* cond, Block* if_true, absl::Span<Value* const> true_args,
                 Block* if_false, absl::Span<Value* const> false_args) {
  Instruction* inst = function_->CreateInstruction(Opcode::kBr);
  inst->mutable_operands() = {cond};
  inst->mutable_targets().push_back(BlockCall{if_true, {true_args.begin(), true_args.end()}});
  inst->mutable_targets().push_back(
      BlockCall{if_false, {false_args.begin(), false_args.end()}});
  Append(inst);
}

void Builder::Return(absl::Span<Value* const> values) {
  Instruction* inst = function_->CreateInstruction(Opcode::kReturn);
  inst->mutable_operands().assign(values.begin(), values.end());
  Append(inst);
}

void Builder::Deopt(FrameState* eager, std::string reason, DeoptAction action) {
  Instruction* inst = function_->CreateInstruction(Opcode::kDeopt);
  inst->set_frame_state(eager);
  inst->set_reason(std::move(reason));
  inst->set_deopt_action(action);
  Append(inst);
}

void Builder::Unreachable() { Append(function_->CreateInstruction(Opcode::kUnreachable)); }

}  // namespace morel::ir
