#ifndef MOREL_BACKEND_AARCH64_AARCH64_BACKEND_H_
#define MOREL_BACKEND_AARCH64_AARCH64_BACKEND_H_

// The AArch64 Backend: AAPCS64 register description (abi.h), the target
// lowering hook (target_lowering.h), linear-scan allocation
// (engine/codegen), emission (function_emitter.h) through LLVM MC,
// installation into a CodeCache (whose install flushes the instruction
// cache, as AArch64 requires). Thread-safe: Compile creates its own encoder
// state per call.

#include <memory>

#include "engine/codegen/backend.h"

namespace morel::aarch64 {

inline constexpr char kBackendName[] = "aarch64";

std::unique_ptr<codegen::Backend> CreateAarch64Backend();

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_AARCH64_BACKEND_H_
