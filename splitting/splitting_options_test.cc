// SplittingOptions from the EngineConfig: latency mode, thresholds, paths.

#include "splitting/splitting_options.h"

#include "gtest/gtest.h"

namespace morel::splitting {
namespace {

TEST(SplittingOptionsTest, DefaultsAreTruffles) {
  SplittingOptions options = SplittingOptions::FromConfig(config::EngineConfig());
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

TEST(SplittingOptionsTest, LatencyModeOrSplittingFalseDisables) {
  config::EngineConfig config;
  config.set_mode(config::EngineConfig::latency);
  EXPECT_FALSE(SplittingOptions::FromConfig(config).enabled);
  config.set_mode(config::EngineConfig::throughput);
  EXPECT_TRUE(SplittingOptions::FromConfig(config).enabled);
  config.set_splitting(false);
  EXPECT_FALSE(SplittingOptions::FromConfig(config).enabled);
}

TEST(SplittingOptionsTest, ForceAllNeedsForcedSplitsAllowed) {
  config::EngineConfig config;
  config.set_splitting_force_all(true);
  EXPECT_TRUE(SplittingOptions::FromConfig(config).force_all);
  config.set_splitting_allow_forced_splits(false);
  EXPECT_FALSE(SplittingOptions::FromConfig(config).force_all);
}

TEST(SplittingOptionsTest, ThresholdsFollowTiers) {
  config::EngineConfig config;
  config.set_multi_tier(false);
  SplittingOptions options = SplittingOptions::FromConfig(config);
  EXPECT_FALSE(options.multi_tier);
  EXPECT_EQ(options.call_threshold_in_interpreter, 3);
  EXPECT_EQ(options.call_and_loop_threshold_in_interpreter, 1000);
  config.set_multi_tier(true);
  config.set_compile_immediately(true);
  options = SplittingOptions::FromConfig(config);
  EXPECT_FALSE(options.multi_tier);
  EXPECT_EQ(options.call_threshold_in_interpreter, 0);
  EXPECT_EQ(options.call_and_loop_threshold_in_interpreter, 0);
  config.set_dump_path("/tmp/d");
  EXPECT_EQ(SplittingOptions::FromConfig(config).dump_directory, "/tmp/d/splitting");
}

}  // namespace
}  // namespace morel::splitting
