#include "nodes/bytecode/bytecode_builder.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace morel::bytecode {

BytecodeBuilder::Label BytecodeBuilder::NewLabel() {
  labels_.emplace_back();
  return Label{static_cast<int>(labels_.size() - 1)};
}

void BytecodeBuilder::Fail(std::string message) {
  if (error_.empty()) error_ = absl::StrCat("bci ", bci(), ": ", message);
}

void BytecodeBuilder::Bind(Label label) {
  LabelState& state = labels_[label.id];
  if (state.bci >= 0) return Fail(absl::StrCat("label ", label.id, " bound twice"));
  state.bci = bci();
  last_bound_bci_ = bci();
}

void BytecodeBuilder::SetSource(SourceSection section) {
  program_.sources.push_back(std::move(section));
  current_source_ = static_cast<int>(program_.sources.size() - 1);
}

void BytecodeBuilder::Emit(Opcode op, std::initializer_list<int32_t> operands) {
  const int start = bci();
  starts_.push_back(start);
  program_.code.push_back(static_cast<int32_t>(op));
  for (int32_t w : operands) program_.code.push_back(w);
  program_.source_index.resize(program_.code.size(), -1);
  program_.source_index[start] = current_source_;
}

void BytecodeBuilder::EmitConstant(Value value) {
  program_.constants.push_back(value);
  Emit(Opcode::kConstant, {static_cast<int32_t>(program_.constants.size() - 1)});
}

void BytecodeBuilder::EmitArgument(int index, Value missing) {
  program_.constants.push_back(missing);
  Emit(Opcode::kArgument, {index, static_cast<int32_t>(program_.constants.size() - 1)});
}

void BytecodeBuilder::EmitLoadLocal(int slot) { Emit(Opcode::kLoadLocal, {slot}); }
void BytecodeBuilder::EmitLoadLocalChecked(int slot, OperationNode on_uninitialized) {
  Emit(Opcode::kLoadLocalChecked, {slot, AddOperation(std::move(on_uninitialized))});
}
std::optional<Opcode> BytecodeBuilder::Fusable(int back) const {
  if (static_cast<int>(starts_.size()) < back) return std::nullopt;
  const int start = starts_[starts_.size() - back];
  if (last_bound_bci_ > start) return std::nullopt;
  return static_cast<Opcode>(program_.code[start]);
}

int32_t BytecodeBuilder::Word(int back, int i) const {
  return program_.code[starts_[starts_.size() - back] + i];
}

void BytecodeBuilder::Drop(int count) {
  const int start = starts_[starts_.size() - count];
  starts_.resize(starts_.size() - count);
  program_.code.resize(start);
  program_.source_index.resize(start);
}

namespace {

// The operation form that runs `op`'s operation on the same operands (an
// operation form that pushes its result) and does `tail` with the result
// (MOREL_OPERATION_FORMS), if there is one.
std::optional<Opcode> WithTail(Opcode op, OperationTail tail) {
  if (!IsOperation(op) || LayoutOf(op).tail != OperationTail::kPush) return std::nullopt;
  const OperationLayout layout = LayoutOf(op);
  for (int i = static_cast<int>(Opcode::kOperation); i < kNumOpcodes; ++i) {
    const OperationLayout form = LayoutOf(static_cast<Opcode>(i));
    if (form.locals == layout.locals && form.constant == layout.constant && form.tail == tail) {
      return static_cast<Opcode>(i);
    }
  }
  return std::nullopt;
}

}  // namespace

void BytecodeBuilder::ExtendLast(Opcode fused, std::optional<int32_t> word) {
  program_.code[starts_.back()] = static_cast<int32_t>(fused);
  if (!word) return;
  program_.code.push_back(*word);
  program_.source_index.push_back(-1);
}

void BytecodeBuilder::EmitStoreLocal(int slot) {
  // Right after an operation or an argument, that instruction stores the
  // value itself.
  const std::optional<Opcode> previous = Fusable(1);
  if (previous == Opcode::kArgument) return ExtendLast(Opcode::kArgumentStore, slot);
  if (const std::optional<Opcode> storing =
          previous ? WithTail(*previous, OperationTail::kStore) : std::nullopt) {
    return ExtendLast(*storing, slot);
  }
  Emit(Opcode::kStoreLocal, {slot});
}
void BytecodeBuilder::EmitPop() { Emit(Opcode::kPop, {}); }
void BytecodeBuilder::EmitDup() { Emit(Opcode::kDup, {}); }

void BytecodeBuilder::EmitJump(Opcode op, Label target) {
  // A conditional branch right after an operation that pushes its result:
  // that instruction branches on the result itself.
  const std::optional<Opcode> previous = op == Opcode::kBranch ? std::nullopt : Fusable(1);
  if (const std::optional<Opcode> branching =
          previous ? WithTail(*previous, op == Opcode::kBranchTrue ? OperationTail::kBranchTrue
                                                                   : OperationTail::kBranchFalse)
                   : std::nullopt) {
    ExtendLast(*branching, -1);
  } else {
    Emit(op, {-1});
  }
  labels_[target.id].uses.push_back(bci() - 1);
}

void BytecodeBuilder::EmitBranch(Label target) { EmitJump(Opcode::kBranch, target); }
void BytecodeBuilder::EmitBranchFalse(Label target) { EmitJump(Opcode::kBranchFalse, target); }
void BytecodeBuilder::EmitBranchTrue(Label target) { EmitJump(Opcode::kBranchTrue, target); }
void BytecodeBuilder::EmitReturn() {
  // Right after a local read, the return reads the local itself.
  if (Fusable(1) == Opcode::kLoadLocal) return ExtendLast(Opcode::kReturnLocal, std::nullopt);
  Emit(Opcode::kReturn, {});
}

void BytecodeBuilder::EmitOperation(OperationNode operation, int operands) {
  if (operands < 0) return Fail("an operation with a negative operand count");
  const int32_t k = AddOperation(std::move(operation));
  // Its last operands, pushed right before, fuse into it: two (a local
  // read, then a local read or a constant), else one (either).
  const std::optional<Opcode> last = Fusable(1);
  const bool last_fuses = last == Opcode::kLoadLocal || last == Opcode::kConstant;
  if (operands >= 2 && last_fuses && Fusable(2) == Opcode::kLoadLocal) {
    const int32_t local = Word(2, 1);
    const int32_t second = Word(1, 1);
    Drop(2);
    Emit(
        last == Opcode::kLoadLocal ? Opcode::kOperationLocalLocal : Opcode::kOperationLocalConstant,
        {k, local, second, static_cast<int32_t>(operands - 2)});
    return;
  }
  if (operands >= 1 && last_fuses) {
    const int32_t word = Word(1, 1);
    Drop(1);
    Emit(last == Opcode::kLoadLocal ? Opcode::kOperationLocal : Opcode::kOperationConstant,
         {k, word, static_cast<int32_t>(operands - 1)});
    return;
  }
  Emit(Opcode::kOperation, {k, static_cast<int32_t>(operands)});
}

int32_t BytecodeBuilder::AddOperation(OperationNode operation) {
  program_.operations.push_back(std::move(operation));
  return static_cast<int32_t>(program_.operations.size() - 1);
}

void BytecodeBuilder::EmitShortCircuit(ShortCircuit kind, absl::FunctionRef<void()> left,
                                       absl::FunctionRef<void()> right,
                                       absl::FunctionRef<void()> convert) {
  Label done = NewLabel();
  left();
  convert();
  EmitDup();
  if (kind == ShortCircuit::kAnd) {
    EmitBranchFalse(done);
  } else {
    EmitBranchTrue(done);
  }
  EmitPop();
  right();
  convert();
  Bind(done);
}

// Resolves the labels, then follows every path from bci 0 to give each
// reachable instruction its stack height (the same on every edge into it).
absl::StatusOr<BytecodeProgram> BytecodeBuilder::Build() && {
  if (!error_.empty()) return absl::InvalidArgumentError(error_);
  if (program_.code.empty()) return absl::InvalidArgumentError("no code");
  const int end = bci();
  for (size_t id = 0; id < labels_.size(); ++id) {
    const LabelState& label = labels_[id];
    if (label.uses.empty()) continue;
    if (label.bci < 0) {
      return absl::InvalidArgumentError(absl::StrCat("label ", id, " used but never bound"));
    }
    if (label.bci >= end) {
      return absl::InvalidArgumentError(
          absl::StrCat("label ", id, " bound after the last instruction"));
    }
    for (int use : label.uses) program_.code[use] = label.bci;
  }
  std::vector<int>& height = program_.stack_height;
  height.assign(program_.code.size(), -1);
  std::vector<int> work = {0};
  height[0] = 0;
  auto reach = [&](int from, int to, int h) -> absl::Status {
    if (to >= end) {
      return absl::InvalidArgumentError(
          absl::StrCat("bci ", from, ": the code falls off its end (no return)"));
    }
    if (height[to] < 0) {
      height[to] = h;
      work.push_back(to);
    } else if (height[to] != h) {
      return absl::InvalidArgumentError(absl::StrCat("bci ", to, ": reached with stack height ",
                                                     h, " from bci ", from, " and ",
                                                     height[to], " before"));
    }
    return absl::OkStatus();
  };
  while (!work.empty()) {
    const int at = work.back();
    work.pop_back();
    const Opcode op = static_cast<Opcode>(program_.code[at]);
    const int pops = Pops(program_.code, at);
    if (height[at] < pops) {
      return absl::InvalidArgumentError(
          absl::StrCat("bci ", at, ": ", Info(op).mnemonic, " pops ", pops,
                       " values of a stack of ", height[at]));
    }
    const int after = height[at] - pops + Info(op).pushes;
    program_.max_stack = std::max(program_.max_stack, after);
    // Fused operands (locals, a constant) go on the stack above the others;
    // a deoptimization in the operation resumes with its result above the
    // rest (BytecodeRootNode::Resume), also when a fused store or branch
    // consumes it.
    if (IsOperation(op)) {
      const OperationInstruction instruction = DecodeOperation(program_.code, at);
      program_.max_stack =
          std::max({program_.max_stack,
                    height[at] + instruction.operand_count() - instruction.stack_operands,
                    height[at] - instruction.stack_operands + 1});
    }
    if (op == Opcode::kReturn || op == Opcode::kReturnLocal) continue;
    if (const int target = BranchTarget(program_.code, at); target >= 0) {
      if (absl::Status s = reach(at, target, after); !s.ok()) return s;
    }
    if (!EndsBlock(op)) {
      if (absl::Status s = reach(at, at + Length(op), after); !s.ok()) return s;
    }
  }
  return std::move(program_);
}

}  // namespace morel::bytecode
