#ifndef MOREL_NODES_BYTECODE_BYTECODE_H_
#define MOREL_NODES_BYTECODE_BYTECODE_H_

// The instruction set of Morel's bytecode interpreters (the role of
// Truffle's Bytecode DSL, DESIGN §4): one table, the semantics beside each
// instruction. A language builds a BytecodeRootNode's code with a
// BytecodeBuilder (bytecode_builder.h); the generic interpreter
// (bytecode_root_node.cc), the partial evaluator's merge-explode
// (engine/pe) and the disassembler read this table.
//
// Code is a sequence of 32-bit words: an instruction's opcode, then its
// operands. A bci (bytecode index) is the word index of an opcode. Values
// live in the frame: locals in the descriptor's slots, the operand stack
// in the slots after them (BytecodeRootNode::stack_base()); the stack's
// height at every bci is fixed by the builder, so a bci alone says where
// the stack ends (which is what deoptimization and OSR resume from).
//
// Operations are the language's: `op k n` runs operation node k (a
// BytecodeOperation, bytecode_operation.h: the language's specializing node
// with its own state word and caches, the same specializations its AST
// interpreter runs) on the top n values and pushes its result.

#include <cstdint>
#include <functional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace morel::bytecode {

// What an operation form does with its operation's result (below).
enum class OperationTail { kPush, kStore, kBranchFalse, kBranchTrue };

// Where an operation instruction of one form keeps its parts (the words of
// MOREL_OPERATION_FORMS). The opcode table's entries for the forms,
// DecodeOperation and the interpreter's handlers (bytecode_switch.h) all
// come from it.
struct OperationLayout {
  int locals;     // fused load.locals: 0, 1 or 2 (-1: not an operation)
  bool constant;  // a fused constant (after the locals)
  OperationTail tail;
  constexpr bool store() const { return tail == OperationTail::kStore; }
  constexpr bool branches() const {
    return tail == OperationTail::kBranchFalse || tail == OperationTail::kBranchTrue;
  }
  constexpr int local_word(int i) const { return 2 + i; }
  constexpr int constant_word() const { return 2 + locals; }
  constexpr int stack_count_word() const { return 2 + fused(); }
  // The store's slot or the branch's target.
  constexpr int tail_word() const { return stack_count_word() + 1; }
  constexpr int length() const { return tail_word() + (tail == OperationTail::kPush ? 0 : 1); }
  // The operands that are not on the stack.
  constexpr int fused() const { return locals + (constant ? 1 : 0); }
};
//   X(name, mnemonic, operands, pops, pushes)  semantics
// pops -i: the instruction's operand i (1-based) says how many.
#define MOREL_BYTECODES(X)                                                  \
  /* push constants[c] */                                                   \
  X(kConstant, "constant", 1, 0, 1)                                         \
  /* push argument i of the activation, or constants[c] if fewer were */    \
  /* passed: i, c */                                                        \
  X(kArgument, "argument", 2, 0, 1)                                         \
  /* `argument i c` then `store.local s` (fused: a parameter's copy into */ \
  /* its local): i, c, s */                                                 \
  X(kArgumentStore, "argument.store", 3, 0, 0)                              \
  /* push local s as it is (also when never assigned) */                    \
  X(kLoadLocal, "load.local", 1, 0, 1)                                      \
  /* push local s; if it was never assigned, run operation k on no */       \
  /* operands instead and push its result (the language's error for an */   \
  /* uninitialized read): s, k */                                           \
  X(kLoadLocalChecked, "load.local.checked", 2, 0, 1)                       \
  /* pop into local s, widening the slot's kind in the frame descriptor */  \
  X(kStoreLocal, "store.local", 1, 1, 0)                                    \
  /* drop the top */                                                        \
  X(kPop, "pop", 0, 1, 0)                                                   \
  /* push a copy of the top */                                              \
  X(kDup, "dup", 0, 1, 2)                                                   \
  /* continue at bci t (t <= this bci: a back edge, which counts a loop */  \
  /* iteration, polls the safepoint and may enter OSR code) */              \
  X(kBranch, "branch", 1, 0, 0)                                             \
  /* pop a boolean; continue at t if it is false */                         \
  X(kBranchFalse, "branch.false", 1, 1, 0)                                  \
  /* pop a boolean; continue at t if it is true */                          \
  X(kBranchTrue, "branch.true", 1, 1, 0)                                    \
  /* pop the activation's result and return it */                           \
  X(kReturn, "return", 0, 1, 0)                                             \
  /* `load.local s` then `return` (fused): return local s */                \
  X(kReturnLocal, "return.local", 1, 0, 0)                                  \
  /* the operation forms (MOREL_OPERATION_FORMS, below) */                  \
  MOREL_OPERATION_FORMS(MOREL_OPERATION_FORM_OPCODE, X)

// The operation forms: `op k n` (run operation node k on the top n values,
// popped) with the instructions around it fused into it by the builder.
// The words after the opcode: k, the fused local slots, the fused
// constant's index, the count m of operands on the stack, then the tail's
// word. Operation k runs on the m stack values, then the fused locals (read
// as load.local reads them), then the fused constant; its result is
//   push:         pushed;
//   store:        stored into local d (a fused `store.local d`);
//   branch.false: tested, continuing at t if it is false (a fused
//                 `branch.false t`; the language guarantees a Boolean);
//   branch.true:  tested, continuing at t if it is true.
// A label between the parts prevents fusion (a branch there must not skip
// one). X(Name, mnemonic, fused locals, fused constant, tail), in the order
// of the opcodes (and of the quickened opcodes, bytecode_switch.h).
#define MOREL_OPERATION_FORMS(X, ...)                                                          \
  X(Operation, "op", 0, false, kPush, __VA_ARGS__)                                             \
  X(OperationConstant, "op.const", 0, true, kPush, __VA_ARGS__)                                \
  X(OperationStore, "op.store", 0, false, kStore, __VA_ARGS__)                                 \
  X(OperationConstantStore, "op.const.store", 0, true, kStore, __VA_ARGS__)                    \
  X(OperationLocal, "op.local", 1, false, kPush, __VA_ARGS__)                                  \
  X(OperationLocalLocal, "op.local.local", 2, false, kPush, __VA_ARGS__)                       \
  X(OperationLocalConstant, "op.local.const", 1, true, kPush, __VA_ARGS__)                     \
  X(OperationLocalStore, "op.local.store", 1, false, kStore, __VA_ARGS__)                      \
  X(OperationLocalLocalStore, "op.local.local.store", 2, false, kStore, __VA_ARGS__)           \
  X(OperationLocalConstantStore, "op.local.const.store", 1, true, kStore, __VA_ARGS__)         \
  X(OperationBranchFalse, "op.branch.false", 0, false, kBranchFalse, __VA_ARGS__)              \
  X(OperationConstantBranchFalse, "op.const.branch.false", 0, true, kBranchFalse, __VA_ARGS__) \
  X(OperationLocalBranchFalse, "op.local.branch.false", 1, false, kBranchFalse, __VA_ARGS__)   \
  X(OperationLocalLocalBranchFalse, "op.local.local.branch.false", 2, false, kBranchFalse,     \
    __VA_ARGS__)                                                                               \
  X(OperationLocalConstantBranchFalse, "op.local.const.branch.false", 1, true, kBranchFalse,   \
    __VA_ARGS__)                                                                               \
  X(OperationBranchTrue, "op.branch.true", 0, false, kBranchTrue, __VA_ARGS__)                 \
  X(OperationConstantBranchTrue, "op.const.branch.true", 0, true, kBranchTrue, __VA_ARGS__)    \
  X(OperationLocalBranchTrue, "op.local.branch.true", 1, false, kBranchTrue, __VA_ARGS__)      \
  X(OperationLocalLocalBranchTrue, "op.local.local.branch.true", 2, false, kBranchTrue,        \
    __VA_ARGS__)                                                                               \
  X(OperationLocalConstantBranchTrue, "op.local.const.branch.true", 1, true, kBranchTrue,      \
    __VA_ARGS__)
// An operation form as an opcode table entry, from its layout: the words
// after the opcode; pops m (its count word); pushes a result only when its
// tail pushes.
#define MOREL_OPERATION_FORM_OPCODE(name, mnemonic, locals, constant, tail, X)                \
  X(k##name, mnemonic, (OperationLayout{locals, constant, OperationTail::tail}.length() - 1), \
    (-OperationLayout{locals, constant, OperationTail::tail}.stack_count_word()),             \
    (OperationTail::tail == OperationTail::kPush ? 1 : 0))

enum class Opcode : int32_t {
#define MOREL_BYTECODE_ENUM(name, mnemonic, operands, pops, pushes) name,
  MOREL_BYTECODES(MOREL_BYTECODE_ENUM)
#undef MOREL_BYTECODE_ENUM
};
inline constexpr int kNumOpcodes = 0
#define MOREL_BYTECODE_COUNT(name, mnemonic, operands, pops, pushes) +1
    MOREL_BYTECODES(MOREL_BYTECODE_COUNT)
#undef MOREL_BYTECODE_COUNT
    ;
// The operation forms are the table's last entries (IsOperation).
inline constexpr int kNumOperationForms = 0
#define MOREL_OPERATION_FORM_COUNT(...) +1
    MOREL_OPERATION_FORMS(MOREL_OPERATION_FORM_COUNT, )
#undef MOREL_OPERATION_FORM_COUNT
    ;
static_assert(static_cast<int>(Opcode::kOperation) == kNumOpcodes - kNumOperationForms);

struct OpcodeInfo {
  absl::string_view mnemonic;
  int operands;  // words after the opcode
  int pops;      // -i: operand i says how many
  int pushes;
};
const OpcodeInfo& Info(Opcode op);
// Words an instruction takes, opcode included.
inline int Length(Opcode op) { return 1 + Info(op).operands; }
// Values the instruction at `code[bci]` pops.
int Pops(absl::Span<const int32_t> code, int bci);
// Whether the instruction runs an operation (`op` and its fused forms): a
// deoptimization inside it resumes after the operation, with its result
// on the stack (BytecodeRootNode::Resume).
inline constexpr bool IsOperation(Opcode op) {
  return op >= Opcode::kOperation && static_cast<int>(op) < kNumOpcodes;
}
// The layout of an operation form (IsOperation).
constexpr OperationLayout LayoutOf(Opcode op) {
  switch (op) {
#define MOREL_OPERATION_FORM_LAYOUT(name, mnemonic, locals, constant, tail, unused) \
  case Opcode::k##name:                                                             \
    return {locals, constant, OperationTail::tail};
    MOREL_OPERATION_FORMS(MOREL_OPERATION_FORM_LAYOUT, )
#undef MOREL_OPERATION_FORM_LAYOUT
    default:
      return {-1, false, OperationTail::kPush};
  }
}
// The parts of an operation instruction (IsOperation), wherever its form
// keeps them: operation node k runs on `stack_operands` values popped from
// the stack, then locals `locals[0..local_count)` if the form fused local
// reads, then constants[constant] if it fused a constant (else -1); the
// result is pushed, or stored into local `store_slot` by the forms that
// fused a store.local (else -1), or tested by the forms that fused a
// branch: continuing at `branch_target` (else -1) if it is
// `branch_if`.
struct OperationInstruction {
  int operation;
  int constant;
  int stack_operands;
  int store_slot;
  int local_count = 0;
  int locals[2] = {-1, -1};
  int branch_target = -1;
  bool branch_if = false;
  int operand_count() const { return stack_operands + local_count + (constant >= 0 ? 1 : 0); }
};
OperationInstruction DecodeOperation(absl::Span<const int32_t> code, int bci);
// The bcis of `code`'s instructions, in order (each instruction's Length
// after the one before): `for (int bci : Bcis(code))`.
class Bcis {
 public:
  explicit Bcis(absl::Span<const int32_t> code) : code_(code) {}
  class Iterator {
   public:
    int operator*() const { return bci_; }
    Iterator& operator++() {
      bci_ += Length(static_cast<Opcode>(code_[bci_]));
      return *this;
    }
    // Ends at the end of the code (or past it, for truncated code).
    bool operator!=(const Iterator& end) const { return bci_ < end.bci_; }

   private:
    friend class Bcis;
    Iterator(absl::Span<const int32_t> code, int bci) : code_(code), bci_(bci) {}
    absl::Span<const int32_t> code_;
    int bci_;
  };
  Iterator begin() const { return Iterator(code_, 0); }
  Iterator end() const { return Iterator(code_, static_cast<int>(code_.size())); }

 private:
  absl::Span<const int32_t> code_;
};

// Whether the instruction never falls through to the next one.
inline bool EndsBlock(Opcode op) {
  return op == Opcode::kBranch || op == Opcode::kReturn || op == Opcode::kReturnLocal;
}
// The branch target of a branch instruction (also an operation form's
// fused branch), or -1.
int BranchTarget(absl::Span<const int32_t> code, int bci);

// The operation node an instruction runs (`op k n`, or the fallback of
// `load.local.checked s k`), or -1.
int OperationIndex(absl::Span<const int32_t> code, int bci);

// One instruction per line: "  12: op 3 2   ; SLAddNode" (`describe_operation`
// names operation k, when given).
std::string Disassemble(absl::Span<const int32_t> code,
                        const std::function<std::string(int)>* describe_operation = nullptr);

}  // namespace morel::bytecode

#endif  // MOREL_NODES_BYTECODE_BYTECODE_H_
