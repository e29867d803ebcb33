#ifndef MOREL_BACKEND_AARCH64_EMIT_H_
#define MOREL_BACKEND_AARCH64_EMIT_H_

// Encoding: a form (isa.h) with its operands becomes an llvm::MCInst
// (opcode and registers from tables resolved once per process, mc_target.h)
// and is encoded by LLVM's AArch64 MCCodeEmitter into a CodeBuffer: one
// 32-bit word per instruction. Branch forms take their displacement as an
// immediate (no MCExpr, so nothing accumulates in a pooled MCContext);
// Assembler emits label branches with 0 and records a kPcRelField fixup.
//
// Every operand is checked before LLVM sees it (LLVM would encode a wrong
// register class, a truncated immediate or a bad condition silently):
// register operands against the instruction's register classes from
// MCInstrDesc (sp vs xzr), immediates against GetImmediateRange and the
// layout's rules. A refused instruction appends nothing.
//
// Thread-compatible: one encoder per compiling thread; Create() is cheap
// (the MCContext/MCCodeEmitter come from a pool, as in backend_x86_64).

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "backend_aarch64/isa.h"
#include "engine/codegen/code_buffer.h"

namespace morel::aarch64 {

class McEncoder {
 public:
  static absl::StatusOr<std::unique_ptr<McEncoder>> Create();
  ~McEncoder();

  // Appends the encoding of `form` to `out`.
  absl::Status Encode(Form form, const FormOperands& ops, codegen::CodeBuffer& out);

  // The LLVM opcode number of `form` and LLVM's number of `r`.
  unsigned LlvmOpcode(Form form) const;
  unsigned LlvmReg(Gpr r) const;

 private:
  struct Impl;
  explicit McEncoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_EMIT_H_
