#ifndef MOREL_BACKEND_X86_64_DEOPT_EXITS_H_
#define MOREL_BACKEND_X86_64_DEOPT_EXITS_H_

// Deopt exits.
//
// In each function, a failing guard jumps to the stub of its deopt point:
//     push <deopt id>            ; rsp was 16-aligned in the body
//     jmp  common_exit
// and the function's common exit calls the shared deopt entry:
//     common_exit: mov r11, <deopt entry>; call r11
//                  <epilogue>    ; returns the handler's result (rax:rdx)
//
// The shared deopt entry (one per handler, built by BuildDeoptEntry and
// installed by Backend::CreateDeoptEntry) saves every register and calls the
// runtime:
//     push r15 ... push rax          ; saved_regs[i] = register i (rsp's slot
//                                    ; holds an unspecified value)
//     mov rdi, [rsp + 136]           ; deopt id
//     mov rsi, rsp                   ; saved_regs
//     mov rdx, rbp                   ; the compiled frame
//     mov rcx, [rsp + 128]           ; return pc into the compiled function
//     mov rax, <handler>; call rax   ; rsp is 16-aligned here
//     add rsp, 128; ret              ; back to common_exit
// r10/r11 are scratch and never hold deopt-state values.

#include <cstdint>

#include "absl/status/statusor.h"
#include "backend_x86_64/assembler.h"
#include "backend_x86_64/emit.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_buffer.h"

namespace morel::x86_64 {

void EmitDeoptStub(Assembler& as, uint32_t deopt_id, codegen::Label common_exit);
void EmitDeoptCommonExit(Assembler& as, const void* deopt_entry);

absl::StatusOr<codegen::CodeBuffer> BuildDeoptEntry(McEncoder& encoder,
                                                    codegen::DeoptHandler handler);

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_DEOPT_EXITS_H_
