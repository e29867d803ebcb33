#ifndef MOREL_ENGINE_CODEGEN_REGISTER_INFO_H_
#define MOREL_ENGINE_CODEGEN_REGISTER_INFO_H_

// A target's register description, consumed by the register allocator, the
// allocation verifier and lowering. Registers are numbered by the target
// (PReg); masks are bit sets over those numbers (bit i = PReg i), so a target
// has at most 64 registers per description.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/codegen/machine_function.h"

namespace morel::codegen {

struct RegisterInfo {
  std::string target;                  // "x86_64"
  std::vector<std::string> names;      // indexed by PReg, for dumps
  // Registers the allocator may hand out, per class, in preference order.
  // Never includes the stack/frame pointer or `scratch`.
  std::vector<PReg> allocatable[kNumRegClasses];
  uint64_t callee_saved = 0;           // preserved across calls
  uint64_t caller_saved = 0;           // destroyed by a call (the clobber set)
  std::vector<PReg> argument_regs;     // integer arguments, in order
  std::vector<PReg> return_regs;       // integer results, in order
  // Reserved for the backend: the allocator reloads spilled operands into
  // scratch[0], scratch[1], ...; the emitter may use the last one as a
  // temporary when the instruction has fewer spilled operands. At least 2.
  std::vector<PReg> scratch;
  PReg stack_pointer = kNoPReg;
  PReg frame_pointer = kNoPReg;
  // Target constraints the allocator adds on its own:
  uint64_t div_clobbers = 0;           // kDiv/kRem/kMulHigh destroy these
  PReg shift_count = kNoPReg;          // register shift counts live here

  static constexpr uint64_t Bit(PReg r) { return uint64_t{1} << r; }
  bool IsCalleeSaved(PReg r) const { return (callee_saved & Bit(r)) != 0; }
  const std::string& Name(PReg r) const { return names[r]; }
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_REGISTER_INFO_H_
