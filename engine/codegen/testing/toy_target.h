#ifndef MOREL_ENGINE_CODEGEN_TESTING_TOY_TARGET_H_
#define MOREL_ENGINE_CODEGEN_TESTING_TOY_TARGET_H_

// Test support: a small register description (4 allocatable registers, two
// of them callee-saved) that makes spilling easy to provoke.
//   p0 p1: allocatable, caller-saved (p0 is also the return register)
//   p2 p3: allocatable, callee-saved
//   p4 p5 p6: argument registers (caller-saved, not allocatable)
//   p7: shift count; p8 p9: scratch; p10: sp; p11: fp

#include "engine/codegen/register_info.h"

namespace morel::codegen::testing {

inline RegisterInfo ToyRegisterInfo() {
  RegisterInfo ri;
  ri.target = "toy";
  for (int i = 0; i < 12; ++i) ri.names.push_back("r" + std::to_string(i));
  ri.allocatable[0] = {0, 1, 2, 3};
  ri.callee_saved = RegisterInfo::Bit(2) | RegisterInfo::Bit(3);
  ri.caller_saved = RegisterInfo::Bit(0) | RegisterInfo::Bit(1) | RegisterInfo::Bit(4) |
                    RegisterInfo::Bit(5) | RegisterInfo::Bit(6) | RegisterInfo::Bit(7);
  ri.argument_regs = {4, 5, 6};
  ri.return_regs = {0};
  ri.scratch = {8, 9};
  ri.stack_pointer = 10;
  ri.frame_pointer = 11;
  ri.shift_count = 7;
  ri.div_clobbers = RegisterInfo::Bit(0) | RegisterInfo::Bit(1);
  return ri;
}

}  // namespace morel::codegen::testing

#endif  // MOREL_ENGINE_CODEGEN_TESTING_TOY_TARGET_H_
