#ifndef MOREL_BACKEND_X86_64_REGS_H_
#define MOREL_BACKEND_X86_64_REGS_H_

// x86_64 general-purpose registers, numbered by their hardware encoding (the
// codegen PReg numbering for this target), with their names at each width:
// LLVM's register names (for MCRegisterInfo lookup) and AT&T names.

#include <cstdint>

#include "absl/strings/string_view.h"
#include "engine/codegen/machine_function.h"

namespace morel::x86_64 {

enum Gpr : uint8_t {
  kRax = 0, kRcx, kRdx, kRbx, kRsp, kRbp, kRsi, kRdi,
  kR8, kR9, kR10, kR11, kR12, kR13, kR14, kR15,
};
inline constexpr int kNumGprs = 16;
inline constexpr Gpr kNoGpr = static_cast<Gpr>(codegen::kNoPReg);

enum class Width : uint8_t { k64, k32, k8 };

// LLVM's name ("RAX", "EAX", "AL", "R8B").
absl::string_view LlvmRegName(Gpr r, Width w);
// AT&T name without '%' ("rax", "eax", "al", "r8b").
absl::string_view AttRegName(Gpr r, Width w);

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_REGS_H_
