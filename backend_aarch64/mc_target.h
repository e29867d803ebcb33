#ifndef MOREL_BACKEND_AARCH64_MC_TARGET_H_
#define MOREL_BACKEND_AARCH64_MC_TARGET_H_

// The process-wide part of LLVM's AArch64 MC layer, shared by every
// McEncoder and McDisassembler on every thread: the Target, MCRegisterInfo,
// MCAsmInfo, MCInstrInfo, MCSubtargetInfo and the Form -> opcode and
// Gpr -> register tables, resolved by name once (llvm-14-dev ships no
// generated AArch64 enums). Built on first use and never destroyed; only
// const methods are used on it, so threads share it (as backend_x86_64's).
//
// The AArch64 target is initialized explicitly (LLVMInitializeAArch64*):
// never through InitializeNativeTarget(), which on an AArch64 host built
// against the x86_64 llvm-config.h would pick the wrong target.
//
// Internal to the package: only emit.cc, disasm.cc and this file include
// LLVM headers.

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "backend_aarch64/isa.h"
#include "backend_aarch64/regs.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"

namespace morel::aarch64 {

inline constexpr const char* kLlvmTriple = "aarch64-unknown-linux-gnu";

struct McTarget {
  const llvm::Target* target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  unsigned opcodes[static_cast<int>(Form::kNumForms)] = {};
  unsigned regs[kNumRegNames] = {};             // Gpr -> LLVM register
  absl::flat_hash_map<unsigned, Gpr> gpr_of;    // LLVM X register -> Gpr

  unsigned Opcode(Form f) const { return opcodes[static_cast<int>(f)]; }
  unsigned Reg(Gpr r) const { return r < kNumRegNames ? regs[r] : 0; }
};

// The shared target, or why LLVM's AArch64 MC layer is unusable (the same
// answer on every call). Thread-safe.
absl::StatusOr<const McTarget*> SharedMcTarget();

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_MC_TARGET_H_
