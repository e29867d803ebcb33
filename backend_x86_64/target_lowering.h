#ifndef MOREL_BACKEND_X86_64_TARGET_LOWERING_H_
#define MOREL_BACKEND_X86_64_TARGET_LOWERING_H_

// x86_64's lowering hook (engine/codegen/target_lowering.h): the IR
// operations x86_64 has a better sequence for than the shared lowering's.
//   * select c, t, f  ->  mov d, f; test c, c; cmovne d, t
//     (the shared lowering's branch-free mask takes neg, xor, and, xor).

#include "engine/codegen/target_lowering.h"

namespace morel::x86_64 {

const codegen::TargetLowering& X86_64TargetLowering();

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_TARGET_LOWERING_H_
