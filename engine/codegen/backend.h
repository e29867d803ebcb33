#ifndef MOREL_ENGINE_CODEGEN_BACKEND_H_
#define MOREL_ENGINE_CODEGEN_BACKEND_H_

// The Backend plugin API: what the runtime and the lowering pass see of a
// code generator. A backend has a name (the registry key, e.g. "x86_64"), a
// register description for lowering and allocation, and turns a
// MachineFunction into installed code plus metadata.
//
// Runtime contracts every backend implements (details in its README):
//   * Calling convention: the platform's C convention for integers; a guest
//     value travels as two 64-bit integers and is returned in the first two
//     return registers, so compiled code is callable as a C function.
//   * Guest stack-overflow check in the prologue: the stack pointer minus the
//     frame size is compared with a limit read from StackLimit; when below,
//     the function calls `stack_overflow_handler` with its incoming argument
//     registers untouched and returns whatever the handler returns.
//   * Deopt exits: a guard that fails jumps to a per-point stub, which
//     records the deopt id and enters the shared deopt entry made by
//     CreateDeoptEntry(handler); that saves every register and calls
//     handler(id, saved_regs, frame_pointer, return_pc). The handler rebuilds
//     the interpreter frame (CodeMetadata says where each value lives),
//     finishes the activation in the interpreter, and returns the function's
//     result, which the compiled function then returns to its caller.
//
// What a backend provides for the runtime besides compiled code (optional;
// RuntimeSupport and CreateGuestCallEntry below): every fact of the machine
// the architecture-neutral runtime (engine/runtime) needs -- the frame
// layout its stack walker reads, the stubs that capture a compiled caller's
// callee-saved registers, thread-pointer access, whether prologues check the
// guest stack. engine/runtime holds no assembly and no #if of its own.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/register_info.h"

namespace morel::codegen {

class TargetLowering;  // target_lowering.h

// Two 64-bit integers: a guest value (payload, tag), returned in the first
// two integer return registers (x86_64 SysV: RAX:RDX).
struct ValuePair {
  uint64_t first;
  uint64_t second;
};

// saved_regs: every register of RegisterInfo::names at the exit, indexed by
// PReg. frame_pointer: the compiled frame (frame-slot locations are relative
// to it). return_pc: an address inside the compiled function's code (look
// it up with CodeCache::Lookup to find the function).
using DeoptHandler = ValuePair (*)(uint64_t deopt_id, uint64_t* saved_regs,
                                   uint8_t* frame_pointer, const void* return_pc);

// Where the prologue finds the guest stack limit (the lowest allowed stack
// pointer). kAbsolute: a uint64_t at `address` (a process-wide limit, or the
// runtime patches per thread). kArgument: a uint64_t at [argument `arg` +
// `offset`], e.g. a field of a per-thread context passed as argument 0.
// kThreadLocal: a uint64_t at thread pointer + `offset` (x86_64: %fs:offset),
// i.e. a thread_local variable of the static TLS block (the executable or a
// library loaded at start-up, not a dlopen'ed one), whose offset from the
// thread pointer is the same on every thread (ThreadPointerOffset).
struct StackLimit {
  enum class Kind : uint8_t { kNone, kAbsolute, kArgument, kThreadLocal };
  Kind kind = Kind::kNone;
  const void* address = nullptr;
  int arg = 0;
  int32_t offset = 0;
};

struct CompileOptions {
  StackLimit stack_limit;
  // Called when the stack check fails (see above). Required with a limit.
  const void* stack_overflow_handler = nullptr;
  // From Backend::CreateDeoptEntry. Required if the function has deopts.
  const void* deopt_entry = nullptr;
  AllocationOptions allocation;
};

// ---- Runtime support (engine/runtime/compiled_frames.h, native_tier.h) ----

// A runtime function called through CallWithCapturedRegistersFn: `captured`
// holds the callee-saved registers (FrameLayout::captured_registers, in that
// order at ascending addresses) as the stub's caller left them, followed
// directly by the stub's frame link (FrameLayout: its caller's link and its
// return address).
using CapturedRegistersFn = ValuePair (*)(void* a0, const void* a1, int64_t a2,
                                          const uint64_t* captured);
// A stub that calls fn(a0, a1, a2, captured), reached from compiled code by
// a call or a tail jump (Dispatch's slow path).
using CallWithCapturedRegistersFn = ValuePair (*)(void* a0, const void* a1, int64_t a2,
                                                  CapturedRegistersFn fn);
// What the guest-call entry (engine/pe/runtime_call.h, GuestCallEntry)
// calls: the entry's own arguments (the invoker and five argument words)
// and `captured` as for CapturedRegistersFn.
using GuestCallTarget = ValuePair (*)(const void* invoker, int64_t w0, int64_t w1, int64_t w2,
                                      int64_t w3, int64_t w4, const uint64_t* captured);

// How frames are linked, for a stack walker that knows no architecture.
// Every frame -- compiled code's and C++'s (built with frame pointers) --
// has a link (the value of its frame-pointer register while it runs); the
// stack grows down, so a caller's link is above its callee's.
struct FrameLayout {
  // Bytes from a frame's link to its return address and to its caller's
  // link (x86_64: [link + 8] and [link]).
  int32_t return_address_offset = 0;
  int32_t caller_link_offset = 0;
  // A compiled frame's CodeMetadata::saved_registers[k] (its caller's
  // values of the callee-saved registers it writes) lie at
  // link + saved_registers_offset - 8 * k (x86_64: [link - 8 * (k + 1)]).
  int32_t saved_registers_offset = 0;
  // The registers DecodeDeopt indexes (PReg numbers 0..register_count-1;
  // DeoptHandler's saved_regs has this many).
  int register_count = 0;
  // The callee-saved registers the capture stubs store (PReg numbers), in
  // the order of `captured` (CapturedRegistersFn).
  std::vector<int> captured_registers;
};

// The runtime's view of the machine a backend generates code for. Only a
// backend whose code runs on this host is asked for it (the engine refuses
// a backend of another architecture).
struct RuntimeSupport {
  FrameLayout frame;
  // This thread's thread pointer, the base of StackLimit::kThreadLocal
  // offsets and of HeapAllocation::free_list_head's (x86_64: %fs:0). Null:
  // compiled code cannot reach thread-locals (no inline free lists, no
  // prologue stack check).
  uintptr_t (*thread_pointer)() = nullptr;
  // Compiled prologues can check a kThreadLocal StackLimit (requires
  // thread_pointer), so the runtime need not check the guest stack before
  // entering compiled code.
  bool prologue_stack_check = false;
  // Null: the runtime's slow paths run without capturing registers, and
  // stack walks do not list the compiled callers there.
  CallWithCapturedRegistersFn call_with_captured_registers = nullptr;
};

struct CompiledCode {
  CodeRegion region;
  CodeMetadata metadata;
  const void* entry() const { return region.start; }
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual absl::string_view name() const = 0;
  virtual const RegisterInfo& register_info() const = 0;
  // Whether `imm` may be the immediate operand of `op` (lowering materializes
  // other constants with kMovImm).
  virtual bool IsLegalImmediate(MOp op, int64_t imm) const = 0;
  // The target's lowering of pure IR operations ahead of the shared one
  // (target_lowering.h), or null: the shared lowering does everything.
  virtual const TargetLowering* target_lowering() const { return nullptr; }

  // Allocates registers (unless mf.allocated()), encodes and installs into
  // `cache`.
  virtual absl::StatusOr<CompiledCode> Compile(MachineFunction& mf, const CompileOptions& options,
                                               CodeCache& cache) = 0;
  // Installs the shared deopt entry that calls `handler`.
  virtual absl::StatusOr<const void*> CreateDeoptEntry(DeoptHandler handler,
                                                       CodeCache& cache) = 0;
  // What the runtime needs of the machine (RuntimeSupport); null: nothing
  // (stack walks list no compiled frames, compiled code reaches no
  // thread-locals, the runtime checks the guest stack itself).
  virtual const RuntimeSupport* runtime_support() const { return nullptr; }
  // The guest-call entry (engine/pe/runtime_call.h) that calls `target`
  // with the compiled caller's callee-saved registers captured; null if the
  // backend has none (the runtime then uses one that captures nothing).
  virtual absl::StatusOr<const void*> CreateGuestCallEntry(GuestCallTarget /*target*/,
                                                           CodeCache& /*cache*/) {
    return nullptr;
  }
  // One instruction per line, each prefixed with its address.
  virtual absl::StatusOr<std::string> Disassemble(absl::Span<const uint8_t> code,
                                                  uint64_t address) const = 0;
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_BACKEND_H_
