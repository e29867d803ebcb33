#ifndef MOREL_ENGINE_RUNTIME_SPLITTING_CONFIG_H_
#define MOREL_ENGINE_RUNTIME_SPLITTING_CONFIG_H_

// The splitting options resolved once from the EngineConfig (Truffle's
// EngineData fields): splitting/ owns its options struct and never sees the
// engine's config; the engine adapts its config to it here.

#include "engine/config/engine_config.pb.h"
#include "splitting/splitting_options.h"

namespace morel::runtime {

// `enabled` is Splitting && Mode != latency; the interpreter thresholds that
// TraceSplitting prints come from the compilation options
// (truffle_reference §4.2).
splitting::SplittingOptions SplittingOptionsFromConfig(const config::EngineConfig& config);

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_SPLITTING_CONFIG_H_
