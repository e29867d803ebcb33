// Background compilation on SL (engine/runtime/compile_queue.h): hot call
// targets compile on a compiler thread while the interpreter keeps running;
// a rewrite of the tree or an invalidation while the compiler works makes
// the engine discard the code instead of installing a stale one; a target
// whose code keeps deoptimizing the same way stops being compiled. Also run
// under --config=tsan.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/value_printing.h"
#include "languages/sl/sl_context.h"
#include "languages/sl/sl_launcher.h"
#include "languages/sl/testing/traced_program_test.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"

namespace morel::sl {
namespace {

constexpr char kProgram[] = R"(
function add(a, b) { return a + b; }
function main() { return add(1, 2); }
)";

class BackgroundCompilationTest : public testing::TracedProgramTest {
 protected:
  void Start(config::EngineConfig config) {
    config.set_trace_compilation_details(true);
    TracedProgramTest::Start(config, kProgram, "Background.sl");
  }
  std::string Add(Value a, Value b) {
    Value args[2] = {a, b};
    return Call("add", args);
  }
  CallTarget& target() { return TargetOf("add"); }
};

// The first tier at `threshold` (the last tier, at 10000, is not reached).
config::EngineConfig Background(int threshold) {
  config::EngineConfig config;
  config.set_background_compilation(true);
  config.set_first_tier_compilation_threshold(threshold);
  config.set_first_tier_min_invoke_threshold(1);
  return config;
}

TEST_F(BackgroundCompilationTest, CompilesOnACompilerThreadWhileTheInterpreterRuns) {
  Start(Background(50));
  for (int i = 0; i < 50; ++i) EXPECT_EQ(Add(Value::Long(i), Value::Long(1)), std::to_string(i + 1));
  // Queued at the threshold; the interpreter goes on meanwhile.
  for (int i = 0; i < 200; ++i) EXPECT_EQ(Add(Value::Long(i), Value::Long(2)), std::to_string(i + 2));
  engine().WaitForCompilations();
  ASSERT_NE(target().installed_code(), nullptr) << Log();
  EXPECT_EQ(Add(Value::Long(40), Value::Long(2)), "42");  // compiled code
  std::vector<std::string> queued = LogLines("opt queued");
  ASSERT_EQ(queued.size(), 1u) << Log();
  EXPECT_TRUE(absl::StrContains(queued[0], "Count/Thres         50/       50")) << queued[0];
  EXPECT_TRUE(absl::StrContains(queued[0], "Queue: Size    1 Change +1")) << queued[0];
  ASSERT_EQ(LogLines("opt start").size(), 1u) << Log();
  EXPECT_TRUE(absl::StrContains(LogLines("opt start")[0], "|Priority ")) << Log();
  ASSERT_EQ(LogLines("opt done").size(), 1u) << Log();
  // In that order.
  std::string log = Log();
  EXPECT_LT(log.find("opt queued"), log.find("opt start"));
  EXPECT_LT(log.find("opt start"), log.find("opt done"));
}

TEST_F(BackgroundCompilationTest, ARewriteDuringCompilationDiscardsTheCode) {
  Start(Background(20));
  bool rewritten = false;
  engine().SetAfterPartialEvaluationHookForTesting([&](CallTarget& compiled) {
    if (&compiled != &target() || rewritten) return;
    rewritten = true;
    // The interpreter (here on the compiler's thread, while the main thread
    // waits) meets strings: `+` specializes to concatenation.
    Value a = StringValue("x");
    EXPECT_EQ(Add(a, a), "xx");
  });
  for (int i = 0; i < 20; ++i) Add(Value::Long(i), Value::Long(1));
  engine().WaitForCompilations();
  EXPECT_TRUE(rewritten);
  EXPECT_EQ(target().installed_code(), nullptr) << Log();
  std::vector<std::string> unqueued = LogLines("opt unque.");
  ASSERT_EQ(unqueued.size(), 1u) << Log();
  EXPECT_TRUE(absl::StrContains(
      unqueued[0], "Reason Non permanent bailout: the tree was rewritten during compilation"))
      << unqueued[0];
  EXPECT_TRUE(LogLines("opt done").empty()) << Log();
  // The target re-profiles and compiles again, now with both specializations.
  for (int i = 0; i < 40 && target().installed_code() == nullptr; ++i) {
    Add(Value::Long(i), Value::Long(1));
    engine().WaitForCompilations();
  }
  ASSERT_NE(target().installed_code(), nullptr) << Log();
  Value b = StringValue("b");
  EXPECT_EQ(Add(b, Value::Long(1)), "b1");
  EXPECT_EQ(Add(Value::Long(1), Value::Long(1)), "2");
  EXPECT_EQ(LogLines("opt deopt").size(), 0u) << Log();
  // The hook refers to `rewritten`: no compilation may call it once this
  // frame is gone.
  engine().WaitForCompilations();
  engine().SetAfterPartialEvaluationHookForTesting(nullptr);
}

TEST_F(BackgroundCompilationTest, AnInvalidationDuringCompilationDiscardsTheCode) {
  Start(Background(20));
  engine().SetAfterPartialEvaluationHookForTesting(
      [&](CallTarget&) { engine().InvalidateAllCode("test"); });
  for (int i = 0; i < 20; ++i) Add(Value::Long(i), Value::Long(1));
  engine().WaitForCompilations();
  EXPECT_EQ(target().installed_code(), nullptr) << Log();
  ASSERT_EQ(LogLines("opt unque.").size(), 1u) << Log();
  EXPECT_TRUE(absl::StrContains(LogLines("opt unque.")[0],
                                "code was invalidated during compilation"));
}

TEST_F(BackgroundCompilationTest, ADeoptCycleStopsCompilation) {
  config::EngineConfig config;
  config.set_background_compilation(false);
  config.set_compile_immediately(true);
  config.set_deopt_every_n(1);  // every guard fails: the same deopt each time
  config.set_deopt_cycle_detection_threshold(2);
  Start(config);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(Add(Value::Long(i), Value::Long(1)), std::to_string(i + 1));
  // Compiled twice (the threshold); the second code deoptimized exactly as
  // the first: the third compilation fails permanently.
  EXPECT_EQ(LogLines("opt done").size(), 2u) << Log();
  std::vector<std::string> failed = LogLines("opt failed");
  ASSERT_EQ(failed.size(), 1u) << Log();
  EXPECT_TRUE(absl::StrContains(failed[0], "Reason: Deopt taken too many times: ")) << failed[0];
  EXPECT_TRUE(absl::StrContains(failed[0], "Background.sl:2:")) << failed[0];
  EXPECT_EQ(target().installed_code(), nullptr);
}

TEST_F(BackgroundCompilationTest, DeoptsAtDifferentPlacesAreNoCycle) {
  config::EngineConfig config;
  config.set_background_compilation(false);
  config.set_compile_immediately(true);
  config.set_deopt_cycle_detection_threshold(0);
  Start(config);
  // long, then string, then big number: each deopt is a new specialization.
  Add(Value::Long(1), Value::Long(1));
  Value s = StringValue("s");
  EXPECT_EQ(Add(s, s), "ss");
  EXPECT_EQ(Add(Value::Long(INT64_MAX), Value::Long(1)), "9223372036854775808");
  EXPECT_EQ(Add(Value::Long(2), Value::Long(3)), "5");
  EXPECT_TRUE(LogLines("opt failed").empty()) << Log();
}

TEST_F(BackgroundCompilationTest, CompileOnlySelectsTargetsByName) {
  config::EngineConfig config;
  config.set_background_compilation(false);
  config.set_compile_immediately(true);
  config.set_compile_only("~ad");
  Start(config);
  EXPECT_EQ(Add(Value::Long(1), Value::Long(2)), "3");
  EXPECT_TRUE(LogLines("opt ").empty()) << Log();  // excluded: never even queued
  config.set_compile_only("main,add");
  Start(config);
  EXPECT_EQ(Add(Value::Long(1), Value::Long(2)), "3");
  EXPECT_EQ(LogLines("opt done").size(), 1u) << Log();
}

TEST_F(BackgroundCompilationTest, CompilationFailureActionThrowRaisesToTheCaller) {
  config::EngineConfig config;
  config.set_background_compilation(false);
  config.set_compile_immediately(true);
  config.set_maximum_compilations(0);  // every compilation fails permanently
  config.set_compilation_failure_action(config::EngineConfig::Throw);
  Start(config);
  try {
    Add(Value::Long(1), Value::Long(2));
    ADD_FAILURE() << "no OptimizationFailedError";
  } catch (const runtime::OptimizationFailedError& error) {
    EXPECT_EQ(std::string(error.what()),
              "Compilation of add failed: Maximum compilation count 0 reached.");
  }
  // Permanent: the next call runs in the interpreter.
  EXPECT_EQ(Add(Value::Long(1), Value::Long(2)), "3");
  EXPECT_EQ(LogLines("opt failed").size(), 1u) << Log();
}

TEST_F(BackgroundCompilationTest, CompilationFailureActionDiagnoseWritesDumps) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string dumps = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/diagnose_dumps");
  config::EngineConfig config;
  config.set_background_compilation(false);
  config.set_compile_immediately(true);
  config.set_maximum_compilations(0);
  config.set_compilation_failure_action(config::EngineConfig::Diagnose);
  config.set_dump_path(dumps);
  Start(config);
  EXPECT_THROW(Add(Value::Long(1), Value::Long(2)), runtime::OptimizationFailedError);
  std::vector<std::string> saved = LogLines("Diagnostic output of the failed compilation of add");
  ASSERT_EQ(saved.size(), 1u) << Log();
  std::string path = dumps + "/diagnostics/add-";
  ASSERT_TRUE(absl::StrContains(saved[0], "saved in '" + path)) << saved[0];
  std::string file = saved[0].substr(saved[0].find(path));
  file = file.substr(0, file.find('\''));
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(absl::StartsWith(
      text, ";; compilation of add failed: Maximum compilation count 0 reached.\n"))
      << text;
  EXPECT_TRUE(absl::StrContains(text, ";; IR after pe\n")) << text;
  EXPECT_TRUE(absl::StrContains(text, ";; IR after dce")) << text;
  EXPECT_TRUE(absl::StrContains(text, "func @add")) << text;
}

TEST_F(BackgroundCompilationTest, ThrowWithBackgroundCompilationOnlyWarns) {
  config::EngineConfig config = Background(5);
  config.set_maximum_compilations(0);
  config.set_compilation_failure_action(config::EngineConfig::Throw);
  Start(config);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(Add(Value::Long(i), Value::Long(0)), std::to_string(i));
  engine().WaitForCompilations();
  EXPECT_TRUE(absl::StrContains(Log(), "WARNING: engine.CompilationFailureAction=Throw needs "
                                       "engine.BackgroundCompilation=false"))
      << Log();
  EXPECT_EQ(LogLines("opt failed").size(), 1u) << Log();
}

// Whole programs whose functions specialize (numbers, strings, big numbers,
// objects, several callees) while the compiler thread partially evaluates
// them: the output is the interpreter's. Under tsan this is the race check
// between specialization and partial evaluation.
TEST(BackgroundCompilationProgramTest, PrintsWhatTheInterpreterPrints) {
  constexpr char kMixed[] = R"(
function add(a, b) { return a + b; }
function get(o) { return o.x; }
function mod(a, b) { return a - a / b * b; }
function fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }
function main() {
  i = 0; s = ""; big = 1; o = new(); o.x = 0; p = new(); p.y = 1; p.x = 5;
  while (i < 3000) {
    if (mod(i, 100) == 0) { s = add(s, mod(i, 7)); }
    if (mod(i, 500) == 0) { big = add(big, 9223372036854775807); println(big); }
    o.x = add(get(o), get(p));
    if (i == 1500) { p = new(); p.x = "str"; }
    i = add(i, 1);
  }
  println(fib(15));
  println(o.x);
  return s;
}
)";
  auto run = [&](std::vector<std::string> flags) {
    config::EngineConfig config;
    for (const std::string& flag : flags) {
      if (flag == "interpreter") config.set_compilation(false);
      if (flag == "background") {
        // Both tiers, the last requested by first-tier code while it runs.
        config.set_background_compilation(true);
        config.set_first_tier_compilation_threshold(3);
        config.set_first_tier_min_invoke_threshold(1);
        config.set_last_tier_compilation_threshold(30);
        config.set_min_invoke_threshold(1);
      }
    }
    std::FILE* out = std::tmpfile();
    ProgramRun program;
    program.source_text = kMixed;
    program.source_name = "Mixed.sl";
    program.config = config;
    program.out = out;
    program.err = out;
    int status = RunProgram(program);
    std::fflush(out);
    std::rewind(out);
    std::string text;
    for (int c; (c = std::fgetc(out)) != EOF;) text.push_back(static_cast<char>(c));
    std::fclose(out);
    return absl::StrCat("status ", status, "\n", text);
  };
  std::string expected = run({"interpreter"});
  ASSERT_TRUE(absl::StrContains(expected, "status 0")) << expected;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(run({"background"}), expected);
}

}  // namespace
}  // namespace morel::sl
