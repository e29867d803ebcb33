#ifndef MOREL_BACKEND_X86_64_RUNTIME_STUBS_H_
#define MOREL_BACKEND_X86_64_RUNTIME_STUBS_H_

// What the x86_64 backend provides for the runtime (engine/codegen/backend.h,
// RuntimeSupport; README "Runtime support"): the SysV frame layout the
// runtime's stack walker reads, the assembly stubs that capture a compiled
// caller's callee-saved registers (rbx, r12-r15), and the %fs thread
// pointer. On other hosts (the backend built to generate code only) there is
// nothing: X86_64RuntimeSupport() and GuestCallEntry() return null.

#include "engine/codegen/backend.h"

namespace morel::x86_64 {

// Null unless this host is x86_64.
const codegen::RuntimeSupport* X86_64RuntimeSupport();

// The guest-call entry calling `target` (one per process and copy of the
// backend: every call must pass the same target), or null unless this host
// is x86_64.
const void* GuestCallEntry(codegen::GuestCallTarget target);

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_RUNTIME_STUBS_H_
