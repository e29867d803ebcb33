#ifndef MOREL_BACKEND_AARCH64_FRAME_H_
#define MOREL_BACKEND_AARCH64_FRAME_H_

// Frame layout, prologue and epilogue (AAPCS64 frame record, x29 the frame
// pointer, sp 16-byte aligned everywhere).
//
//   [x29 + 8]                 return address (x30 at entry)
//   [x29]                     caller's x29
//   [x29 - 8 * (k + 1)]       k-th saved callee-saved register (k < n)
//   [x29 - 8 * (n + 1 + s)]   stack slot s
//   padding to 16 bytes
//   [sp + 8 * k]              word k of the outgoing-argument area (k < a)
//
// The same shape as backend_x86_64's (the link is the frame pointer, the
// return address and the caller's link above it, saved registers below), so
// the runtime's stack walker reads both through one FrameLayout.
//
// Prologue:
//   stp x29, x30, [sp, #-16]!; mov x29, sp
//   [stack check]  sub x16, sp, #below
//                  x17 = limit: mov x17, &limit; ldr x17, [x17]   (kAbsolute)
//                            or ldr x17, [x<arg>, #offset]         (kArgument)
//                            or mrs x17, tpidr_el0; ldr x17, [x17, #offset]
//                                                                  (kThreadLocal)
//                  cmp x16, x17; b.lo stack_overflow_stub
//   sub sp, sp, #below; stp/stur <callee-saved used> at [x29 - 8 * (k + 1)]
// The overflow stub runs with only the frame record pushed and the argument
// registers untouched: mov x16, handler; blr x16; ldp x29, x30, [sp], #16;
// ret (the handler's x0:x1 is the function's result).
// Epilogue: ldp/ldur <saved>; mov sp, x29; ldp x29, x30, [sp], #16; ret.
//
// The body addresses stack slots from sp (ldr/str's scaled unsigned offsets
// reach 32 KiB); CodeMetadata reports them from x29 like x86_64's.

#include <cstdint>
#include <vector>

#include "backend_aarch64/assembler.h"
#include "backend_aarch64/regs.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_info.h"

namespace morel::aarch64 {

struct FrameLayout {
  std::vector<Gpr> saved;  // callee-saved registers, k-th at [x29 - 8(k + 1)]
  uint32_t num_slots = 0;
  uint32_t outgoing_words = 0;  // MachineFunction::outgoing_area_words, at sp
  uint32_t below_fp = 0;        // bytes between x29 and the body's sp

  // Offset of slot `slot` from x29 (CodeMetadata, DeoptMap) ...
  int32_t SlotOffset(uint32_t slot) const {
    return -8 * static_cast<int32_t>(saved.size() + 1 + slot);
  }
  // ... and from the body's sp (what the code uses).
  int32_t SlotOffsetFromSp(uint32_t slot) const {
    return static_cast<int32_t>(below_fp) + SlotOffset(slot);
  }
  uint32_t frame_size() const { return 16 + below_fp; }
};

// Saves every callee-saved register the allocated function writes.
FrameLayout ComputeFrame(const codegen::MachineFunction& mf, const codegen::RegisterInfo& ri);

void EmitPrologue(Assembler& as, const FrameLayout& frame, const codegen::CompileOptions& options,
                  codegen::Label overflow_stub);
void EmitEpilogue(Assembler& as, const FrameLayout& frame);
void EmitStackOverflowStub(Assembler& as, const codegen::CompileOptions& options);

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_FRAME_H_
