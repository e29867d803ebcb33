#include "engine/opt/pipeline_config.h"

namespace morel::opt {

absl::StatusOr<PipelineOptions> PipelineOptionsFromConfig(
    const config::EngineConfig& config, const PassRegistry& registry) {
  PipelineOptions options;
  options.dump_ir = SplitPassList(config.dump_ir());
  options.verify_ir = config.verify_ir();
  options.disable_passes = SplitPassList(config.disable_passes());
  options.optimization_fuel = config.optimization_fuel();
  if (absl::Status s = options.Validate(registry); !s.ok()) return s;
  return options;
}

}  // namespace morel::opt
