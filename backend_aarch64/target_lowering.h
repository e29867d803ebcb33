#ifndef MOREL_BACKEND_AARCH64_TARGET_LOWERING_H_
#define MOREL_BACKEND_AARCH64_TARGET_LOWERING_H_

// AArch64's lowering ahead of the shared one (engine/codegen/
// target_lowering.h): the sequences where the target does better than the
// target-independent lowering, as MOp::kTarget instructions whose
// target_opcode is a TargetOp below (the emitter's contract):
//   select c, t, f      -> kCmp c, #0; kCsel d, t, f, ne
//   iadd (imul x, y), z -> kMadd d, x, y, z   (i64; the imul's only use)
//   isub z, (imul x, y) -> kMsub d, x, y, z

#include <cstdint>

#include "engine/codegen/target_lowering.h"

namespace morel::aarch64 {

// MOp::kTarget operations of this backend (target_opcode), with their
// operand layout (defs -> uses):
enum class TargetOp : uint32_t {
  kCmp = 0,   // - -> a, b|imm        flags of a - b (cmp / cmn)
  kCsel = 1,  // d -> t, f            d = cond ? t : f, on the flags of the
              //                      kCmp directly before it
  kMadd = 2,  // d -> n, m, a         d = a + n * m
  kMsub = 3,  // d -> n, m, a         d = a - n * m
  kNumTargetOps,
};

const codegen::TargetLowering& Aarch64TargetLowering();

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_TARGET_LOWERING_H_
