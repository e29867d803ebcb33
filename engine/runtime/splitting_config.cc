#include "engine/runtime/splitting_config.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace morel::runtime {

splitting::SplittingOptions SplittingOptionsFromConfig(const config::EngineConfig& config) {
  splitting::SplittingOptions options;
  options.enabled =
      config.splitting() && config.mode() != config::EngineConfig::latency;
  options.allow_forced_splits = config.splitting_allow_forced_splits();
  options.dump_decisions = config.splitting_dump_decisions();
  options.growth_limit = config.splitting_growth_limit();
  options.max_callee_size = config.splitting_max_callee_size();
  options.max_propagation_depth = config.splitting_max_propagation_depth();
  options.trace_events = config.splitting_trace_events();
  options.trace_splitting = config.trace_splitting();
  options.trace_summary = config.trace_splitting_summary();
  // Forcing every split is forcing splits: SplittingAllowForcedSplits=false
  // turns it off like it turns off CloneCallTarget().
  options.force_all =
      config.splitting_force_all() && config.splitting_allow_forced_splits();
  options.dump_directory = absl::StrCat(config.dump_path(), "/splitting");

  // EngineData: CompileImmediately forces single tier and zero thresholds.
  options.multi_tier = config.multi_tier() && !config.compile_immediately();
  if (config.compile_immediately()) {
    options.call_threshold_in_interpreter = 0;
    options.call_and_loop_threshold_in_interpreter = 0;
  } else if (options.multi_tier) {
    options.call_threshold_in_interpreter =
        std::min(config.first_tier_min_invoke_threshold(),
                 config.first_tier_compilation_threshold());
    options.call_and_loop_threshold_in_interpreter =
        config.first_tier_compilation_threshold();
  } else {
    options.call_threshold_in_interpreter = std::min(
        config.min_invoke_threshold(), config.single_tier_compilation_threshold());
    options.call_and_loop_threshold_in_interpreter =
        config.single_tier_compilation_threshold();
  }
  return options;
}

}  // namespace morel::runtime
