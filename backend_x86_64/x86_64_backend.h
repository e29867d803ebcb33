#ifndef MOREL_BACKEND_X86_64_X86_64_BACKEND_H_
#define MOREL_BACKEND_X86_64_X86_64_BACKEND_H_

// The x86_64 Backend: SysV register description (abi.h), linear-scan
// allocation (engine/codegen), emission (function_emitter.h) through LLVM MC,
// installation into a CodeCache. Thread-safe: Compile creates its own
// encoder state per call.

#include <memory>
#include <string>

#include "engine/codegen/backend.h"

namespace morel::x86_64 {

inline constexpr char kBackendName[] = "x86_64";

std::unique_ptr<codegen::Backend> CreateX86_64Backend();

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_X86_64_BACKEND_H_
