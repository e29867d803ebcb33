#ifndef MOREL_BACKEND_X86_64_FRAME_H_
#define MOREL_BACKEND_X86_64_FRAME_H_

// Frame layout, prologue and epilogue.
//
//   [rbp + 8]              return address
//   [rbp]                  caller's rbp
//   [rbp - 8 * (k + 1)]    k-th saved callee-saved register (k < n)
//   [rbp - 8 * (n + 1 + s)] stack slot s
//   padding to 16 bytes
//   [rsp + 8 * k]          word k of the outgoing-argument area (k < a);
//                          rsp is 16-byte aligned in the body
//
// Prologue:
//   push rbp; mov rbp, rsp
//   [stack check]  lea r11, [rbp - below_rbp]
//                  mov r10, &limit; cmp r11, [r10]        (StackLimit::kAbsolute)
//               or cmp r11, [arg_reg + offset]            (StackLimit::kArgument)
//               or cmp r11, %fs:offset                    (StackLimit::kThreadLocal)
//                  jb stack_overflow_stub
//   push <callee-saved used>...; sub rsp, <slots + padding>
// The overflow stub runs with nothing but rbp pushed and the argument
// registers untouched: call handler; pop rbp; ret (the handler's result is
// the function's result).
// Epilogue: lea rsp, [rbp - 8n]; pop <saved in reverse>; pop rbp; ret.

#include <cstdint>
#include <vector>

#include "backend_x86_64/assembler.h"
#include "backend_x86_64/regs.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_info.h"

namespace morel::x86_64 {

struct FrameLayout {
  std::vector<Gpr> saved;  // callee-saved registers, in push order
  uint32_t num_slots = 0;
  uint32_t outgoing_words = 0;  // MachineFunction::outgoing_area_words, at rsp
  uint32_t below_rbp = 0;  // bytes between rbp and the body's rsp

  int32_t SlotOffset(uint32_t slot) const {
    return -8 * static_cast<int32_t>(saved.size() + 1 + slot);
  }
  uint32_t frame_size() const { return 16 + below_rbp; }
};

// Saves every callee-saved register the allocated function writes.
FrameLayout ComputeFrame(const codegen::MachineFunction& mf, const codegen::RegisterInfo& ri);

void EmitPrologue(Assembler& as, const FrameLayout& frame, const codegen::CompileOptions& options,
                  codegen::Label overflow_stub);
void EmitEpilogue(Assembler& as, const FrameLayout& frame);
void EmitStackOverflowStub(Assembler& as, const codegen::CompileOptions& options);

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_FRAME_H_
