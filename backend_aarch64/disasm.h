#ifndef MOREL_BACKEND_AARCH64_DISASM_H_
#define MOREL_BACKEND_AARCH64_DISASM_H_

// Disassembly through LLVM's AArch64 MCDisassembler + MCInstPrinter, for
// traces (--engine.DumpIR=asm), Backend::Disassemble and the encoder
// round-trip tests, which compare the decoded opcode and operands with what
// was encoded. LLVM stays inside disasm.cc. Each McDisassembler owns its
// MCContext, MCDisassembler and MCInstPrinter (one thread at a time).

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace morel::aarch64 {

// One decoded MCInst operand: a register (as this backend's Gpr number;
// -1 for a register that is not a general-purpose X register) or an
// immediate as LLVM holds it (branch displacements in words, logical
// immediates encoded, ldr/str offsets scaled).
struct DecodedOperand {
  bool is_reg = false;
  int64_t value = 0;
  bool operator==(const DecodedOperand& o) const {
    return is_reg == o.is_reg && value == o.value;
  }
};

// For test failure messages: "r3" (x3), "#12".
inline void PrintTo(const DecodedOperand& o, std::ostream* os) {
  *os << (o.is_reg ? "r" : "#") << o.value;
}

struct DecodedInst {
  uint64_t address = 0;
  unsigned opcode = 0;      // LLVM opcode number
  std::string opcode_name;  // e.g. "ADDXri"
  std::vector<DecodedOperand> operands;
  std::string text;         // with LLVM's aliases, single spaces: "mov x0, x1"
};

class McDisassembler {
 public:
  // `aliases`: print preferred aliases ("mov", "cmp", "lsl"), as traces do;
  // false prints every instruction by its own mnemonic.
  static absl::StatusOr<std::unique_ptr<McDisassembler>> Create(bool aliases = true);
  ~McDisassembler();

  // Decodes every word of `code` (placed at `address`). Fails on a word
  // that does not decode.
  absl::StatusOr<std::vector<DecodedInst>> Decode(absl::Span<const uint8_t> code,
                                                  uint64_t address = 0) const;
  // "  0x<addr>: <text>\n" per instruction.
  absl::StatusOr<std::string> Listing(absl::Span<const uint8_t> code, uint64_t address) const;

 private:
  struct Impl;
  explicit McDisassembler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_DISASM_H_
