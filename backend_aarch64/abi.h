#ifndef MOREL_BACKEND_AARCH64_ABI_H_
#define MOREL_BACKEND_AARCH64_ABI_H_

// The AAPCS64 register description for lowering and register allocation
// (README "Calling convention").

#include "engine/codegen/register_info.h"

namespace morel::aarch64 {

const codegen::RegisterInfo& Aapcs64RegisterInfo();

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_ABI_H_
