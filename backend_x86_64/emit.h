#ifndef MOREL_BACKEND_X86_64_EMIT_H_
#define MOREL_BACKEND_X86_64_EMIT_H_

// Encoding: a form (isa.h) with its operands becomes an llvm::MCInst
// (opcode and registers looked up by name once, at creation) and is encoded
// by LLVM's MCCodeEmitter into a CodeBuffer. pc-relative forms (jcc, jmp,
// call rel32) are encoded with the displacement given in `imm`; Assembler
// emits them with 0 and records a CodeBuffer fixup.
//
// LLVM stays behind this interface (emit.cc is one of the two files of the
// package that include LLVM headers). Thread-compatible: one encoder per
// compiling thread; Create() is cheap enough per compilation.

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
