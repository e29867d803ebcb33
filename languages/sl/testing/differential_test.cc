// Differential test: random SL programs (random_program.h) must print the
// same, byte for byte, and exit the same, in every execution mode: the
// interpreter, native code compiled before the first call, native code under
// deoptimization stress, native code after a few calls, the IR tier, and
// native OSR code for every loop under deoptimization stress.

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/config/config_loader.h"
#include "gtest/gtest.h"
#include "languages/sl/sl_launcher.h"
#include "languages/sl/testing/random_program.h"
#include "languages/sl/testing/run_limits.h"

namespace morel::sl::testing {
namespace {

struct Result {
  std::string output;  // stdout then stderr
  int status;
};

std::string ReadAll(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text.push_back(static_cast<char>(c));
  return text;
}

Result RunInMode(const std::string& program, const std::vector<std::string>& flags) {
  ProgramRun run;
  run.source_text = program;
  run.source_name = "Random.sl";
  absl::StatusOr<config::CommandLine> command_line =
      config::ParseCommandLine(flags, std::nullopt);
  EXPECT_TRUE(command_line.ok()) << command_line.status();
  run.config = command_line->config;
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  run.out = out;
  run.err = err;
  int status = RunProgram(run);
  Result result{ReadAll(out) + ReadAll(err), status};
  std::fclose(out);
  std::fclose(err);
  return result;
}

// A program that prints more than this is not compared (nested calls in
// loops): it costs time without adding coverage.
constexpr size_t kMaxOutput = 64 * 1024;

// The interpreter, under run_limits.h's limits (seed 571, which doubles a
// string in nested loops, ends there instead of running for many minutes).
const std::vector<std::string>& BaselineFlags() {
  static const auto* flags = [] {
    auto* flags = new std::vector<std::string>{"--engine.Backend=none"};
    flags->insert(flags->end(), InterpreterLimitFlags().begin(), InterpreterLimitFlags().end());
    return flags;
  }();
  return *flags;
}

// Whether the interpreter's run of a program is one to compare against.
bool Comparable(const Result& expected) {
  return expected.output.size() <= kMaxOutput && !ExceededALimit(expected.status, expected.output);
}

// MOREL_DIFFERENTIAL_SEEDS=N runs more programs (by hand: CI runs 20).
uint64_t Seeds() {
  const char* env = std::getenv("MOREL_DIFFERENTIAL_SEEDS");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20;
}

// Each seed is a test of its own, so that Bazel's shards split them.
class DifferentialTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(DifferentialTest, EveryModePrintsWhatTheInterpreterPrints) {
  const std::vector<std::vector<std::string>> modes = {
      {"--engine.Backend=x86_64", "--engine.CompileImmediately",
       "--engine.BackgroundCompilation=false"},
      // Deopt stress; a few recompilations per function keep it fast (each
      // deopt otherwise recompiles, up to MaximumCompilations=100).
      {"--engine.Backend=x86_64", "--engine.CompileImmediately", "--engine.DeoptEveryN=3",
       "--engine.MaximumCompilations=4", "--engine.BackgroundCompilation=false"},
      // Tiny thresholds for both tiers, compiled in the background while
      // the interpreter and first-tier code run on.
      {"--engine.Backend=x86_64", "--engine.FirstTierCompilationThreshold=3",
       "--engine.LastTierCompilationThreshold=20", "--engine.BackgroundCompilation=true"},
      {"--engine.Backend=ir_interpreter", "--engine.CompileImmediately",
       "--engine.BackgroundCompilation=false"},
      // Every loop compiled by OSR at once (its callees inlined where the
      // policy says), under deopt stress.
      {"--engine.Backend=x86_64", "--engine.AlwaysOSR", "--engine.DeoptEveryN=3",
       "--engine.MaximumCompilations=4", "--engine.BackgroundCompilation=false"},
  };
  const uint64_t seed = GetParam();
  std::string program = RandomSlProgram(seed);
  Result expected = RunInMode(program, BaselineFlags());
  // MOREL_DIFFERENTIAL_PRINT=1 shows each program and what it printed.
  if (std::getenv("MOREL_DIFFERENTIAL_PRINT") != nullptr) {
    std::cout << "=== seed " << seed << "\n"
              << program << "--- status " << expected.status << "\n"
              << expected.output << "\n";
  }
  if (expected.output.size() > kMaxOutput) GTEST_SKIP() << "prints over 64 KiB";
  if (ExceededALimit(expected.status, expected.output))
    GTEST_SKIP() << "over the interpreter's heap or CPU time limit";
  for (std::vector<std::string> mode : modes) {
    mode.insert(mode.end(), ModeLimitFlags().begin(), ModeLimitFlags().end());
    Result actual = RunInMode(program, mode);
    ASSERT_EQ(actual.output, expected.output)
        << "seed " << seed << " with " << absl::StrJoin(mode, " ") << "\n"
        << program;
    ASSERT_EQ(actual.status, expected.status) << "seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, DifferentialTest, ::testing::Range<uint64_t>(1, Seeds() + 1));

// Most seeds are compared: the bound catches a generator that stops
// producing usable programs.
TEST(DifferentialSeedsTest, MostProgramsAreCompared) {
  int compared = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    if (Comparable(RunInMode(RandomSlProgram(seed), BaselineFlags()))) ++compared;
  }
  EXPECT_GE(compared, 15);
}

}  // namespace
}  // namespace morel::sl::testing
