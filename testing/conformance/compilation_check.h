#ifndef MOREL_TESTING_CONFORMANCE_COMPILATION_CHECK_H_
#define MOREL_TESTING_CONFORMANCE_COMPILATION_CHECK_H_

// The compiled-mode check shared by the conformance and differential
// runners: a run in a compiled mode must prove that something was compiled,
// so that a silent fall-back to the interpreter fails it.
//
// RunWithCompilationStatistics adds `--engine.CompilationStatisticsFile=<file>`
// (kStatisticsFlag) to the launcher's flags; a Morel engine writes its
// compilation statistics there when it closes (Engine::compilation_statistics(),
// engine/runtime/engine.h), one `name value` line each. CheckCompilation
// judges one run from that file; CompilationTally judges all the runs of
// one mode together. The criteria are in README.md ("Compiled modes").

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "testing/conformance/run_program.h"

namespace morel::conformance {

// The launcher flag, without its value.
inline constexpr char kStatisticsFlag[] = "--engine.CompilationStatisticsFile=";

// What a Morel engine reports (every field is required in the file).
struct CompilationStatistics {
  int successful = 0;            // code installed
  int failed = 0;                // permanent failures of the compiler
  int recompilation_limits = 0;  // permanent: deopt cycle, MaximumCompilations
  int deopts = 0;
  int invalidations = 0;
  int executed_targets = 0;  // guest call targets called at least once
  int due_targets = 0;       // called as often as the first compilation threshold
  bool background_compilation = false;
  int deopt_every_n = 0;
};

absl::StatusOr<CompilationStatistics> ParseCompilationStatistics(absl::string_view text);

// A new empty file for one run's statistics, in $TEST_TMPDIR (or /tmp).
absl::StatusOr<std::string> NewStatisticsFile();

// RunProgram(argv, options) with kStatisticsFlag and a NewStatisticsFile()
// put just before the program (argv's last word). `*statistics` gets the
// file's contents (nullopt: unreadable); the file is removed. An error
// creating the file is returned like RunProgram's own.
absl::StatusOr<RunResult> RunWithCompilationStatistics(std::vector<std::string> argv,
                                                       const RunOptions& options,
                                                       std::optional<std::string>* statistics);

struct CompilationVerdict {
  // Each fails the program (one line each, no trailing newline).
  std::vector<std::string> problems;
  // Worth saying, not failing: a stale allowance.
  std::vector<std::string> notes;
  // Parsed, when the file could be read.
  std::optional<CompilationStatistics> statistics;
};

// Judges one run that ended normally (exited, any status). `text` is the
// statistics file's contents (empty or nullopt: the engine wrote none).
// `allowed_to_fail` is the program's explicit allowance to have compiler
// failures in this mode.
CompilationVerdict CheckCompilation(const std::optional<std::string>& text,
                                    bool allowed_to_fail);

// The runs of one mode together: with background compilation a program may
// end before its compilations do, so such runs are not judged one by one;
// then at least one run of the mode must have compiled something if any had
// call targets due for compilation.
class CompilationTally {
 public:
  void Add(const CompilationStatistics& statistics);
  // Empty when the mode is fine; else the problem (no trailing newline).
  std::string Problem() const;

  // Runs with due targets; runs with a successful compilation.
  int due() const { return due_; }
  int compiled() const { return compiled_; }

 private:
  int due_ = 0;
  int compiled_ = 0;
};

// "successful 3, failed 0, ..." for reports.
std::string DescribeStatistics(const CompilationStatistics& statistics);

}  // namespace morel::conformance

#endif  // MOREL_TESTING_CONFORMANCE_COMPILATION_CHECK_H_
