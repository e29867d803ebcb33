// Fuzz target (testing/fuzz): generated SL programs run differentially. The
// bytes drive the random program generator (random_program.h, the one
// differential_test uses); the program runs in the interpreter (the
// baseline, --engine.Compilation=false) and in every execution mode of
// MOREL_MODES (testing/differential/differential.bzl: compiled from the
// first call, default thresholds, tiny thresholds with background
// compilation, deopt stress, tiny and unbounded inlining budgets, forced
// splitting) plus the IR-interpreter tier; stdout, stderr and the exit
// status must equal the baseline's byte for byte. Runs are in-process
// (sl_launcher.h RunProgram), each with a fresh engine.
//
// Every run has run_limits.h's heap and CPU time limits: a program over the
// interpreter's is skipped; one over a mode's where the interpreter was not
// is a mismatch.
//
// When the process exits it prints how many programs and runs it compared
// (the campaign's figure; libFuzzer's own count is of inputs).
//
// Throughput: runs are in-process and one after another, so a campaign uses
// one core. Under ASan (libFuzzer) a program in nine modes takes seconds;
// the -c opt replay engine (//tools/fuzz --engine=replay) compares about 4
// programs, 35 runs, a second on this project's 2-core machines (140,650
// runs in two campaigns of 45 and 25 minutes). libFuzzer's -jobs/-workers
// run several processes.

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/config/config_loader.h"
#include "languages/sl/sl_launcher.h"
#include "languages/sl/testing/random_program.h"
#include "languages/sl/testing/run_limits.h"
#include "testing/fuzz/fuzz_target.h"

namespace morel::sl::testing {
namespace {

struct Mode {
  const char* name;
  std::vector<std::string> flags;
};

const std::vector<Mode>& Modes() {
  static const auto* modes = new std::vector<Mode>{
#include "languages/sl/testing/morel_modes.inc"
      {"ir_interpreter",
       {"--engine.Backend=ir_interpreter", "--engine.CompileImmediately",
        "--engine.BackgroundCompilation=false"}},
  };
  return *modes;
}

struct Result {
  std::string out;
  std::string err;
  int status;
};

std::string ReadAll(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), file)) > 0;) text.append(buffer, n);
  return text;
}

Result Run(const std::string& program, const std::vector<std::string>& flags) {
  auto command_line = config::ParseCommandLine(flags, std::nullopt);
  if (!command_line.ok()) {
    fuzz::FuzzFailure("the mode's flags are valid",
                      absl::StrCat(absl::StrJoin(flags, " "), ": ",
                                   command_line.status().ToString()));
  }
  ProgramRun run;
  run.source_text = program;
  run.source_name = "Random.sl";
  run.config = command_line->config;
  std::FILE* in = std::tmpfile();
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  run.in = in;
  run.out = out;
  run.err = err;
  const int status = RunProgram(run);
  Result result{ReadAll(out), ReadAll(err), status};
  std::fclose(in);
  std::fclose(out);
  std::fclose(err);
  return result;
}

std::atomic<int64_t> programs{0};
std::atomic<int64_t> runs{0};
std::atomic<int64_t> skipped{0};
std::atomic<int64_t> skipped_limits{0};

const std::vector<std::string>& BaselineFlags() {
  static const auto* flags = [] {
    auto* flags = new std::vector<std::string>{"--engine.Compilation=false"};
    flags->insert(flags->end(), InterpreterLimitFlags().begin(), InterpreterLimitFlags().end());
    return flags;
  }();
  return *flags;
}

void PrintCounts() {
  std::fprintf(stderr,
               "sl_differential_fuzzer: %lld programs compared in %zu modes (%lld runs, "
               "baseline included); %lld programs skipped (output over 64 KiB), %lld (over the "
               "interpreter's heap or CPU time limit)\n",
               static_cast<long long>(programs.load()), Modes().size(),
               static_cast<long long>(runs.load()), static_cast<long long>(skipped.load()),
               static_cast<long long>(skipped_limits.load()));
}

}  // namespace
}  // namespace morel::sl::testing

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(morel::sl::testing::PrintCounts);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morel::sl::testing;
  const std::string program = RandomSlProgramFromBytes(absl::MakeConstSpan(data, size));
  const Result expected = Run(program, BaselineFlags());
  ++runs;
  if (ExceededALimit(expected.status, expected.err)) {
    ++skipped_limits;
    return 0;
  }
  // As in differential_test: programs printing a lot cost time without
  // adding coverage.
  if (expected.out.size() + expected.err.size() > 64 * 1024) {
    ++skipped;
    return 0;
  }
  for (const Mode& mode : Modes()) {
    std::vector<std::string> flags = mode.flags;
    flags.insert(flags.end(), ModeLimitFlags().begin(), ModeLimitFlags().end());
    const Result actual = Run(program, flags);
    ++runs;
    if (actual.out != expected.out || actual.err != expected.err ||
        actual.status != expected.status) {
      morel::fuzz::FuzzFailure(
          absl::StrCat("mode ", mode.name, " prints what the interpreter prints"),
          absl::StrCat("flags: ", absl::StrJoin(mode.flags, " "), "\nexit status: interpreter ",
                       expected.status, ", ", mode.name, " ", actual.status,
                       "\n--- interpreter stdout\n", expected.out, "--- ", mode.name,
                       " stdout\n", actual.out, "--- interpreter stderr\n", expected.err,
                       "--- ", mode.name, " stderr\n", actual.err, "--- program\n", program));
    }
  }
  ++programs;
  return 0;
}
