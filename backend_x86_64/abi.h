#ifndef MOREL_BACKEND_X86_64_ABI_H_
#define MOREL_BACKEND_X86_64_ABI_H_

// The System V AMD64 calling convention as a codegen::RegisterInfo, plus the
// backend's reservations:
//   arguments rdi rsi rdx rcx r8 r9; results rax:rdx (a guest value is
//   (payload, tag) in two integer registers);
//   callee-saved rbx r12 r13 r14 r15 (and rbp, the frame pointer);
//   scratch r10 r11 (never allocated: spill reloads, call targets, the stack
//   check and deopt exits); rsp/rbp never allocated.
// Stack: 16-byte aligned at every call (the frame is padded so the body's
// rsp is always aligned); no red zone is used.

#include "engine/codegen/register_info.h"

namespace morel::x86_64 {

const codegen::RegisterInfo& SysVRegisterInfo();

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_ABI_H_
