#ifndef MOREL_BACKEND_AARCH64_REGS_H_
#define MOREL_BACKEND_AARCH64_REGS_H_

// AArch64 general-purpose registers as this backend numbers them (the
// codegen PReg numbering for this target): x0..x30 are 0..30, register 31 is
// the stack pointer. The zero register shares encoding 31 with sp in the
// hardware; here it has a number of its own (kXzr = 32), never a PReg, so an
// operand says which of the two it means and the encoder checks that the
// instruction's operand accepts it (GPR64 takes xzr, GPR64sp takes sp).

#include <cstdint>

#include "absl/strings/string_view.h"
#include "engine/codegen/machine_function.h"

namespace morel::aarch64 {

enum Gpr : uint8_t {
  kX0 = 0, kX1, kX2, kX3, kX4, kX5, kX6, kX7,
  kX8, kX9, kX10, kX11, kX12, kX13, kX14, kX15,
  kX16, kX17, kX18, kX19, kX20, kX21, kX22, kX23,
  kX24, kX25, kX26, kX27, kX28,
  kFp = 29,   // x29, the frame pointer
  kLr = 30,   // x30, the link register
  kSp = 31,   // the stack pointer (PReg 31)
  kXzr = 32,  // the zero register (not a PReg)
};
inline constexpr int kNumGprs = 32;      // PRegs: x0..x30, sp
inline constexpr int kNumRegNames = 33;  // with xzr
inline constexpr Gpr kNoGpr = static_cast<Gpr>(codegen::kNoPReg);

// Registers with a role in generated code (README "Calling convention").
inline constexpr Gpr kIp0 = kX16;  // scratch[0]; call targets
inline constexpr Gpr kIp1 = kX17;  // scratch[1]
inline constexpr Gpr kTemp = kX15;  // scratch[2]; the emitter's temporary otherwise

// LLVM's register name ("X0", "FP", "LR", "SP", "XZR").
absl::string_view LlvmRegName(Gpr r);
// The assembly name ("x0", "x29", "x30", "sp", "xzr").
absl::string_view AsmRegName(Gpr r);

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_REGS_H_
