#include "engine/codegen/compile.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/codegen/register_allocator.h"

namespace morel::codegen {

absl::StatusOr<CompiledFunction> CompileFunction(const ir::Function& function, Backend& backend,
                                                 CodeCache& cache,
                                                 const NativeCompileOptions& options) {
  absl::StatusOr<LoweredFunction> lowered = Lower(function, backend, options.lowering);
  if (!lowered.ok()) return lowered.status();
  MachineFunction& mf = lowered->mf;
  absl::StatusOr<AllocationResult> allocation =
      AllocateRegisters(mf, backend.register_info(), options.codegen.allocation);
  if (!allocation.ok()) {
    return absl::Status(allocation.status().code(),
                        absl::StrCat(function.name(), ": register allocation: ",
                                     allocation.status().message()));
  }
  CompiledFunction out;
  if (options.keep_machine_ir_dump) out.machine_ir = mf.Dump(&backend.register_info().names);
  absl::StatusOr<CompiledCode> code = backend.Compile(mf, options.codegen, cache);
  if (!code.ok()) return code.status();
  out.code = std::move(*code);
  out.entry = out.code.entry();
  out.code_size = out.code.region.size;
  out.deopt_map = std::move(lowered->deopt_map);
  absl::Status resolved = out.deopt_map.Resolve(out.code.metadata);
  if (!resolved.ok()) {
    (void)cache.Free(out.code.region.start);
    return resolved;
  }
  return out;
}

}  // namespace morel::codegen
