#ifndef MOREL_BACKEND_X86_64_EMIT_H_
#define MOREL_BACKEND_X86_64_EMIT_H_

// Encoding: a form (isa.h) with its operands becomes an llvm::MCInst
// (opcode and registers from tables resolved once per process, mc_target.h)
// and is encoded by LLVM's MCCodeEmitter into a CodeBuffer. pc-relative
// forms (jcc, jmp, call rel32) are encoded with the displacement given in
// `imm` (their prefix bytes come from MC once, see emit.cc); Assembler emits
// them with 0 and records a CodeBuffer fixup.
//
// LLVM stays behind this interface (only emit.cc, disasm.cc and
// mc_target.* include LLVM headers). Thread-compatible: one encoder per
// compiling thread at a time; encoders on different threads are
// independent. Create() is cheap (~0.1 us: the immutable MC objects are
// shared by the process, the MCContext/MCCodeEmitter come from a pool and go
// back to it when the encoder is destroyed), so one encoder per compilation
// is fine.

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "backend_x86_64/isa.h"
#include "engine/codegen/code_buffer.h"

namespace morel::x86_64 {

class McEncoder {
 public:
  static absl::StatusOr<std::unique_ptr<McEncoder>> Create();
  ~McEncoder();

  // Appends the encoding of `form` to `out`.
  absl::Status Encode(Form form, const FormOperands& ops, codegen::CodeBuffer& out);

  // The LLVM opcode number of `form` (for tests comparing decoded opcodes).
  unsigned LlvmOpcode(Form form) const;

 private:
  struct Impl;
  explicit McEncoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_EMIT_H_
