// conformance_runner: runs every golden program of a directory through a
// language launcher and compares what it prints with the expected files.
//
//   conformance_runner --launcher=<path> --tests=<dir> [--filter=substr]
//       [--launcher_arg=X ...] [--extension=sl] [--timeout_seconds=60] [--bless]
//       [--compiled_mode=NAME [--allow_compilation_failure=PROGRAM ...]]
//
// For each <name>.<extension> in <dir> (sorted by name) it runs
// `<launcher> [launcher args...] <dir>/<name>.<extension>` with stdin from
// <name>.input (or /dev/null), captures stdout and stderr separately and
// compares "stdout followed by stderr" byte for byte with <name>.output, and
// the exit status with the number in <name>.exit (0 when there is no such
// file). It prints `PASS name` or `FAIL name` plus a unified diff per
// program, then `N passed, N failed`; the exit status is 0 iff every program
// passed (2 for a usage error). --bless rewrites the .output/.exit files from
// the actual results instead of comparing. --compiled_mode=NAME says the
// launcher flags select a compiled mode: each run must also prove, from the
// engine's compilation statistics, that it compiled what it should
// (compilation_check.h; README.md, "Compiled modes").

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "testing/conformance/compilation_check.h"
#include "testing/conformance/run_program.h"
#include "testing/conformance/unified_diff.h"

namespace morel::conformance {
namespace {

namespace fs = std::filesystem;

constexpr int kUsageExitCode = 2;

struct Options {
  std::string launcher;
  std::string tests_dir;
  std::string filter;
  std::string extension = "sl";
  std::vector<std::string> launcher_args;
  int timeout_seconds = 60;
  bool bless = false;
  // Non-empty: the runs are in this compiled mode and are checked.
  std::string compiled_mode;
  // Programs allowed to have permanent compiler failures in that mode.
  std::set<std::string> allowed_compilation_failures;
};

std::string ToStd(absl::string_view s) { return std::string(s.data(), s.size()); }

constexpr char kUsage[] =
    "usage: conformance_runner --launcher=<path> --tests=<dir> [--filter=substr]\n"
    "           [--launcher_arg=X ...] [--extension=sl] [--timeout_seconds=60] "
    "[--bless]\n"
    "           [--compiled_mode=NAME [--allow_compilation_failure=PROGRAM ...]]\n";

absl::StatusOr<Options> ParseFlags(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    absl::string_view value;
    auto flag = [&](absl::string_view name) {
      std::string prefix = absl::StrCat("--", name, "=");
      if (!absl::StartsWith(arg, prefix)) return false;
      value = arg.substr(prefix.size());
      return true;
    };
    if (flag("launcher")) {
      options.launcher = ToStd(value);
    } else if (flag("tests")) {
      options.tests_dir = ToStd(value);
    } else if (flag("filter")) {
      options.filter = ToStd(value);
    } else if (flag("launcher_arg")) {
      options.launcher_args.push_back(ToStd(value));
    } else if (flag("extension")) {
      options.extension = ToStd(absl::StripPrefix(value, "."));
    } else if (flag("timeout_seconds")) {
      if (!absl::SimpleAtoi(value, &options.timeout_seconds) ||
          options.timeout_seconds <= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--timeout_seconds: expected a positive integer, got '", ToStd(value), "'"));
      }
    } else if (flag("compiled_mode")) {
      if (value.empty()) return absl::InvalidArgumentError("--compiled_mode: empty name");
      options.compiled_mode = ToStd(value);
    } else if (flag("allow_compilation_failure")) {
      if (value.empty()) {
        return absl::InvalidArgumentError("--allow_compilation_failure: empty program name");
      }
      options.allowed_compilation_failures.insert(ToStd(value));
    } else if (arg == "--bless") {
      options.bless = true;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown argument '", ToStd(arg), "'"));
    }
  }
  if (options.launcher.empty()) return absl::InvalidArgumentError("--launcher is required");
  if (options.tests_dir.empty()) return absl::InvalidArgumentError("--tests is required");
  if (options.extension.empty()) return absl::InvalidArgumentError("--extension is empty");
  if (!options.allowed_compilation_failures.empty() && options.compiled_mode.empty()) {
    return absl::InvalidArgumentError("--allow_compilation_failure needs --compiled_mode");
  }
  return options;
}

absl::Status WriteFile(const fs::path& path, const std::string& contents) {
  // Replace rather than write through: in a runfiles tree or a checkout the
  // old file may be a symlink.
  std::error_code ignored;
  fs::remove(path, ignored);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

std::string Indent(const std::string& text) {
  std::string indented;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    absl::StrAppend(&indented, "    ", ToStd(line), "\n");
  }
  return indented;
}

int Main(int argc, char** argv) {
  absl::StatusOr<Options> parsed = ParseFlags(argc, argv);
  if (!parsed.ok()) {
    absl::FPrintF(stderr, "conformance_runner: %s\n%s", ToStd(parsed.status().message()), kUsage);
    return kUsageExitCode;
  }
  Options options = *std::move(parsed);
  options.launcher = ResolveUserPath(options.launcher);
  options.tests_dir = ResolveUserPath(options.tests_dir);

  std::error_code error;
  if (!fs::is_directory(options.tests_dir, error)) {
    absl::FPrintF(stderr, "conformance_runner: --tests=%s is not a directory\n",
                  options.tests_dir);
    return kUsageExitCode;
  }
  const std::string suffix = "." + options.extension;
  std::vector<std::string> names;
  std::set<std::string> all_names;
  for (const fs::directory_entry& entry : fs::directory_iterator(options.tests_dir, error)) {
    std::string file = entry.path().filename().string();
    if (file.size() <= suffix.size() || !absl::EndsWith(file, suffix)) continue;
    if (!entry.is_regular_file(error)) continue;  // follows (runfiles) symlinks
    std::string name = file.substr(0, file.size() - suffix.size());
    all_names.insert(name);
    if (!absl::StrContains(name, options.filter)) continue;
    names.push_back(name);
  }
  if (error) {
    absl::FPrintF(stderr, "conformance_runner: cannot list %s: %s\n", options.tests_dir,
                  error.message());
    return kUsageExitCode;
  }
  // A stale or misspelt allowance must not linger unnoticed.
  for (const std::string& allowed : options.allowed_compilation_failures) {
    if (all_names.count(allowed) == 0) {
      absl::FPrintF(stderr, "conformance_runner: --allow_compilation_failure=%s names no program\n",
                    allowed);
      return kUsageExitCode;
    }
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) {
    absl::FPrintF(stderr, "conformance_runner: no *%s programs in %s%s\n", suffix,
                  options.tests_dir,
                  options.filter.empty() ? "" : absl::StrCat(" matching '", options.filter, "'"));
    return kUsageExitCode;
  }

  int passed = 0, failed = 0;
  const bool compiled = !options.compiled_mode.empty() && !options.bless;
  CompilationTally tally;
  const fs::path dir(options.tests_dir);
  for (const std::string& name : names) {
    const fs::path program = dir / (name + suffix);
    const fs::path output_file = dir / (name + ".output");
    const fs::path exit_file = dir / (name + ".exit");
    const fs::path input_file = dir / (name + ".input");

    std::vector<std::string> command = {options.launcher};
    command.insert(command.end(), options.launcher_args.begin(), options.launcher_args.end());
    command.push_back(program.string());
    std::string input = fs::exists(input_file) ? input_file.string() : "/dev/null";

    RunOptions run_options;
    run_options.stdin_path = input;
    run_options.timeout_seconds = options.timeout_seconds;
    std::optional<std::string> statistics;
    absl::StatusOr<RunResult> run =
        compiled ? RunWithCompilationStatistics(std::move(command), run_options, &statistics)
                 : RunProgram(command, run_options);
    if (!run.ok()) {
      absl::PrintF("FAIL %s\n    %s\n", name, ToStd(run.status().message()));
      ++failed;
      continue;
    }
    const RunResult& result = *run;
    const std::string actual = result.CombinedOutput();

    if (options.bless) {
      if (!result.exited) {
        absl::PrintF("FAIL %s\n    not blessed: %s\n", name,
                     DescribeExit(result, options.timeout_seconds));
        ++failed;
        continue;
      }
      absl::Status written = WriteFile(output_file, actual);
      if (written.ok()) {
        if (result.exit_status != 0) {
          written = WriteFile(exit_file, absl::StrCat(result.exit_status, "\n"));
        } else {
          fs::remove(exit_file, error);
        }
      }
      if (!written.ok()) {
        absl::PrintF("FAIL %s\n    %s\n", name, ToStd(written.message()));
        ++failed;
        continue;
      }
      absl::PrintF("BLESS %s\n", name);
      ++passed;
      continue;
    }

    std::vector<std::string> problems;
    std::optional<std::string> expected = ReadFile(output_file);
    if (!expected.has_value()) {
      problems.push_back(absl::StrCat("missing expected output file ", output_file.string()));
      expected = "";
    }
    int expected_status = 0;
    if (std::optional<std::string> exit_text = ReadFile(exit_file)) {
      if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(*exit_text), &expected_status)) {
        problems.push_back(absl::StrCat("bad exit file ", exit_file.string(),
                                        " (expected an integer)"));
      }
    }
    if (result.truncated) {
      problems.push_back(absl::StrCat("output truncated at ", run_options.max_capture_bytes,
                                      " bytes per stream"));
    }
    if (!result.exited || result.exit_status != expected_status) {
      problems.push_back(absl::StrCat("exit status: expected ", expected_status, ", got ",
                                      DescribeExit(result, options.timeout_seconds)));
    }
    std::vector<std::string> notes;
    if (compiled && result.exited) {
      // (A run that crashed or timed out has failed already.)
      CompilationVerdict verdict =
          CheckCompilation(statistics, options.allowed_compilation_failures.count(name) > 0);
      for (const std::string& problem : verdict.problems) {
        problems.push_back(absl::StrCat("[", options.compiled_mode, "] ", problem));
      }
      for (const std::string& note : verdict.notes) {
        notes.push_back(absl::StrCat("[", options.compiled_mode, "] ", note));
      }
      if (verdict.statistics.has_value()) {
        tally.Add(*verdict.statistics);
        if (!verdict.problems.empty()) {
          problems.push_back(absl::StrCat("compilation statistics: ",
                                          DescribeStatistics(*verdict.statistics)));
        }
      }
    }
    const bool output_matches = *expected == actual;
    if (problems.empty() && output_matches) {
      absl::PrintF("PASS %s\n", name);
      for (const std::string& note : notes) absl::PrintF("    note: %s\n", note);
      ++passed;
      continue;
    }
    ++failed;
    absl::PrintF("FAIL %s\n", name);
    for (const std::string& problem : problems) absl::PrintF("    %s\n", problem);
    for (const std::string& note : notes) absl::PrintF("    note: %s\n", note);
    if (!output_matches) {
      absl::PrintF("    output differs (expected vs actual stdout+stderr):\n%s",
                   Indent(UnifiedDiff(*expected, actual, name + ".output",
                                      name + " (actual)")));
    }
  }
  bool mode_failed = false;
  if (compiled) {
    absl::PrintF("compiled mode %s: %d of %d programs compiled code, %d had call targets due\n",
                 options.compiled_mode, tally.compiled(), passed + failed, tally.due());
    if (std::string problem = tally.Problem(); !problem.empty()) {
      absl::PrintF("FAIL [%s] %s\n", options.compiled_mode, problem);
      mode_failed = true;
    }
  }
  absl::PrintF("%d passed, %d failed\n", passed, failed);
  std::fflush(stdout);
  return failed == 0 && !mode_failed ? 0 : 1;
}

}  // namespace
}  // namespace morel::conformance

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  return morel::conformance::Main(argc, argv);
}
