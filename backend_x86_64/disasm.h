#ifndef MOREL_BACKEND_X86_64_DISASM_H_
#define MOREL_BACKEND_X86_64_DISASM_H_

// Disassembly through LLVM's MCDisassembler + MCInstPrinter (AT&T syntax),
// for traces and for the encoder round-trip tests. LLVM stays inside
// disasm.cc. The immutable MC objects are the process-wide McTarget
// (mc_target.h); each McDisassembler owns its MCContext, MCDisassembler and
// MCInstPrinter (not thread-safe: one thread at a time per instance).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace morel::x86_64 {

struct DecodedInst {
  uint64_t address = 0;
  uint32_t size = 0;
  unsigned opcode = 0;       // LLVM opcode number
  std::string opcode_name;   // LLVM opcode name, e.g. "ADD64rr"
  std::string text;          // AT&T, single spaces: "addq %rbx, %rax"
};

class McDisassembler {
 public:
  static absl::StatusOr<std::unique_ptr<McDisassembler>> Create();
  ~McDisassembler();

  // Decodes every instruction in `code` (placed at `address`). Fails on
  // bytes that do not decode.
  absl::StatusOr<std::vector<DecodedInst>> Decode(absl::Span<const uint8_t> code,
                                                  uint64_t address = 0) const;
  // "  0x<addr>: <text>\n" per instruction.
  absl::StatusOr<std::string> Listing(absl::Span<const uint8_t> code, uint64_t address) const;

 private:
  struct Impl;
  explicit McDisassembler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_DISASM_H_
