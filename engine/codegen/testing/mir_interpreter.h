#ifndef MOREL_ENGINE_CODEGEN_TESTING_MIR_INTERPRETER_H_
#define MOREL_ENGINE_CODEGEN_TESTING_MIR_INTERPRETER_H_

// Test support: executes a MachineFunction (before or after register
// allocation) on a simulated register file, so tests can check that
// allocation preserves behaviour on any host. Calls go to
// uint64_t(*)(uint64_t x6) functions; after a call every caller-saved
// register is overwritten with garbage, so values wrongly kept there break.
// kAlloc calls its `allocate(bytes)` (never the thread-local fast path).

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_info.h"

namespace morel::codegen::testing {

struct MirResult {
  std::vector<uint64_t> returned;  // values of the kRet operands
  int64_t deopt_id = -1;           // set if a deopt exit was taken
  std::vector<uint64_t> deopt_values;
};

// `args` go into ri.argument_regs. Fails after `max_steps` instructions.
absl::StatusOr<MirResult> RunMir(const MachineFunction& mf, const RegisterInfo& ri,
                                 const std::vector<uint64_t>& args, int64_t max_steps = 1000000);

}  // namespace morel::codegen::testing

#endif  // MOREL_ENGINE_CODEGEN_TESTING_MIR_INTERPRETER_H_
