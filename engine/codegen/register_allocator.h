#ifndef MOREL_ENGINE_CODEGEN_REGISTER_ALLOCATOR_H_
#define MOREL_ENGINE_CODEGEN_REGISTER_ALLOCATOR_H_

// Linear-scan register allocation (Poletto & Sarkar, with fixed-register
// ranges in the style of Wimmer's LSRA but without interval splitting, and
// spill weights from use counts and loop depth in the style of Chaitin/LLVM).
//
//  1. Legalize: register shift counts are moved into RegisterInfo::shift_count.
//  2. Liveness over the CFG (liveness.h); each vreg gets one conservative
//     interval [first position, last position] covering every block where it
//     is live (so loops keep loop-carried values alive over the whole loop).
//  3. Fixed ranges per physical register: preg defs -> uses in the
//     instruction stream (arguments, call arguments/results, return values)
//     and clobbers (calls: caller-saved; kDiv/kRem/kMulHigh: div_clobbers)
//     at both positions of the instruction. A vreg never gets a register whose fixed
//     ranges overlap its interval: values live across a call end up in
//     callee-saved registers or on the stack. The ranges are indexed per
//     register (sorted by end, suffix minima of the starts), so the overlap
//     query is a binary search, not a scan of every call's clobbers.
//  4. Scan intervals by start; a free register is taken in the target's
//     preference order (RegisterInfo::allocatable). When none is free, spill
//     the interval with the lowest spill weight among the current one and
//     the active ones whose register it could use (on a tie, the one that
//     ends last). Weight = (sum over the vreg's uses and defs of 10^d, d the
//     loop depth of their block from ComputeLoopDepths capped at 3) /
//     (interval length in instructions + 64). So a value read all over a hot
//     loop (a frame base) keeps its register, a callee-saved one if it lives
//     across calls, and long-lived values read once outside loops spill
//     instead; the constant in the divisor keeps short temporaries from
//     outweighing a long-lived value with many loop uses only by being
//     short. Deopt-state reads add no weight (a spilled value stays in its
//     slot for them). A spilled vreg lives in one 8-byte stack slot for its
//     whole life (slots are reused after the interval ends): each use
//     reloads into RegisterInfo::scratch[k] before the instruction, each
//     def writes scratch and stores after it. Deopt-state values of spilled
//     vregs stay in their slot (no reload).
//  5. Rewrite: vreg operands become kPReg (or kStackSlot in deopt states),
//     remembering their vreg; MachineFunction::allocated() becomes true.
//
// Invariant for backends: in one instruction, spilled uses take scratch[0],
// scratch[1], ... in operand order; a spilled def takes the scratch of use 0
// if use 0 was spilled, else the first scratch no use took.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_info.h"

namespace morel::codegen {

struct AllocationOptions {
  // Testing aid: spill every vreg (exercises reload/store insertion).
  bool spill_everything = false;
};

struct LiveInterval {
  uint32_t vreg = kNoVReg;
  int start = 0;  // inclusive positions (see liveness.h)
  int end = -1;
  PReg preg = kNoPReg;     // assigned register, or kNoPReg if spilled
  int32_t spill_slot = -1;  // stack slot if spilled
  // Spill weight (see the header comment): weighted uses and defs per
  // instruction of the interval's length. Higher keeps a register.
  double weight = 0;
};

struct FixedRange {
  PReg preg;
  int start;
  int end;
};

struct AllocationResult {
  std::vector<LiveInterval> intervals;  // one per vreg that occurs
  std::vector<FixedRange> fixed;        // fixed-register ranges
  uint32_t num_spilled = 0;
  uint32_t reloads = 0;
  uint32_t stores = 0;
};

// Allocates registers for `mf` in place. Errors: malformed input (use
// before def, empty blocks), or an instruction needing more spilled
// register operands than RegisterInfo::scratch holds.
absl::StatusOr<AllocationResult> AllocateRegisters(MachineFunction& mf, const RegisterInfo& ri,
                                                   const AllocationOptions& options = {});

// The clobber set of `inst`, including the implicit ones (calls, division).
uint64_t EffectiveClobbers(const MachineInst& inst, const RegisterInfo& ri);

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_REGISTER_ALLOCATOR_H_
