#ifndef MOREL_BACKEND_AARCH64_FUNCTION_EMITTER_H_
#define MOREL_BACKEND_AARCH64_FUNCTION_EMITTER_H_

// Emits an allocated MachineFunction as AArch64 code: prologue (frame.h),
// blocks in layout order (fallthrough branches elided), out-of-line
// allocation slow paths, deopt stubs and the common deopt exit
// (deopt_exits.h), and the stack-overflow stub. Machine IR is three-address
// like AArch64, so most operations are one instruction:
//   add/sub:     add|sub d, a, b|#imm12[, lsl #12]
//   and/or/xor:  and|orr|eor d, a, b|#bitmask
//   mul:         madd d, a, b, xzr
//   shifts:      lslv|asrv|lsrv d, a, b; by a constant: ubfm/sbfm
//   add/sub.ovf: adds|subs d, a, b|#imm; b.vs <deopt stub>
//   mul.ovf:     smulh x15, a, b; madd d, a, b, xzr; cmp x15, d, asr #63;
//                b.ne <deopt stub>
//   div / rem:   sdiv d, a, b / sdiv x15, a, b; msub d, x15, b, a
//   neg / not:   sub d, xzr, a / orn d, xzr, a
//   cmpset:      cmp a, b|#imm; csinc d, xzr, xzr, <inverse> (cset)
//   branch:      cmp; b.<cc> (cbz/cbnz when comparing with 0 for eq/ne)
//   outgoing.area: mov d, sp (the area is the bottom of the frame)
//   call:        mov x16, target (movz/movk); blr x16 (records a call site;
//                a call with a deopt state also records a lazy deopt point
//                whose pc_offset is the return address and exit_offset 0)
//   spill/reload: str/ldr at [sp + offset]
// Also fills CodeMetadata (deopt points with value locations, call sites,
// OSR entries, frame size, saved registers).

#include "absl/status/statusor.h"
#include "backend_aarch64/emit.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_buffer.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/codegen/machine_function.h"

namespace morel::aarch64 {

struct EmittedFunction {
  codegen::CodeBuffer code;  // labels resolved
  codegen::CodeMetadata metadata;
};

absl::StatusOr<EmittedFunction> EmitFunction(const codegen::MachineFunction& mf,
                                             const codegen::CompileOptions& options,
                                             McEncoder& encoder);

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_FUNCTION_EMITTER_H_
