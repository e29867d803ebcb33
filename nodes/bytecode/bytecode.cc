#include "nodes/bytecode/bytecode.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace morel::bytecode {
namespace {

constexpr OpcodeInfo kInfo[] = {
#define MOREL_BYTECODE_INFO(name, mnemonic, operands, pops, pushes) \
  {mnemonic, operands, pops, pushes},
    MOREL_BYTECODES(MOREL_BYTECODE_INFO)
#undef MOREL_BYTECODE_INFO
};

}  // namespace

const OpcodeInfo& Info(Opcode op) { return kInfo[static_cast<int>(op)]; }

int Pops(absl::Span<const int32_t> code, int bci) {
  const Opcode op = static_cast<Opcode>(code[bci]);
  const OpcodeInfo& info = Info(op);
  return info.pops >= 0 ? info.pops : code[bci - info.pops];
}

int BranchTarget(absl::Span<const int32_t> code, int bci) {
  const Opcode op = static_cast<Opcode>(code[bci]);
  switch (op) {
    case Opcode::kBranch: case Opcode::kBranchFalse: case Opcode::kBranchTrue:
      return code[bci + 1];
    default:
      if (IsOperation(op) && LayoutOf(op).branches()) return code[bci + LayoutOf(op).tail_word()];
      return -1;
  }
}

OperationInstruction DecodeOperation(absl::Span<const int32_t> code, int bci) {
  const int32_t* w = code.data() + bci;
  const Opcode op = static_cast<Opcode>(w[0]);
  MOREL_CHECK_MSG(IsOperation(op), "DecodeOperation of an instruction that runs no operation");
  const OperationLayout layout = LayoutOf(op);
  OperationInstruction instruction = {w[1], layout.constant ? w[layout.constant_word()] : -1,
                                      w[layout.stack_count_word()],
                                      layout.store() ? w[layout.tail_word()] : -1, layout.locals};
  for (int i = 0; i < layout.locals; ++i) instruction.locals[i] = w[layout.local_word(i)];
  if (layout.branches()) {
    instruction.branch_target = w[layout.tail_word()];
    instruction.branch_if = layout.tail == OperationTail::kBranchTrue;
  }
  return instruction;
}

int OperationIndex(absl::Span<const int32_t> code, int bci) {
  const Opcode op = static_cast<Opcode>(code[bci]);
  if (bci + Length(op) > static_cast<int>(code.size())) return -1;  // truncated
  if (IsOperation(op)) return DecodeOperation(code, bci).operation;
  return op == Opcode::kLoadLocalChecked ? code[bci + 2] : -1;
}

std::string Disassemble(absl::Span<const int32_t> code,
                        const std::function<std::string(int)>* describe_operation) {
  std::string out;
  for (size_t bci = 0; bci < code.size();) {
    const int32_t word = code[bci];
    if (word < 0 || word >= kNumOpcodes) {
      absl::StrAppend(&out, "  ", bci, ": <bad opcode ", word, ">\n");
      break;
    }
    const Opcode op = static_cast<Opcode>(word);
    const OpcodeInfo& info = Info(op);
    absl::StrAppend(&out, "  ", bci, ": ", info.mnemonic);
    for (int i = 1; i <= info.operands && bci + i < code.size(); ++i) {
      absl::StrAppend(&out, " ", code[bci + i]);
    }
    if (const int k = OperationIndex(code, static_cast<int>(bci));
        k >= 0 && describe_operation != nullptr) {
      absl::StrAppend(&out, "   ; ", (*describe_operation)(k));
    }
    out += "\n";
    bci += static_cast<size_t>(Length(op));
  }
  return out;
}

}  // namespace morel::bytecode
