#ifndef MOREL_BACKEND_AARCH64_RUNTIME_STUBS_H_
#define MOREL_BACKEND_AARCH64_RUNTIME_STUBS_H_

// What the AArch64 backend provides for the runtime (engine/codegen/
// backend.h, RuntimeSupport; README "Runtime support"): the AAPCS64 frame
// layout the runtime's stack walker reads, the assembly stubs that capture
// a compiled caller's callee-saved registers (x19-x28), and the TPIDR_EL0
// thread pointer. On other hosts (the backend built to generate code only,
// e.g. for the emulator tests on x86_64) there is nothing:
// Aarch64RuntimeSupport() and GuestCallEntry() return null.

#include "engine/codegen/backend.h"

namespace morel::aarch64 {

// Null unless this host is AArch64.
const codegen::RuntimeSupport* Aarch64RuntimeSupport();

// The guest-call entry calling `target` (one per process: every call must
// pass the same target), or null unless this host is AArch64.
const void* GuestCallEntry(codegen::GuestCallTarget target);

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_RUNTIME_STUBS_H_
