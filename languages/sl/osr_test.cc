// On-stack replacement on SL (engine/runtime/osr.h): when a loop entry's
// iterations pass OSRCompilationThreshold its loop compiles and the rest of
// it runs in compiled code on the running activation's frame; re-attempts
// after deoptimizations are bounded; OSR off means no OSR.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "languages/sl/runtime/value_printing.h"
#include "languages/sl/sl_context.h"
#include "languages/sl/testing/traced_program_test.h"

namespace morel::sl {
namespace {

constexpr char kProgram[] = R"(
function count(n) {
  i = 0;
  while (i < n) { i = i + 1; }
  return i;
}
)";

class OsrTest : public testing::TracedProgramTest {
 protected:
  void Start(config::EngineConfig config) {
    config.set_background_compilation(false);
    TracedProgramTest::Start(config, kProgram, "Osr.sl");
  }
  std::string Count(int64_t n) {
    Value args[1] = {Value::Long(n)};
    return Call("count", args);
  }
  int Lines(absl::string_view needle) { return CountLogLines(needle); }
};

TEST_F(OsrTest, CompilesTheLoopOnlyPastTheThreshold) {
  config::EngineConfig config;
  config.set_osr_compilation_threshold(2048);
  // Only OSR: reported loop counts must not compile `count` itself.
  config.set_first_tier_compilation_threshold(100000000);
  Start(config);
  // The first poll of an entry comes at its first iteration above the
  // threshold (Truffle's profilingLoop: iterations > threshold); at exactly
  // the threshold nothing happens.
  EXPECT_EQ(Count(2048), "2048");
  EXPECT_EQ(Lines("<OSR>"), 0) << Log();
  EXPECT_EQ(Count(2049), "2049");
  EXPECT_EQ(Lines("opt done   engine=1"), 1) << Log();
  EXPECT_EQ(Lines("count:4 SLWhileRepeatingNode<OSR>"), 1) << Log();
  // The OSR code ran the rest of the loop and left `i` in the frame.
  EXPECT_EQ(Count(100000), "100000");
  EXPECT_EQ(Lines("opt done"), 1) << Log();  // reused, not recompiled
}

TEST_F(OsrTest, IsOffWithoutOsrOrCompilation) {
  config::EngineConfig config;
  config.set_always_osr(true);
  config.set_osr(false);
  Start(config);
  EXPECT_EQ(Count(5000), "5000");
  EXPECT_EQ(Lines("<OSR>"), 0) << Log();
}

TEST_F(OsrTest, ReattemptsAfterDeoptimizationsAreBounded) {
  config::EngineConfig config;
  config.set_always_osr(true);
  config.set_deopt_every_n(1);  // every compiled guard fails
  config.set_osr_max_compilation_re_attempts(2);
  config.set_deopt_cycle_detection_threshold(-1);
  Start(config);
  EXPECT_EQ(Count(50), "50");
  // The first compilation and 2 re-attempts, each deoptimized; then OSR is
  // off for the loop.
  EXPECT_EQ(Lines("opt done"), 3) << Log();
  EXPECT_EQ(Lines("opt deopt"), 3) << Log();
  EXPECT_EQ(Lines("Max OSR compilation re-attempts reached (2)"), 1) << Log();
  EXPECT_EQ(Count(50), "50");
  EXPECT_EQ(Lines("opt done"), 3) << Log();
}

}  // namespace
}  // namespace morel::sl
