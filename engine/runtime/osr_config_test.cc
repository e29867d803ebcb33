// osr::OsrOptions from the EngineConfig: each field from its option, and the
// struct's own defaults (what osr/ used alone starts from) are the
// EngineConfig's.

#include "engine/runtime/osr.h"

#include "gtest/gtest.h"

namespace morel::runtime {
namespace {

TEST(OsrConfigTest, DefaultConfigGivesTheStructsDefaults) {
  osr::OsrOptions from_config = OsrOptionsFromConfig(config::EngineConfig());
  osr::OsrOptions defaults;
  EXPECT_EQ(from_config.enabled, defaults.enabled);
  EXPECT_EQ(from_config.always_osr, defaults.always_osr);
  EXPECT_EQ(from_config.compilation_threshold, defaults.compilation_threshold);
  EXPECT_EQ(from_config.max_compilation_re_attempts, defaults.max_compilation_re_attempts);
  EXPECT_EQ(from_config.trace_compilation, defaults.trace_compilation);
}

TEST(OsrConfigTest, EachOptionReachesItsField) {
  config::EngineConfig config;
  config.set_osr(false);
  config.set_always_osr(true);
  config.set_osr_compilation_threshold(7);
  config.set_osr_max_compilation_re_attempts(3);
  config.set_trace_compilation(true);
  osr::OsrOptions options = OsrOptionsFromConfig(config);
  EXPECT_FALSE(options.enabled);
  EXPECT_TRUE(options.always_osr);
  EXPECT_EQ(options.compilation_threshold, 7);
  EXPECT_EQ(options.max_compilation_re_attempts, 3);
  EXPECT_TRUE(options.trace_compilation);
}

}  // namespace
}  // namespace morel::runtime
