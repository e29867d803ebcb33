#ifndef MOREL_BACKEND_AARCH64_DEOPT_EXITS_H_
#define MOREL_BACKEND_AARCH64_DEOPT_EXITS_H_

// Deopt exits.
//
// In each function, a failing guard branches to the stub of its deopt point:
//     mov  x16, #<deopt id>
//     b    common_exit
// and the function's common exit calls the shared deopt entry:
//     common_exit: mov x17, <deopt entry>; blr x17
//                  <epilogue>    ; returns the handler's result (x0:x1)
//
// The shared deopt entry (one per handler, built by BuildDeoptEntry and
// installed by Backend::CreateDeoptEntry) saves every register and calls the
// runtime:
//     sub  sp, sp, #256
//     stp  x0, x1, [sp]; ...; stp x28, x29, [sp, #224]; str x30, [sp, #240]
//     add  x0, sp, #256; str x0, [sp, #248]   ; saved_regs[i] = register i,
//                                             ; [31] = sp at the exit
//     mov  x0, x16                            ; deopt id
//     mov  x1, sp                             ; saved_regs
//     mov  x2, x29                            ; the compiled frame
//     mov  x3, x30                            ; return pc into the compiled function
//     mov  x16, <handler>; blr x16            ; sp is 16-byte aligned
//     ldr  x30, [sp, #240]; add sp, sp, #256; ret   ; back to common_exit
// x15-x17 are not allocatable and never hold deopt-state values.

#include <cstdint>

#include "absl/status/statusor.h"
#include "backend_aarch64/assembler.h"
#include "backend_aarch64/emit.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_buffer.h"

namespace morel::aarch64 {

void EmitDeoptStub(Assembler& as, uint32_t deopt_id, codegen::Label common_exit);
void EmitDeoptCommonExit(Assembler& as, const void* deopt_entry);

absl::StatusOr<codegen::CodeBuffer> BuildDeoptEntry(McEncoder& encoder,
                                                    codegen::DeoptHandler handler);

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_DEOPT_EXITS_H_
