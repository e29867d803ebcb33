#ifndef MOREL_ENGINE_OPT_PIPELINE_CONFIG_H_
#define MOREL_ENGINE_OPT_PIPELINE_CONFIG_H_

// The optimizer's options from the engine's EngineConfig. Kept apart from
// //engine/opt so that the IR toolkit (engine/ir + engine/opt) is usable
// without the engine's configuration.

#include "absl/status/statusor.h"
#include "engine/config/engine_config.pb.h"
#include "engine/opt/pass_registry.h"
#include "engine/opt/pipeline_options.h"

namespace morel::opt {

// The options of `config` (DumpIR, VerifyIR, DisablePasses,
// OptimizationFuel), validated against `registry`.
absl::StatusOr<PipelineOptions> PipelineOptionsFromConfig(
    const config::EngineConfig& config, const PassRegistry& registry);

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_PIPELINE_CONFIG_H_
