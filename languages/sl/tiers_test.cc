// Compilation tiers on SL (engine/runtime/README.md, "Tiers";
// truffle_reference §4.2-4.3), in both backends: with MultiTier a call
// target compiles at the first tier's thresholds, its first-tier code counts
// its calls (and, with FirstTierBackedgeCounts, its loop iterations) and
// requests the last tier at the last tier's thresholds; MultiTier=false and
// CompileImmediately compile once (reported as Tier 2, the last tier, as
// Truffle does); Mode=latency never reaches the last tier; a deoptimization
// sends the target back to the interpreter and the first tier.

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/native_tier.h"
#include "gtest/gtest.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/testing/traced_program_test.h"
#include "nodes/call_target.h"

namespace morel::sl {
namespace {

constexpr char kProgram[] = R"(
function add(a, b) { return a + b; }
function count(n) {
  i = 0;
  while (i < n) { i = i + 1; }
  return i;
}
function rec(n, s) {
  if (n > 0) { rec(n - 1, s); }
  if (n == 5) { return s + 1; }
  return n;
}
)";

class TiersTest : public testing::TracedProgramTest,
                  public ::testing::WithParamInterface<config::EngineConfig::Backend> {
 protected:
  void SetUp() override {
    if (GetParam() != config::EngineConfig::ir_interpreter &&
        !runtime::NativeTier::Get(config::EngineConfig::Backend_Name(GetParam())).ok()) {
      GTEST_SKIP() << "no native backend for this host";
    }
  }
  // Small thresholds; compilation on the calling thread, so each request
  // is compiled and installed before the call that made it goes on.
  config::EngineConfig Tiers() {
    config::EngineConfig config;
    config.set_backend(GetParam());
    config.set_background_compilation(false);
    config.set_trace_compilation_details(true);
    config.set_first_tier_compilation_threshold(10);
    config.set_first_tier_min_invoke_threshold(1);
    config.set_last_tier_compilation_threshold(50);
    config.set_min_invoke_threshold(3);
    return config;
  }
  void Start(const config::EngineConfig& config) {
    TracedProgramTest::Start(config, kProgram, "Tiers.sl");
  }
  std::string Add(Value a, Value b) {
    Value args[2] = {a, b};
    return Call("add", args);
  }
  std::string Count(int64_t n) {
    Value args[1] = {Value::Long(n)};
    return Call("count", args);
  }
  // The `opt queued` line's tier and Count/Thres column.
  static std::string CountThres(int tier, int count, int threshold) {
    return absl::StrFormat("|Tier %d|Count/Thres  %9d/%9d|", tier, count, threshold);
  }
  // The tiers of the `opt done` lines, in order ("12" for Tier 1 then 2).
  std::string DoneTiers() {
    std::string tiers;
    for (const std::string& line : LogLines("opt done")) {
      size_t at = line.find("|Tier ");
      tiers += at == std::string::npos ? '?' : line[at + 6];
    }
    return tiers;
  }
};

TEST_P(TiersTest, FirstTierAtTheFirstThresholdThenLastTierFromFirstTierCode) {
  Start(Tiers());
  CallTarget& add = TargetOf("add");
  for (int i = 1; i < 10; ++i) ASSERT_EQ(Add(Value::Long(i), Value::Long(1)), std::to_string(i + 1));
  EXPECT_EQ(DoneTiers(), "") << Log();
  // The 10th call reaches FirstTierCompilationThreshold.
  EXPECT_EQ(Add(Value::Long(40), Value::Long(2)), "42");
  EXPECT_EQ(DoneTiers(), "1") << Log();
  std::vector<std::string> queued = LogLines("opt queued");
  ASSERT_EQ(queued.size(), 1u) << Log();
  EXPECT_TRUE(absl::StrContains(queued[0], CountThres(1, 10, 10))) << queued[0];
  // First-tier code counts its calls (the interpreter counts no call that
  // runs installed code).
  int calls = add.call_count();
  EXPECT_EQ(Add(Value::Long(1), Value::Long(2)), "3");
  EXPECT_EQ(add.call_count(), calls + 1);
  // ... and asks for the last tier once callAndLoopCount reaches
  // LastTierCompilationThreshold, not before.
  while (add.call_and_loop_count() < 49) Add(Value::Long(1), Value::Long(2));
  EXPECT_EQ(DoneTiers(), "1") << Log();
  EXPECT_EQ(Add(Value::Long(1), Value::Long(2)), "3");
  EXPECT_EQ(add.call_and_loop_count(), 50);
  EXPECT_EQ(DoneTiers(), "12") << Log();
  queued = LogLines("opt queued");
  ASSERT_EQ(queued.size(), 2u) << Log();
  EXPECT_TRUE(absl::StrContains(queued[1], CountThres(2, 50, 50))) << queued[1];
  // Both lines are the same target's.
  std::vector<std::string> done = LogLines("opt done");
  std::string column = absl::StrCat("id=", add.id(), " ");
  EXPECT_TRUE(absl::StrContains(done[0], column) && absl::StrContains(done[1], column)) << Log();
  // Last-tier code counts nothing and requests nothing more.
  calls = add.call_count();
  for (int i = 0; i < 100; ++i) ASSERT_EQ(Add(Value::Long(i), Value::Long(1)), std::to_string(i + 1));
  EXPECT_EQ(add.call_count(), calls);
  EXPECT_EQ(DoneTiers(), "12") << Log();
  EXPECT_EQ(LogLines("opt queued").size(), 2u) << Log();
}

TEST_P(TiersTest, WithoutMultiTierOneCompilationAtTheSingleTierThreshold) {
  config::EngineConfig config = Tiers();
  config.set_multi_tier(false);
  config.set_single_tier_compilation_threshold(20);
  config.set_min_invoke_threshold(1);
  Start(config);
  for (int i = 1; i < 20; ++i) Add(Value::Long(i), Value::Long(1));
  EXPECT_EQ(DoneTiers(), "") << Log();  // not at FirstTierCompilationThreshold (10)
  Add(Value::Long(1), Value::Long(1));
  // Truffle's compile(lastTierRequest = !MultiTier): the only tier is the
  // last one.
  EXPECT_EQ(DoneTiers(), "2") << Log();
  for (int i = 0; i < 200; ++i) Add(Value::Long(i), Value::Long(1));
  EXPECT_EQ(DoneTiers(), "2") << Log();
}

TEST_P(TiersTest, CompileImmediatelyCompilesOnceAtTheLastTier) {
  config::EngineConfig config = Tiers();
  config.set_compile_immediately(true);  // MultiTier forced off
  Start(config);
  EXPECT_EQ(Add(Value::Long(1), Value::Long(1)), "2");
  EXPECT_EQ(DoneTiers(), "2") << Log();
  // Compiled before the first call, so once more at the next call, after
  // the first specialization (a deopt: `+` was still unspecialized); never
  // Tier 1.
  for (int i = 0; i < 100; ++i) Add(Value::Long(i), Value::Long(1));
  EXPECT_EQ(DoneTiers(), "22") << Log();
  EXPECT_EQ(LogLines("opt deopt").size(), 1u) << Log();
}

TEST_P(TiersTest, LatencyModeNeverReachesTheLastTier) {
  config::EngineConfig config = Tiers();
  config.set_mode(config::EngineConfig::latency);
  Start(config);
  for (int i = 0; i < 500; ++i) ASSERT_EQ(Add(Value::Long(i), Value::Long(1)), std::to_string(i + 1));
  for (int i = 0; i < 20; ++i) ASSERT_EQ(Count(100), "100");
  EXPECT_EQ(DoneTiers(), "11") << Log();  // add and count, first tier only
  EXPECT_EQ(LogLines("opt queued").size(), 2u) << Log();
}

// FirstTierBackedgeCounts: each iteration of a loop in first-tier code adds
// to callAndLoopCount, as the interpreter's loop reports do; so a function
// whose loop runs long reaches the last tier after few calls. Without it,
// first-tier code counts only calls.
TEST_P(TiersTest, BackEdgeCountsTakeALoopToTheLastTier) {
  for (bool backedge_counts : {true, false}) {
    SCOPED_TRACE(backedge_counts ? "FirstTierBackedgeCounts" : "no back-edge counts");
    config::EngineConfig config = Tiers();
    config.set_first_tier_compilation_threshold(150);
    config.set_last_tier_compilation_threshold(2000);
    config.set_first_tier_backedge_counts(backedge_counts);
    Start(config);
    CallTarget& count = TargetOf("count");
    // Interpreted: 1 + 100 per call; the 2nd call finds 101 < 150, the 3rd
    // 203.
    for (int i = 0; i < 3; ++i) ASSERT_EQ(Count(100), "100");
    ASSERT_EQ(DoneTiers(), "1") << Log();
    int before = count.call_and_loop_count();
    ASSERT_EQ(Count(100), "100");
    EXPECT_EQ(count.call_and_loop_count() - before, backedge_counts ? 101 : 1);
    for (int i = 0; i < 40; ++i) ASSERT_EQ(Count(100), "100");
    EXPECT_EQ(DoneTiers(), backedge_counts ? "12" : "1") << Log();
  }
}

// A deoptimization of last-tier code sends the target back to the
// interpreter, which re-profiles and compiles the first tier again.
TEST_P(TiersTest, ADeoptimizationGoesBackToTheFirstTier) {
  Start(Tiers());
  CallTarget& add = TargetOf("add");
  for (int i = 0; i < 60; ++i) Add(Value::Long(i), Value::Long(1));
  ASSERT_EQ(DoneTiers(), "12") << Log();
  // Strings: the last-tier code specialized on longs deoptimizes.
  Value s = StringValue("s");
  EXPECT_EQ(Add(s, s), "ss");
  EXPECT_EQ(LogLines("opt deopt").size(), 1u) << Log();
  EXPECT_EQ(add.installed_code(), nullptr);
  // Interpreted for FirstTierCompilationThreshold more calls, then Tier 1.
  for (int i = 0; i < 10; ++i) Add(Value::Long(i), Value::Long(1));
  EXPECT_EQ(DoneTiers(), "12") << Log();
  for (int i = 0; i < 2; ++i) Add(s, Value::Long(i));
  EXPECT_EQ(DoneTiers(), "121") << Log();
  for (int i = 0; i < 100; ++i) Add(Value::Long(i), Value::Long(1));
  EXPECT_EQ(DoneTiers(), "1212") << Log();
  EXPECT_EQ(Add(s, Value::Long(1)), "s1");  // both specializations compiled
  EXPECT_EQ(DoneTiers(), "1212") << Log();
  EXPECT_EQ(LogLines("opt deopt").size(), 1u) << Log();
}

// An invalidation drops last-tier code too: the next compilation is the
// first tier again.
TEST_P(TiersTest, AnInvalidationGoesBackToTheFirstTier) {
  Start(Tiers());
  for (int i = 0; i < 60; ++i) Add(Value::Long(i), Value::Long(1));
  ASSERT_EQ(DoneTiers(), "12") << Log();
  engine().InvalidateAllCode("test");
  EXPECT_EQ(TargetOf("add").installed_code(), nullptr);
  EXPECT_EQ(LogLines("opt inval.").size(), 1u) << Log();
  // The target re-profiles in the interpreter for
  // FirstTierCompilationThreshold more calls, then compiles the first tier.
  for (int i = 0; i < 10; ++i) Add(Value::Long(i), Value::Long(1));
  EXPECT_EQ(DoneTiers(), "12") << Log();
  EXPECT_EQ(Add(Value::Long(1), Value::Long(1)), "2");
  EXPECT_EQ(DoneTiers(), "121") << Log();
}

// The last tier replaces first-tier code while first-tier activations are
// still running (here: the outer calls of a recursion, the last tier
// requested by an inner one). One of them then deoptimizes (an
// unspecialized `+`): only that activation leaves its code, and the
// last-tier code stays installed.
TEST_P(TiersTest, ADeoptOfReplacedFirstTierCodeKeepsTheLastTier) {
  Start(Tiers());
  CallTarget& rec = TargetOf("rec");
  Value args[2] = {Value::Long(1), Value::Long(1)};
  while (rec.call_and_loop_count() < 46) ASSERT_EQ(Call("rec", args), "1");
  ASSERT_EQ(DoneTiers(), "1") << Log();
  // Six activations: the last tier is installed at the 3rd or 4th.
  args[0] = Value::Long(5);
  EXPECT_EQ(Call("rec", args), "2");
  EXPECT_EQ(DoneTiers(), "12") << Log();
  std::vector<std::string> deopts = LogLines("opt deopt");
  ASSERT_EQ(deopts.size(), 1u) << Log();
  EXPECT_TRUE(absl::StrContains(deopts[0], "|Invalidated false|")) << deopts[0];
  EXPECT_NE(rec.installed_code(), nullptr) << Log();
  EXPECT_TRUE(LogLines("opt inval.").empty()) << Log();
}

// On compiler threads, while the interpreter and then first-tier code keep
// running (the last tier is requested from first-tier code).
TEST_P(TiersTest, BothTiersInTheBackground) {
  config::EngineConfig config = Tiers();
  config.set_background_compilation(true);
  Start(config);
  CallTarget& add = TargetOf("add");
  for (int i = 0; i < 2000 && DoneTiers() != "12"; ++i) {
    ASSERT_EQ(Add(Value::Long(i), Value::Long(1)), std::to_string(i + 1));
    if (i % 50 == 49) engine().WaitForCompilations();
  }
  EXPECT_EQ(DoneTiers(), "12") << Log();
  std::vector<std::string> starts = LogLines("opt start");
  ASSERT_EQ(starts.size(), 2u) << Log();
  EXPECT_TRUE(absl::StrContains(starts[0], "|Tier 1|")) << starts[0];
  EXPECT_TRUE(absl::StrContains(starts[1], "|Tier 2|")) << starts[1];
  EXPECT_NE(add.installed_code(), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Backends, TiersTest,
                         ::testing::Values(config::EngineConfig::ir_interpreter,
                                           config::EngineConfig::x86_64),
                         [](const auto& info) {
                           return config::EngineConfig::Backend_Name(info.param);
                         });

}  // namespace
}  // namespace morel::sl
