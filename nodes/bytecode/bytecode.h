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
  /* run operation k on the top n values (popped), push its result: k, n */ \
  X(kOperation, "op", 2, -2, 1)                                             \
  /* `constant c` then `op k m+1` as one instruction (the builder fuses */  \
  /* them): operation k on the top m values and constants[c]: k, c, m */    \
  X(kOperationConstant, "op.const", 3, -3, 1)                               \
  /* `op k n` then `store.local s` as one instruction (fused): k, n, s */   \
  X(kOperationStore, "op.store", 3, -2, 0)                                  \
  /* `op.const k c m` then `store.local s` (fused): k, c, m, s */           \
  X(kOperationConstantStore, "op.const.store", 4, -3, 0)                    \
  /* `load.local s` then `op k m+1` (fused): operation k on the top m */    \
  /* values and local s (read as load.local reads it): k, s, m */           \
  X(kOperationLocal, "op.local", 3, -3, 1)                                  \
  /* `load.local s`, `load.local t`, `op k m+2`: k, s, t, m */              \
  X(kOperationLocalLocal, "op.local.local", 4, -4, 1)                       \
  /* `load.local s`, `constant c`, `op k m+2`: k, s, c, m */                \
  X(kOperationLocalConstant, "op.local.const", 4, -4, 1)                    \
  /* the three forms above, then `store.local d` (fused): their words, d */ \
  X(kOperationLocalStore, "op.local.store", 4, -3, 0)                       \
  X(kOperationLocalLocalStore, "op.local.local.store", 5, -4, 0)            \
  X(kOperationLocalConstantStore, "op.local.const.store", 5, -4, 0)

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
static_assert(static_cast<int>(Opcode::kOperationLocalConstantStore) == kNumOpcodes - 1);

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
  return op >= Opcode::kOperation && op <= Opcode::kOperationLocalConstantStore;
}
// Where an operation instruction of one form keeps its parts. The words
// after the opcode: the operation k, the fused locals, the fused constant,
// the count m of operands on the stack, the fused store's slot. The
// table's operand and pop counts (checked in bytecode.cc), DecodeOperation
// and the interpreter's handlers (bytecode_switch.h) all read it.
struct OperationLayout {
  int locals;     // fused load.locals: 0, 1 or 2
  bool constant;  // a fused constant (after the locals)
  bool store;     // a fused store.local
  constexpr int local_word(int i) const { return 2 + i; }
  constexpr int constant_word() const { return 2 + locals; }
  constexpr int stack_count_word() const { return 2 + fused(); }
  constexpr int store_word() const { return stack_count_word() + 1; }
  constexpr int length() const { return stack_count_word() + 1 + (store ? 1 : 0); }
  // The operands that are not on the stack.
  constexpr int fused() const { return locals + (constant ? 1 : 0); }
};
// The layout of an operation form (IsOperation).
constexpr OperationLayout LayoutOf(Opcode op) {
  switch (op) {
    case Opcode::kOperation:
      return {0, false, false};
    case Opcode::kOperationConstant:
      return {0, true, false};
    case Opcode::kOperationStore:
      return {0, false, true};
    case Opcode::kOperationConstantStore:
      return {0, true, true};
    case Opcode::kOperationLocal:
      return {1, false, false};
    case Opcode::kOperationLocalLocal:
      return {2, false, false};
    case Opcode::kOperationLocalConstant:
      return {1, true, false};
    case Opcode::kOperationLocalStore:
      return {1, false, true};
    case Opcode::kOperationLocalLocalStore:
      return {2, false, true};
    case Opcode::kOperationLocalConstantStore:
      return {1, true, true};
    default:
      return {-1, false, false};
  }
}
// The parts of an operation instruction (IsOperation), wherever its form
// keeps them: operation node k runs on `stack_operands` values popped from
// the stack, then locals `locals[0..local_count)` if the form fused local
// reads, then constants[constant] if it fused a constant (else -1); the
// result is pushed, or stored into local `store_slot` by the forms that
// fused a store.local (else -1).
struct OperationInstruction {
  int operation;
  int constant;
  int stack_operands;
  int store_slot;
  int local_count = 0;
  int locals[2] = {-1, -1};
  int operand_count() const { return stack_operands + local_count + (constant >= 0 ? 1 : 0); }
};
OperationInstruction DecodeOperation(absl::Span<const int32_t> code, int bci);
// Whether the instruction never falls through to the next one.
inline bool EndsBlock(Opcode op) { return op == Opcode::kBranch || op == Opcode::kReturn; }
// The branch target of a branch instruction, or -1.
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
