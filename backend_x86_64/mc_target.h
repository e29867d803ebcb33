#ifndef MOREL_BACKEND_X86_64_MC_TARGET_H_
#define MOREL_BACKEND_X86_64_MC_TARGET_H_

// The process-wide part of the LLVM MC layer, shared by every McEncoder and
// McDisassembler on every thread: the x86_64 Target, MCRegisterInfo,
// MCAsmInfo, MCInstrInfo, MCSubtargetInfo and the Form -> opcode /
// (Gpr, Width) -> register tables. Built once, on first use, and never
// destroyed (so it outlives encoders held by threads still running at exit).
//
// Why this is shared: building these objects, and above all resolving
// opcode names (llvm-14-dev ships no generated opcode enum, so names are
// matched against MCInstrInfo's ~15,000 entries), cost ~2 ms, which every
// compilation used to pay. The objects are immutable after creation and
// only read through const methods by MCCodeEmitter, MCDisassembler and
// MCInstPrinter, so sharing them across threads is safe. The mutable MC
// objects (MCContext, MCCodeEmitter, MCDisassembler, MCInstPrinter) stay
// per encoder/disassembler (emit.cc pools them).
//
// Internal to the package: only emit.cc, disasm.cc and this file include
// LLVM headers.

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "backend_x86_64/isa.h"
#include "backend_x86_64/regs.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"

namespace morel::x86_64 {

inline constexpr const char* kLlvmTriple = "x86_64-unknown-linux-gnu";

struct McTarget {
  const llvm::Target* target = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  // Precomputed name resolutions.
  unsigned opcodes[static_cast<int>(Form::kNumForms)] = {};
  unsigned regs[3][kNumGprs] = {};  // [Width][Gpr]
  unsigned fs = 0;                  // the FS segment register

  unsigned Opcode(Form f) const { return opcodes[static_cast<int>(f)]; }
  unsigned Reg(Gpr r, Width w = Width::k64) const {
    return r == kNoGpr ? 0 : regs[static_cast<int>(w)][r];
  }
};

// The shared target (the same pointer on every call), or why LLVM's x86
// MC layer is unusable (also the same on every call). Thread-safe.
absl::StatusOr<const McTarget*> SharedMcTarget();

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_MC_TARGET_H_
