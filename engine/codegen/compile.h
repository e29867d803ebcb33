#ifndef MOREL_ENGINE_CODEGEN_COMPILE_H_
#define MOREL_ENGINE_CODEGEN_COMPILE_H_

// CompileFunction: an ir::Function to installed native code with a resolved
// DeoptMap, through any Backend: Lower (lower.h) -> register allocation and
// emission (Backend::Compile) -> DeoptMap::Resolve with the code metadata.
//
//   CompiledFunction fn = *CompileFunction(f, backend, cache, options);
//   auto entry = reinterpret_cast<ValuePair (*)(int64_t, int64_t)>(fn.entry);
//
// The code is callable as a C function: parameters in the argument
// registers, up to two results in the return registers (ValuePair). A deopt
// exit calls the DeoptHandler behind options.codegen.deopt_entry with
// (id, saved_regs, frame_pointer, return_pc); the handler decodes it with
// CompiledFunction::DecodeDeopt into the same ir::DeoptFrame list the IR
// reference interpreter reports, and returns the activation's result.
// Lazy states (calls) decode the same way from the registers and frame at
// the call's return address (CallSite::return_offset); the call's own result
// is not part of the state.

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/deopt_map.h"
#include "engine/codegen/lower.h"
#include "engine/ir/function.h"

namespace morel::codegen {

struct NativeCompileOptions {
  // Stack limit + overflow handler, deopt entry (Backend::CreateDeoptEntry),
  // allocation options.
  CompileOptions codegen;
  // call_target convention (lower.h).
  LoweringOptions lowering;
  // Testing aid: keep the machine IR dump (after allocation) in the result.
  bool keep_machine_ir_dump = false;
};

struct CompiledFunction {
  const void* entry = nullptr;
  size_t code_size = 0;
  CompiledCode code;   // region (free with CodeCache::Free(code.region.start)) + metadata
  DeoptMap deopt_map;  // resolved
  std::string machine_ir;  // if keep_machine_ir_dump

  // Decodes a deopt of this code from the handler's arguments.
  absl::StatusOr<DecodedDeopt> DecodeDeopt(uint64_t id, const uint64_t* saved_regs,
                                           const uint8_t* frame_pointer) const {
    return deopt_map.Decode(id, saved_regs, frame_pointer);
  }
};

absl::StatusOr<CompiledFunction> CompileFunction(const ir::Function& function, Backend& backend,
                                                 CodeCache& cache,
                                                 const NativeCompileOptions& options);

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_COMPILE_H_
