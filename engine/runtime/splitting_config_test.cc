// splitting::SplittingOptions from the EngineConfig: latency mode, thresholds,
// paths.

#include "engine/runtime/splitting_config.h"

#include "gtest/gtest.h"

namespace morel::runtime {
namespace {

TEST(SplittingConfigTest, DefaultsAreTruffles) {
  splitting::SplittingOptions options = SplittingOptionsFromConfig(config::EngineConfig());
  EXPECT_TRUE(options.enabled);
  EXPECT_TRUE(options.allow_forced_splits);
  EXPECT_FALSE(options.dump_decisions);
  EXPECT_DOUBLE_EQ(options.growth_limit, 1.5);
  EXPECT_EQ(options.max_callee_size, 100);
  EXPECT_EQ(options.max_propagation_depth, 5);
  EXPECT_FALSE(options.trace_events);
  EXPECT_FALSE(options.trace_splitting);
  EXPECT_FALSE(options.trace_summary);
  EXPECT_FALSE(options.force_all);
  EXPECT_EQ(options.dump_directory, "morel_dumps/splitting");
  EXPECT_EQ(options.call_threshold_in_interpreter, 1);
  EXPECT_EQ(options.call_and_loop_threshold_in_interpreter, 400);
}

// splitting/ used alone starts from the struct's own defaults: they are the
// defaults of the EngineConfig.
TEST(SplittingConfigTest, DefaultConfigGivesTheStructsDefaults) {
  splitting::SplittingOptions from_config = SplittingOptionsFromConfig(config::EngineConfig());
  splitting::SplittingOptions defaults;
  EXPECT_EQ(from_config.enabled, defaults.enabled);
  EXPECT_EQ(from_config.allow_forced_splits, defaults.allow_forced_splits);
  EXPECT_EQ(from_config.dump_decisions, defaults.dump_decisions);
  EXPECT_DOUBLE_EQ(from_config.growth_limit, defaults.growth_limit);
  EXPECT_EQ(from_config.max_callee_size, defaults.max_callee_size);
  EXPECT_EQ(from_config.max_propagation_depth, defaults.max_propagation_depth);
  EXPECT_EQ(from_config.trace_events, defaults.trace_events);
  EXPECT_EQ(from_config.trace_splitting, defaults.trace_splitting);
  EXPECT_EQ(from_config.trace_summary, defaults.trace_summary);
  EXPECT_EQ(from_config.force_all, defaults.force_all);
  EXPECT_EQ(from_config.dump_directory, defaults.dump_directory);
  EXPECT_EQ(from_config.multi_tier, defaults.multi_tier);
  EXPECT_EQ(from_config.call_threshold_in_interpreter, defaults.call_threshold_in_interpreter);
  EXPECT_EQ(from_config.call_and_loop_threshold_in_interpreter,
            defaults.call_and_loop_threshold_in_interpreter);
}

TEST(SplittingConfigTest, LatencyModeOrSplittingFalseDisables) {
  config::EngineConfig config;
  config.set_mode(config::EngineConfig::latency);
  EXPECT_FALSE(SplittingOptionsFromConfig(config).enabled);
  config.set_mode(config::EngineConfig::throughput);
  EXPECT_TRUE(SplittingOptionsFromConfig(config).enabled);
  config.set_splitting(false);
  EXPECT_FALSE(SplittingOptionsFromConfig(config).enabled);
}

TEST(SplittingConfigTest, ForceAllNeedsForcedSplitsAllowed) {
  config::EngineConfig config;
  config.set_splitting_force_all(true);
  EXPECT_TRUE(SplittingOptionsFromConfig(config).force_all);
  config.set_splitting_allow_forced_splits(false);
  EXPECT_FALSE(SplittingOptionsFromConfig(config).force_all);
}

TEST(SplittingConfigTest, ThresholdsFollowTiers) {
  config::EngineConfig config;
  config.set_multi_tier(false);
  splitting::SplittingOptions options = SplittingOptionsFromConfig(config);
  EXPECT_FALSE(options.multi_tier);
  EXPECT_EQ(options.call_threshold_in_interpreter, 3);
  EXPECT_EQ(options.call_and_loop_threshold_in_interpreter, 1000);
  config.set_multi_tier(true);
  config.set_compile_immediately(true);
  options = SplittingOptionsFromConfig(config);
  EXPECT_FALSE(options.multi_tier);
  EXPECT_EQ(options.call_threshold_in_interpreter, 0);
  EXPECT_EQ(options.call_and_loop_threshold_in_interpreter, 0);
  config.set_dump_path("/tmp/d");
  EXPECT_EQ(SplittingOptionsFromConfig(config).dump_directory, "/tmp/d/splitting");
}

}  // namespace
}  // namespace morel::runtime
