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

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/register_info.h"

namespace morel::codegen {

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

  // Allocates registers (unless mf.allocated()), encodes and installs into
  // `cache`.
  virtual absl::StatusOr<CompiledCode> Compile(MachineFunction& mf, const CompileOptions& options,
                                               CodeCache& cache) = 0;
  // Installs the shared deopt entry that calls `handler`.
  virtual absl::StatusOr<const void*> CreateDeoptEntry(DeoptHandler handler,
                                                       CodeCache& cache) = 0;
  // One instruction per line, each prefixed with its address.
  virtual absl::StatusOr<std::string> Disassemble(absl::Span<const uint8_t> code,
                                                  uint64_t address) const = 0;
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_BACKEND_H_
