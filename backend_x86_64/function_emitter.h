#ifndef MOREL_BACKEND_X86_64_FUNCTION_EMITTER_H_
#define MOREL_BACKEND_X86_64_FUNCTION_EMITTER_H_

// Emits an allocated MachineFunction as x86_64 code: prologue (frame.h),
// blocks in layout order (fallthrough branches elided), out-of-line deopt
// stubs and the common deopt exit (deopt_exits.h), and the stack-overflow
// stub. Three-address machine IR becomes two-address x86:
//   d = a op b:  d == a: op d, b;  d == b: op d, a (commutative) or
//                neg d; add d, a (sub); else mov d, a; op d, b.
//   Overflow-checked ops: the same, then jo <deopt stub>; sub with d == b
//                goes through r11 (free by the allocator's scratch rule).
//   div/rem:     mov rax, a; cqo; idiv b; mov d, rax|rdx (the allocator
//                keeps a, b and d out of rax/rdx).
//   shifts:      count in cl (the allocator moves it there).
//   cmpset:      cmp a, b; setcc d8; movzbl d8, d32.
//   outgoing.area: mov d, rsp (the area is the bottom of the frame, frame.h).
//   call:        mov r11, target; call r11 (records a call site; a call
//                with a deopt state also records a lazy deopt point whose
//                pc_offset is the return address and exit_offset 0).
// Also fills CodeMetadata (deopt points with value locations, call sites,
// OSR entries, frame size).

#include "absl/status/statusor.h"
#include "backend_x86_64/emit.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_buffer.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/codegen/machine_function.h"

namespace morel::x86_64 {

struct EmittedFunction {
  codegen::CodeBuffer code;  // labels resolved
  codegen::CodeMetadata metadata;
};

absl::StatusOr<EmittedFunction> EmitFunction(const codegen::MachineFunction& mf,
                                             const codegen::CompileOptions& options,
                                             McEncoder& encoder);

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_FUNCTION_EMITTER_H_
