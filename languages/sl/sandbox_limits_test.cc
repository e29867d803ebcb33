// The sandbox limits (engine options MaxCPUTime, MaxHeapMemory,
// MaxStackFrames, MaxASTDepth, MaxOutputStreamSize) seen from SL, in process
// through RunProgram, the `sl` launcher's own entry: each limit ends the
// program with its message and exit status 1, in the interpreter and in
// compiled code (the compiled runs read their TraceCompilation log to prove
// that the code that hit the limit was compiled), and the process stays
// healthy: a program run afterwards in the same process runs normally.

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/config/engine_config.pb.h"
#include "gtest/gtest.h"
#include "languages/sl/sl_launcher.h"

namespace morel::sl {
namespace {

struct Outcome {
  int status = 0;
  std::string out;
  std::string err;
  std::string log;  // the engine log (TraceCompilation)
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string ReadStream(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) text.append(buffer, n);
  std::fclose(file);
  return text;
}

enum class Mode { kInterpreter, kCompiled };

// Compiled: every function is compiled once (single tier) on the calling
// thread after 20 calls and loop iterations, without OSR, so that the code
// that meets a limit is a function's own compiled code.
config::EngineConfig ConfigFor(Mode mode) {
  config::EngineConfig config;
  if (mode == Mode::kInterpreter) {
    config.set_compilation(false);
  } else {
    config.set_multi_tier(false);
    config.set_single_tier_compilation_threshold(20);
    config.set_min_invoke_threshold(1);
    config.set_background_compilation(false);
    config.set_osr(false);
  }
  return config;
}

Outcome RunSl(const std::string& program, config::EngineConfig config) {
  static int runs = 0;
  const std::string log =
      absl::StrCat(::testing::TempDir(), "/sandbox_", getpid(), "_", runs++, ".log");
  config.set_log(log);
  config.set_trace_compilation(true);
  ProgramRun run;
  run.source_text = program;
  run.source_name = "limits.sl";
  run.config = config;
  run.out = std::tmpfile();
  run.err = std::tmpfile();
  Outcome outcome;
  outcome.status = RunProgram(run);
  outcome.out = ReadStream(run.out);
  outcome.err = ReadStream(run.err);
  outcome.log = ReadFile(log);
  return outcome;
}

// The engine log's lines that contain every one of `needles`.
int CountLines(const std::string& log, std::initializer_list<absl::string_view> needles) {
  int count = 0;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    bool all = true;
    for (absl::string_view needle : needles) all = all && absl::StrContains(line, needle);
    if (all) ++count;
  }
  return count;
}

// A program runs normally in this process after a limit ended another one.
void ExpectProcessHealthy(Mode mode) {
  Outcome after = RunSl(
      "function sum(n) { s = 0; i = 0; while (i < n) { s = s + i; i = i + 1; } return s; }\n"
      "function main() { j = 0; r = 0; while (j < 50) { r = sum(1000); j = j + 1; } println(r);"
      " println(\"done\"); }\n",
      ConfigFor(mode));
  EXPECT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(after.out, "499500\ndone\n");
  EXPECT_EQ(after.err, "");
}

class SandboxLimitsTest : public ::testing::TestWithParam<Mode> {
 protected:
  bool compiled() const { return GetParam() == Mode::kCompiled; }
  void TearDown() override { ExpectProcessHealthy(GetParam()); }
};

// Warmed up with finite loops (compiled after 20 calls), then an endless
// loop in spin's code: compiled code must poll at its back edge.
constexpr char kEndlessLoop[] =
    "function spin(n) { i = 0; while (i != n) { i = i + 1; } return i; }\n"
    "function main() { j = 0; while (j < 100) { spin(5); j = j + 1; }\n"
    "  println(\"warm\"); spin(0 - 1); println(\"never\"); }\n";

TEST_P(SandboxLimitsTest, MaxCPUTimeStopsAnEndlessLoop) {
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_cpu_time("200ms");
  Outcome outcome = RunSl(kEndlessLoop, config);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(outcome.out, "warm\n");
  EXPECT_EQ(outcome.err, "Maximum CPU time limit of 200ms exceeded.\n");
  if (compiled()) {
    // spin's compiled code polled its back edge and left for the interpreter.
    EXPECT_EQ(CountLines(outcome.log, {"opt done", " spin "}), 1) << outcome.log;
    EXPECT_EQ(CountLines(outcome.log, {"opt deopt", " spin ", "Reason safepoint"}), 1)
        << outcome.log;
  } else {
    EXPECT_EQ(CountLines(outcome.log, {"opt done"}), 0) << outcome.log;
  }
}

// No loop at all: the calls of a deep recursion tree poll.
TEST_P(SandboxLimitsTest, MaxCPUTimeStopsARecursionWithoutLoops) {
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_cpu_time("200ms");
  Outcome outcome = RunSl(
      "function fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }\n"
      "function main() { return fib(80); }\n",
      config);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(outcome.out, "");
  EXPECT_EQ(outcome.err, "Maximum CPU time limit of 200ms exceeded.\n");
  if (compiled()) {
    EXPECT_GE(CountLines(outcome.log, {"opt done", " fib "}), 1) << outcome.log;
  } else {
    EXPECT_EQ(CountLines(outcome.log, {"opt done"}), 0) << outcome.log;
  }
}

// main is frame 1, depth(k) adds k + 1 frames: 50 frames fit, 51 do not.
// Compiled code counts frames exactly (calls are not inlined under a limit).
TEST_P(SandboxLimitsTest, MaxStackFramesCountsGuestFrames) {
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_stack_frames(50);
  const std::string program = absl::StrCat(
      "function depth(n) { if (n == 0) { return 0; } return 1 + depth(n - 1); }\n"
      "function main() { j = 0; while (j < 30) { depth(3); j = j + 1; }\n"
      "  println(depth(48)); println(depth(49)); }\n");
  Outcome outcome = RunSl(program, config);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(outcome.out, "48\n");
  EXPECT_EQ(outcome.err, "Maximum frame limit of 50 exceeded (calling depth).\n");
  if (compiled()) {
    EXPECT_EQ(CountLines(outcome.log, {"opt done", " depth ", "Inlined   0Y"}), 1)
        << outcome.log;
  }
}

TEST_P(SandboxLimitsTest, MaxStackFramesEndsEndlessRecursionThroughBuiltins) {
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_stack_frames(200);
  Outcome outcome = RunSl(
      "function again(n) { return eval(\"sl\", \"function main() { return again(0); }\"); }\n"
      "function main() { return again(0); }\n",
      config);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_TRUE(absl::StartsWith(outcome.err, "Maximum frame limit of 200 exceeded (calling "))
      << outcome.err;
}

// A deeper function is refused when it is loaded: by the program (no
// main runs), and by defineFunction from running (compiled) code.
TEST_P(SandboxLimitsTest, MaxASTDepthRefusesDeepFunctions) {
  std::string deep = "1";
  for (int i = 0; i < 30; ++i) deep = absl::StrCat("(", deep, " + 1)");
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_ast_depth(25);
  Outcome loaded = RunSl(absl::StrCat("function main() { println(\"ran\"); return ", deep,
                                    "; }\n"),
                       config);
  EXPECT_EQ(loaded.status, 1);
  EXPECT_EQ(loaded.out, "");
  EXPECT_TRUE(absl::StartsWith(loaded.err, "AST depth limit of 25 exceeded for main (depth "))
      << loaded.err;

  Outcome defined = RunSl(
      absl::StrCat("function define(source) { defineFunction(source); }\n"
                   "function main() { i = 0;\n"
                   "  while (i < 40) { define(\"function shallow() { return 1 + 1; }\"); i = i + 1; }\n"
                   "  println(shallow()); define(\"function deep() { return ", deep,
                   "; }\"); println(\"never\"); }\n"),
      config);
  EXPECT_EQ(defined.status, 1);
  EXPECT_EQ(defined.out, "2\n");
  EXPECT_TRUE(absl::StartsWith(defined.err, "AST depth limit of 25 exceeded for deep (depth "))
      << defined.err;
  if (compiled()) {
    EXPECT_EQ(CountLines(defined.log, {"opt done", " define "}), 1) << defined.log;
  }
}

// 0..9 are 2 bytes a line, 10.. are 3: 20 + 26 * 3 = 98 bytes fit in 100,
// the line "36\n" does not and is not written.
TEST_P(SandboxLimitsTest, MaxOutputStreamSizeStopsTheWriteThatWouldExceedIt) {
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_output_stream_size("100B");
  Outcome outcome = RunSl(
      "function emit(i) { println(i); }\n"
      "function main() { i = 0; while (i < 100) { emit(i); i = i + 1; } }\n",
      config);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(outcome.out.size(), 98u);
  EXPECT_TRUE(absl::EndsWith(outcome.out, "34\n35\n")) << outcome.out;
  EXPECT_EQ(outcome.err, "Maximum output stream size of 100B exceeded.\n");
  if (compiled()) {
    EXPECT_EQ(CountLines(outcome.log, {"opt done", " emit "}), 1) << outcome.log;
  }
}

// A list that grows without end: the allocation beyond the limit cancels
// the program, whose compiled loop stops at its next back edge.
TEST_P(SandboxLimitsTest, MaxHeapMemoryStopsAGrowingHeap) {
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_heap_memory("32MB");
  Outcome outcome = RunSl(
      "function grow(head, n) { i = 0; while (i != n) { node = new(); node.next = head;\n"
      "  node.value = i; head = node; i = i + 1; } return head; }\n"
      "function main() { j = 0; r = 0; while (j < 50) { grow(new(), 10); j = j + 1; }\n"
      "  println(\"warm\"); grow(new(), 0 - 1); println(\"never\"); }\n",
      config);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(outcome.out, "warm\n");
  EXPECT_EQ(outcome.err, "Maximum heap memory limit of 32MB exceeded.\n");
  if (compiled()) {
    EXPECT_EQ(CountLines(outcome.log, {"opt done", " grow "}), 1) << outcome.log;
    EXPECT_EQ(CountLines(outcome.log, {"opt deopt", " grow ", "Reason safepoint"}), 1)
        << outcome.log;
  }
}

// Limits that are not hit change nothing.
TEST_P(SandboxLimitsTest, GenerousLimitsLetAProgramFinish) {
  config::EngineConfig config = ConfigFor(GetParam());
  config.set_max_cpu_time("1h");
  config.set_max_heap_memory("1GB");
  config.set_max_stack_frames(1000);
  config.set_max_ast_depth(100);
  config.set_max_output_stream_size("1MB");
  Outcome finite = RunSl(
      "function fib(n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); }\n"
      "function main() { println(fib(20)); }\n",
      config);
  EXPECT_EQ(finite.status, 0) << finite.err;
  EXPECT_EQ(finite.out, "6765\n");
}

INSTANTIATE_TEST_SUITE_P(Modes, SandboxLimitsTest,
                         ::testing::Values(Mode::kInterpreter, Mode::kCompiled),
                         [](const auto& info) {
                           return info.param == Mode::kInterpreter ? "Interpreter" : "Compiled";
                         });

}  // namespace
}  // namespace morel::sl
