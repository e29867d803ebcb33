#ifndef MOREL_ENGINE_OPT_PIPELINE_OPTIONS_H_
#define MOREL_ENGINE_OPT_PIPELINE_OPTIONS_H_

// PipelineOptions: the debug options of the optimizer. The engine builds them
// from its EngineConfig (DumpIR, VerifyIR, DisablePasses, OptimizationFuel;
// pipeline_config.h); the optimizer itself does not depend on the config.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace morel::opt {

class PassRegistry;

struct PipelineOptions {
  // Print the IR after these passes ("all": after every pass). The name
  // "pe" (the partial evaluator's output) is accepted and ignored here.
  std::vector<std::string> dump_ir;
  // Verify the input and the IR after every pass.
  bool verify_ir = false;
  // Passes to skip.
  std::vector<std::string> disable_passes;
  // Rewrites allowed; -1 is unlimited (Fuel::kUnlimited).
  int64_t optimization_fuel = -1;
  // Where dumps go; nullptr is std::cerr.
  std::ostream* dump_stream = nullptr;

  bool ShouldDump(absl::string_view pass) const;
  bool IsDisabled(absl::string_view pass) const;

  // Checks that every name in dump_ir and disable_passes is a registered
  // pass (or "all"/"pe" for dump_ir): InvalidArgument naming the first
  // unknown one.
  absl::Status Validate(const PassRegistry& registry) const;
};

// Splits "a, b,c" into {"a", "b", "c"} (empty pieces dropped).
std::vector<std::string> SplitPassList(absl::string_view list);

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_PIPELINE_OPTIONS_H_
