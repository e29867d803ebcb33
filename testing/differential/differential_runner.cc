// differential_runner: runs every program under a baseline configuration of a
// language launcher (by default the interpreter: --engine.Compilation=false)
// and under each of a list of modes (compile immediately, deopt stress, ...),
// and checks that stdout, stderr and the exit status of every mode equal the
// baseline's byte for byte.
//
//   differential_runner --launcher=<path> --mode=NAME[:FLAG] ... [--] FILES...
//       [--baseline=NAME[:FLAG] ...] [--launcher_arg=X ...] [--extension=sl]
//       [--filter=substr] [--jobs=2] [--timeout_seconds=120]
//       [--exclude=PROGRAM:MODE ...] [--shard=I/N] [--launcher_label=//pkg:target]
//       [--max_diff_lines=60] [--mask=REGEX ...] [--allow_compilation_failure=PROGRAM:MODE ...]
//
// A mode is named once per flag: `--mode=deopt:--engine.CompileImmediately
// --mode=deopt:--engine.DeoptEveryN=3` is the mode `deopt` with two launcher
// flags (every argument stays one word, as Bazel's `args` need). FILES are
// the programs (`*.<extension>`) and their companions: <stem>.input is stdin,
// and when <stem>.output exists the baseline must also print exactly it
// (stdout followed by stderr) and exit with <stem>.exit (0 without one).
// --mask=REGEX hides output that legitimately varies between runs (a
// benchmark's elapsed time): in every line of every output, each match of
// REGEX (ECMAScript) — or of its first capture group, if it has one — becomes
// `<masked>` before any comparison.
// Every mode is a compiled mode: each of its runs must also prove, from the
// engine's compilation statistics, that it compiled what it should
// (testing/conformance/compilation_check.h), unless a PROGRAM:MODE pair is
// allowed to fail compilation.
// Exit status: 0 iff every program agrees in every mode and every mode
// compiled, 1 otherwise, 2 for a usage error. See README.md for the report
// format.

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "testing/conformance/compilation_check.h"
#include "testing/conformance/run_program.h"
#include "testing/conformance/unified_diff.h"

namespace morel::differential {
namespace {

namespace fs = std::filesystem;
using conformance::CheckCompilation;
using conformance::CompilationTally;
using conformance::CompilationVerdict;
using conformance::DescribeExit;
using conformance::DescribeStatistics;
using conformance::ReadFile;
using conformance::ResolveUserPath;
using conformance::RunOptions;
using conformance::RunProgram;
using conformance::RunResult;
using conformance::RunWithCompilationStatistics;
using conformance::UnifiedDiff;

constexpr int kUsageExitCode = 2;

constexpr char kUsage[] =
    "usage: differential_runner --launcher=<path> --mode=NAME[:FLAG] ... [--] FILES...\n"
    "           [--baseline=NAME[:FLAG] ...] [--launcher_arg=X ...] [--extension=sl]\n"
    "           [--filter=substr] [--jobs=2] [--timeout_seconds=120]\n"
    "           [--exclude=PROGRAM:MODE ...] [--shard=I/N] [--launcher_label=LABEL]\n"
    "           [--max_diff_lines=60] [--mask=REGEX ...]\n"
    "           [--allow_compilation_failure=PROGRAM:MODE ...]\n";

std::string ToStd(absl::string_view s) { return std::string(s.data(), s.size()); }

// (program, mode) pairs: --exclude, --allow_compilation_failure.
using ProgramModePairs = std::set<std::pair<std::string, std::string>>;

// A named set of launcher flags.
struct Configuration {
  std::string name;
  std::vector<std::string> flags;
};

struct Options {
  std::string launcher;
  std::string launcher_label;  // for the "reproduce:" line; may be empty
  std::vector<std::string> launcher_args;
  Configuration baseline{"interpreter", {"--engine.Compilation=false"}};
  std::vector<Configuration> modes;
  std::vector<std::string> files;
  std::string extension = "sl";
  std::string filter;
  int jobs = 2;
  int timeout_seconds = 120;
  int shard_index = 0;
  int shard_count = 1;
  int max_diff_lines = 60;
  ProgramModePairs exclusions;
  // The pairs allowed to have permanent compiler failures.
  ProgramModePairs allowed_compilation_failures;
  std::vector<std::string> mask_patterns;
  std::vector<std::regex> masks;
};

bool IsValidName(absl::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') {
      return false;
    }
  }
  return true;
}

// Adds `NAME[:FLAG]` to `configurations` (a new one, or a flag of an
// existing one with that name).
absl::Status AddConfigurationFlag(absl::string_view spec, absl::string_view option,
                                  std::vector<Configuration>& configurations) {
  std::pair<absl::string_view, absl::string_view> parts =
      absl::StrSplit(spec, absl::MaxSplits(':', 1));
  const std::string name = ToStd(parts.first);
  if (!IsValidName(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", ToStd(option), "=", ToStd(spec),
        ": the name must be letters, digits, '_', '-' or '.' (then ':' and one flag)"));
  }
  auto it = std::find_if(configurations.begin(), configurations.end(),
                         [&](const Configuration& c) { return c.name == name; });
  if (it == configurations.end()) {
    configurations.push_back({name, {}});
    it = configurations.end() - 1;
  }
  if (absl::StrContains(spec, ':')) {
    if (parts.second.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", ToStd(option), "=", ToStd(spec), ": empty flag after ':'"));
    }
    it->flags.push_back(ToStd(parts.second));
  }
  return absl::OkStatus();
}

// Adds `PROGRAM:MODE` (the value of --`option`) to `pairs`.
absl::Status AddProgramModePair(absl::string_view value, absl::string_view option,
                                ProgramModePairs& pairs) {
  std::pair<absl::string_view, absl::string_view> parts =
      absl::StrSplit(value, absl::MaxSplits(':', 1));
  if (parts.first.empty() || parts.second.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", ToStd(option), ": expected PROGRAM:MODE, got '", ToStd(value), "'"));
  }
  pairs.insert({ToStd(parts.first), ToStd(parts.second)});
  return absl::OkStatus();
}

absl::StatusOr<Options> ParseFlags(int argc, char** argv) {
  Options options;
  std::vector<Configuration> baselines;
  bool files_only = false;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (files_only || !absl::StartsWith(arg, "--")) {
      options.files.push_back(ToStd(arg));
      continue;
    }
    if (arg == "--") {
      files_only = true;
      continue;
    }
    absl::string_view value;
    auto flag = [&](absl::string_view name) {
      std::string prefix = absl::StrCat("--", name, "=");
      if (!absl::StartsWith(arg, prefix)) return false;
      value = arg.substr(prefix.size());
      return true;
    };
    auto positive = [&](absl::string_view name, int& out) -> absl::Status {
      if (!absl::SimpleAtoi(value, &out) || out <= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--", ToStd(name), ": expected a positive integer, got '", ToStd(value), "'"));
      }
      return absl::OkStatus();
    };
    absl::Status status;
    if (flag("launcher")) {
      options.launcher = ToStd(value);
    } else if (flag("launcher_label")) {
      options.launcher_label = ToStd(value);
    } else if (flag("launcher_arg")) {
      options.launcher_args.push_back(ToStd(value));
    } else if (flag("mode")) {
      status = AddConfigurationFlag(value, "mode", options.modes);
    } else if (flag("baseline")) {
      status = AddConfigurationFlag(value, "baseline", baselines);
      if (status.ok() && baselines.size() > 1) {
        status = absl::InvalidArgumentError("--baseline: only one baseline name");
      }
    } else if (flag("extension")) {
      options.extension = ToStd(absl::StripPrefix(value, "."));
    } else if (flag("filter")) {
      options.filter = ToStd(value);
    } else if (flag("jobs")) {
      status = positive("jobs", options.jobs);
    } else if (flag("timeout_seconds")) {
      status = positive("timeout_seconds", options.timeout_seconds);
    } else if (flag("max_diff_lines")) {
      status = positive("max_diff_lines", options.max_diff_lines);
    } else if (flag("shard")) {
      std::pair<absl::string_view, absl::string_view> parts =
          absl::StrSplit(value, absl::MaxSplits('/', 1));
      if (!absl::SimpleAtoi(parts.first, &options.shard_index) ||
          !absl::SimpleAtoi(parts.second, &options.shard_count) || options.shard_count <= 0 ||
          options.shard_index < 0 || options.shard_index >= options.shard_count) {
        status = absl::InvalidArgumentError(
            absl::StrCat("--shard: expected I/N with 0 <= I < N, got '", ToStd(value), "'"));
      }
    } else if (flag("mask")) {
      try {
        options.masks.emplace_back(ToStd(value), std::regex::ECMAScript);
        options.mask_patterns.push_back(ToStd(value));
      } catch (const std::regex_error& error) {
        status = absl::InvalidArgumentError(absl::StrCat(
            "--mask=", ToStd(value), ": not a regular expression (", error.what(), ")"));
      }
    } else if (flag("exclude")) {
      status = AddProgramModePair(value, "exclude", options.exclusions);
    } else if (flag("allow_compilation_failure")) {
      status = AddProgramModePair(value, "allow_compilation_failure",
                                  options.allowed_compilation_failures);
    } else {
      status = absl::InvalidArgumentError(absl::StrCat("unknown argument '", ToStd(arg), "'"));
    }
    if (!status.ok()) return status;
  }
  if (!baselines.empty()) options.baseline = baselines.front();
  if (options.launcher.empty()) return absl::InvalidArgumentError("--launcher is required");
  if (options.modes.empty()) return absl::InvalidArgumentError("at least one --mode is required");
  if (options.extension.empty()) return absl::InvalidArgumentError("--extension is empty");
  for (const Configuration& mode : options.modes) {
    if (mode.name == options.baseline.name) {
      return absl::InvalidArgumentError(
          absl::StrCat("mode '", mode.name, "' has the baseline's name"));
    }
  }
  return options;
}

// A word as a POSIX shell reads it back.
std::string ShellQuote(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "_-+=/.,:@%") == std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string Indent(const std::string& text, absl::string_view prefix = "    ") {
  std::string indented;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    absl::StrAppend(&indented, ToStd(prefix), ToStd(line), "\n");
  }
  return indented;
}

// The first `max_lines` lines of a diff, and how many were left out.
std::string Truncate(const std::string& diff, int max_lines) {
  std::vector<absl::string_view> lines = absl::StrSplit(diff, '\n', absl::SkipEmpty());
  if (static_cast<int>(lines.size()) <= max_lines) return diff;
  std::string head;
  for (int i = 0; i < max_lines; ++i) absl::StrAppend(&head, ToStd(lines[i]), "\n");
  absl::StrAppend(&head, "... (", lines.size() - max_lines, " more diff lines)\n");
  return head;
}

// `text` with every match of the masks (or of their first group) replaced by
// "<masked>", line by line.
std::string Mask(const std::string& text, const std::vector<std::regex>& masks) {
  if (masks.empty()) return text;
  std::string masked;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    const bool newline = end != std::string::npos;
    std::string line = text.substr(start, newline ? end - start : std::string::npos);
    for (const std::regex& mask : masks) {
      std::string out;
      size_t copied = 0;
      for (auto it = std::sregex_iterator(line.begin(), line.end(), mask);
           it != std::sregex_iterator(); ++it) {
        const std::smatch& match = *it;
        const int group = match.size() > 1 && match[1].matched ? 1 : 0;
        if (match.length(group) == 0) continue;
        const size_t position = match.position(group);
        out.append(line, copied, position - copied);
        out += "<masked>";
        copied = position + match.length(group);
      }
      out.append(line, copied, std::string::npos);
      line = std::move(out);
    }
    masked += line;
    if (!newline) break;
    masked += '\n';
    start = end + 1;
  }
  return masked;
}

struct Program {
  std::string name;  // the file name without the extension
  std::string path;
  std::string input;  // stdin file, or /dev/null
  std::optional<fs::path> expected_output;
  std::optional<fs::path> expected_exit;
};

// One launcher run: a program under one configuration (index 0 is the
// baseline, i > 0 is modes[i - 1]).
struct Task {
  int program;
  int configuration;
};

class Runner {
 public:
  Runner(Options options, std::vector<Program> programs)
      : options_(std::move(options)), programs_(std::move(programs)) {
    configurations_.push_back(options_.baseline);
    configurations_.insert(configurations_.end(), options_.modes.begin(), options_.modes.end());
    results_.resize(programs_.size());
    statistics_.resize(programs_.size());
    remaining_.assign(programs_.size(), static_cast<int>(configurations_.size()));
    for (auto& results : results_) results.resize(configurations_.size());
    for (auto& statistics : statistics_) statistics.resize(configurations_.size());
    tallies_.resize(configurations_.size());
  }

  int Run() {
    // Tasks in program order so programs complete (and are reported) in
    // order; the baseline first within each.
    for (int p = 0; p < static_cast<int>(programs_.size()); ++p) {
      for (int c = 0; c < static_cast<int>(configurations_.size()); ++c) tasks_.push_back({p, c});
    }
    const int workers = std::max(1, std::min<int>(options_.jobs, tasks_.size()));
    std::vector<std::thread> threads;
    for (int i = 0; i < workers; ++i) threads.emplace_back([this] { Work(); });
    for (int p = 0; p < static_cast<int>(programs_.size()); ++p) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return remaining_[p] == 0; });
      }
      Report(p);
    }
    for (std::thread& thread : threads) thread.join();
    const bool modes_compiled = PrintSummary();
    return failed_ == 0 && modes_compiled ? 0 : 1;
  }

 private:
  void Work() {
    while (true) {
      size_t next = next_task_.fetch_add(1);
      if (next >= tasks_.size()) return;
      const Task task = tasks_[next];
      std::optional<std::string> statistics;
      absl::StatusOr<RunResult> result = RunOne(task, &statistics);
      if (result.ok()) {
        result->stdout_text = Mask(result->stdout_text, options_.masks);
        result->stderr_text = Mask(result->stderr_text, options_.masks);
      }
      std::lock_guard<std::mutex> lock(mutex_);
      results_[task.program][task.configuration] = std::move(result);
      statistics_[task.program][task.configuration] = std::move(statistics);
      if (--remaining_[task.program] == 0) done_.notify_all();
    }
  }

  std::vector<std::string> Command(const Program& program, const Configuration& configuration) {
    std::vector<std::string> command = {options_.launcher};
    command.insert(command.end(), options_.launcher_args.begin(), options_.launcher_args.end());
    command.insert(command.end(), configuration.flags.begin(), configuration.flags.end());
    command.push_back(program.path);
    return command;
  }

  // Runs one task; a mode's run (not the baseline's) also reads the
  // engine's compilation statistics into `*statistics`.
  absl::StatusOr<RunResult> RunOne(const Task& task, std::optional<std::string>* statistics) {
    const Program& program = programs_[task.program];
    RunOptions run_options;
    run_options.stdin_path = program.input;
    run_options.timeout_seconds = options_.timeout_seconds;
    std::vector<std::string> command = Command(program, configurations_[task.configuration]);
    if (task.configuration == 0) return RunProgram(command, run_options);
    return RunWithCompilationStatistics(std::move(command), run_options, statistics);
  }

  // The command line to paste into a shell (from the directory the runner
  // ran in), with its stdin redirection.
  std::string ShellCommand(const Program& program, const Configuration& configuration) {
    std::vector<std::string> words;
    for (const std::string& word : Command(program, configuration)) {
      words.push_back(ShellQuote(word));
    }
    std::string line = absl::StrJoin(words, " ");
    if (program.input != "/dev/null") absl::StrAppend(&line, " < ", ShellQuote(program.input));
    return line;
  }

  std::string ReproduceLine(const Program& program, const Configuration& configuration) {
    std::vector<std::string> words = {"bazel", "run", options_.launcher_label, "--"};
    for (const std::string& arg : options_.launcher_args) words.push_back(ShellQuote(arg));
    for (const std::string& flag : configuration.flags) words.push_back(ShellQuote(flag));
    words.push_back(ShellQuote(program.path));
    std::string line = absl::StrJoin(words, " ");
    if (program.input != "/dev/null") absl::StrAppend(&line, " < ", ShellQuote(program.input));
    return line;
  }

  std::string DescribeStatus(const RunResult& result) const {
    std::string text = DescribeExit(result, options_.timeout_seconds);
    if (result.truncated) absl::StrAppend(&text, ", output truncated");
    return text;
  }

  // How `actual` (configuration `actual_name`) differs from `expected`:
  // exit status, stdout, stderr. Empty when they agree byte for byte.
  std::string Differences(const RunResult& expected, absl::string_view expected_name,
                          const RunResult& actual, absl::string_view actual_name,
                          const std::string& program) const {
    std::string report;
    const bool same_status = expected.exited == actual.exited &&
                             expected.timed_out == actual.timed_out &&
                             (expected.exited ? expected.exit_status == actual.exit_status
                                              : expected.signal == actual.signal);
    if (!same_status || actual.timed_out || actual.truncated) {
      absl::StrAppend(&report, "exit status: ", ToStd(expected_name), " ", DescribeStatus(expected),
                      ", ", ToStd(actual_name), " ", DescribeStatus(actual), "\n");
    }
    auto compare = [&](absl::string_view stream, const std::string& a, const std::string& b) {
      if (a == b) return;
      std::string diff = UnifiedDiff(
          a, b, absl::StrCat(program, " ", ToStd(stream), " [", ToStd(expected_name), "]"),
          absl::StrCat(program, " ", ToStd(stream), " [", ToStd(actual_name), "]"));
      absl::StrAppend(&report, ToStd(stream), " differs:\n",
                      Indent(Truncate(diff, options_.max_diff_lines), "  "));
    };
    compare("stdout", expected.stdout_text, actual.stdout_text);
    compare("stderr", expected.stderr_text, actual.stderr_text);
    return report;
  }

  // Checks the baseline against the program's .output/.exit files.
  std::string ExpectedFileDifferences(const Program& program, const RunResult& baseline) const {
    if (!program.expected_output.has_value()) return "";
    std::optional<std::string> output = ReadFile(*program.expected_output);
    if (!output.has_value()) {
      return absl::StrCat("cannot read ", program.expected_output->string(), "\n");
    }
    int expected_status = 0;
    if (program.expected_exit.has_value()) {
      std::optional<std::string> text = ReadFile(*program.expected_exit);
      if (!text.has_value() ||
          !absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &expected_status)) {
        return absl::StrCat("bad exit file ", program.expected_exit->string(),
                            " (expected an integer)\n");
      }
    }
    std::string report;
    if (!baseline.exited || baseline.exit_status != expected_status) {
      absl::StrAppend(&report, "exit status: expected ", expected_status, ", ",
                      configurations_[0].name, " ", DescribeStatus(baseline), "\n");
    }
    output = Mask(*output, options_.masks);
    const std::string actual = baseline.CombinedOutput();
    if (actual != *output) {
      std::string diff =
          UnifiedDiff(*output, actual, program.expected_output->filename().string(),
                      absl::StrCat(program.name, " stdout+stderr [", configurations_[0].name, "]"));
      absl::StrAppend(&report, "output differs from the expected file:\n",
                      Indent(Truncate(diff, options_.max_diff_lines), "  "));
    }
    return report;
  }

  void Report(int p) {
    const Program& program = programs_[p];
    std::vector<absl::StatusOr<RunResult>> results;
    std::vector<std::optional<std::string>> statistics;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      results = std::move(results_[p]);
      results_[p].clear();
      statistics = std::move(statistics_[p]);
      statistics_[p].clear();
    }
    for (size_t c = 0; c < configurations_.size(); ++c) {
      if (results[c].ok()) {
        time_by_configuration_[configurations_[c].name] += results[c]->wall_seconds;
      }
      if (results[c].ok() && results[c]->wall_seconds > slowest_seconds_) {
        slowest_seconds_ = results[c]->wall_seconds;
        slowest_ = absl::StrCat(program.name, " [", configurations_[c].name, "]");
      }
    }
    std::string failures;  // indented report lines of this program
    std::string notes;
    const Configuration& baseline = configurations_[0];
    auto describe_run = [&](const Configuration& configuration) {
      std::string text = absl::StrCat("    command: ", ShellCommand(program, configuration), "\n");
      if (!options_.launcher_label.empty()) {
        absl::StrAppend(&text, "    reproduce: ", ReproduceLine(program, configuration), "\n");
      }
      return text;
    };
    if (!results[0].ok()) {
      absl::StrAppend(&failures, "  [", baseline.name, "] ", ToStd(results[0].status().message()),
                      "\n");
    } else if (results[0]->timed_out || results[0]->truncated || !results[0]->exited) {
      // Nothing to compare the modes with: a baseline that hangs, crashes
      // or floods its output is broken by itself.
      absl::StrAppend(&failures, "  [", baseline.name,
                      "] did not finish: ", DescribeStatus(*results[0]), "\n",
                      describe_run(baseline));
    } else {
      std::string expected = ExpectedFileDifferences(program, *results[0]);
      if (!expected.empty()) {
        absl::StrAppend(&failures, "  [", baseline.name, "] differs from the expected files\n",
                        Indent(expected, "    "), describe_run(baseline));
      }
      for (size_t c = 1; c < configurations_.size(); ++c) {
        const Configuration& mode = configurations_[c];
        // The compiled-mode check, for a run that ended normally (one that
        // crashed or hung differs from the baseline already).
        if (results[c].ok() && results[c]->exited) {
          CompilationVerdict verdict = CheckCompilation(
              statistics[c],
              options_.allowed_compilation_failures.count({program.name, mode.name}) > 0);
          if (verdict.statistics.has_value()) tallies_[c].Add(*verdict.statistics);
          for (const std::string& note : verdict.notes) {
            absl::StrAppend(&notes, "  [", mode.name, "] ", note, "\n");
          }
          if (!verdict.problems.empty()) {
            std::string problems;
            for (const std::string& problem : verdict.problems) {
              absl::StrAppend(&problems, "    ", problem, "\n");
            }
            if (verdict.statistics.has_value()) {
              absl::StrAppend(&problems, "    compilation statistics: ",
                              DescribeStatistics(*verdict.statistics), "\n");
            }
            absl::StrAppend(&failures, "  [", mode.name, "] compiled mode check failed (flags: ",
                            absl::StrJoin(mode.flags, " "), ")\n", problems, describe_run(mode));
          }
        }
        const bool excluded = options_.exclusions.count({program.name, mode.name}) > 0;
        std::string differences;
        if (!results[c].ok()) {
          differences = absl::StrCat(ToStd(results[c].status().message()), "\n");
        } else {
          differences =
              Differences(*results[0], baseline.name, *results[c], mode.name, program.name);
        }
        if (differences.empty()) {
          if (excluded) {
            ++unexpected_passes_;
            absl::StrAppend(&notes, "  [", mode.name,
                            "] XPASS: excluded but agrees with the baseline now; remove the "
                            "exclusion\n");
          }
          continue;
        }
        std::string block = absl::StrCat(
            "  [", mode.name, "] ", excluded ? "XFAIL (excluded) " : "", "differs from [",
            baseline.name, "] (flags: ", absl::StrJoin(mode.flags, " "), ")\n",
            Indent(differences, "    "), describe_run(mode),
            "    baseline: ", ShellCommand(program, baseline), "\n");
        if (excluded) {
          ++expected_failures_;
          notes += block;
        } else {
          failures += block;
        }
      }
    }
    if (failures.empty()) {
      ++passed_;
      absl::PrintF("PASS %s\n%s", program.name, notes);
    } else {
      ++failed_;
      absl::PrintF("FAIL %s\n%s%s", program.name, failures, notes);
    }
    std::fflush(stdout);
  }

  // Prints the summary; false if a mode compiled nothing at all.
  bool PrintSummary() {
    std::vector<std::string> times;
    for (const Configuration& configuration : configurations_) {
      times.push_back(absl::StrFormat("%s %.1f s", configuration.name,
                                      time_by_configuration_[configuration.name]));
    }
    if (!options_.mask_patterns.empty()) {
      absl::PrintF("masked before comparing: %s\n", absl::StrJoin(options_.mask_patterns, "  "));
    }
    absl::PrintF("time per configuration (sum of runs): %s\n", absl::StrJoin(times, ", "));
    if (!slowest_.empty()) absl::PrintF("slowest run: %s %.1f s\n", slowest_, slowest_seconds_);
    std::string extra;
    if (expected_failures_ > 0) {
      absl::StrAppend(&extra, ", ", expected_failures_, " excluded differ");
    }
    if (unexpected_passes_ > 0) {
      absl::StrAppend(&extra, ", ", unexpected_passes_, " excluded agree");
    }
    std::vector<std::string> compiled;
    std::string mode_failures;
    for (size_t c = 1; c < configurations_.size(); ++c) {
      compiled.push_back(absl::StrFormat("%s %d/%d", configurations_[c].name,
                                         tallies_[c].compiled(), tallies_[c].due()));
      if (std::string problem = tallies_[c].Problem(); !problem.empty()) {
        absl::StrAppend(&mode_failures, "FAIL [", configurations_[c].name, "] ", problem, "\n");
      }
    }
    absl::PrintF("programs that compiled code / had call targets due, per mode: %s\n",
                 absl::StrJoin(compiled, ", "));
    absl::PrintF("%s", mode_failures);
    absl::PrintF("%d passed, %d failed (%d programs x %d modes + %s)%s\n", passed_, failed_,
                 programs_.size(), configurations_.size() - 1, configurations_[0].name, extra);
    std::fflush(stdout);
    return mode_failures.empty();
  }

  const Options options_;
  const std::vector<Program> programs_;
  std::vector<Configuration> configurations_;
  std::vector<Task> tasks_;
  std::atomic<size_t> next_task_{0};

  std::mutex mutex_;
  std::condition_variable done_;
  std::vector<std::vector<absl::StatusOr<RunResult>>> results_;  // guarded by mutex_
  std::vector<int> remaining_;                                   // guarded by mutex_
  // Per program and configuration: the statistics file's text (modes only).
  std::vector<std::vector<std::optional<std::string>>> statistics_;  // guarded by mutex_

  // Touched by the reporting thread only.
  int passed_ = 0, failed_ = 0, expected_failures_ = 0, unexpected_passes_ = 0;
  std::map<std::string, double> time_by_configuration_;
  // Per configuration (index 0, the baseline, unused).
  std::vector<CompilationTally> tallies_;
  std::string slowest_;
  double slowest_seconds_ = 0;
};

// The programs among `files`, with their companion files, sorted by name.
absl::StatusOr<std::vector<Program>> FindPrograms(const Options& options) {
  const std::string suffix = "." + options.extension;
  std::set<std::string> files(options.files.begin(), options.files.end());
  std::vector<Program> programs;
  std::map<std::string, std::string> seen;  // name -> path
  for (const std::string& file : files) {
    if (!absl::EndsWith(file, suffix)) continue;
    fs::path path(file);
    std::string name = path.filename().string();
    name.resize(name.size() - suffix.size());
    if (name.empty()) continue;
    std::error_code error;
    if (!fs::is_regular_file(path, error)) {
      return absl::NotFoundError(absl::StrCat("no such program file ", file));
    }
    if (auto [it, inserted] = seen.insert({name, file}); !inserted) {
      return absl::InvalidArgumentError(
          absl::StrCat("two programs are named '", name, "': ", it->second, " and ", file));
    }
    const fs::path stem = path.parent_path() / name;
    Program program{name, file, "/dev/null", std::nullopt, std::nullopt};
    auto companion = [&](absl::string_view extension) -> std::optional<fs::path> {
      fs::path candidate = stem;
      candidate += ToStd(extension);
      std::error_code ignored;
      if (fs::exists(candidate, ignored)) return candidate;
      return std::nullopt;
    };
    if (std::optional<fs::path> input = companion(".input")) program.input = input->string();
    program.expected_output = companion(".output");
    if (program.expected_output.has_value()) program.expected_exit = companion(".exit");
    programs.push_back(std::move(program));
  }
  std::sort(programs.begin(), programs.end(),
            [](const Program& a, const Program& b) { return a.name < b.name; });
  return programs;
}

int Main(int argc, char** argv) {
  absl::StatusOr<Options> parsed = ParseFlags(argc, argv);
  if (!parsed.ok()) {
    absl::FPrintF(stderr, "differential_runner: %s\n%s", ToStd(parsed.status().message()), kUsage);
    return kUsageExitCode;
  }
  Options options = *std::move(parsed);
  options.launcher = ResolveUserPath(options.launcher);
  for (std::string& file : options.files) file = ResolveUserPath(file);

  absl::StatusOr<std::vector<Program>> all = FindPrograms(options);
  if (!all.ok()) {
    absl::FPrintF(stderr, "differential_runner: %s\n", ToStd(all.status().message()));
    return kUsageExitCode;
  }
  if (all->empty()) {
    absl::FPrintF(stderr, "differential_runner: no *.%s programs among the %d files given\n",
                  options.extension, options.files.size());
    return kUsageExitCode;
  }
  // A stale or misspelt exclusion or allowance must not linger unnoticed.
  const std::pair<const char*, const ProgramModePairs*> pair_flags[] = {
      {"exclude", &options.exclusions},
      {"allow_compilation_failure", &options.allowed_compilation_failures}};
  for (const auto& [option, pairs] : pair_flags) {
    for (const auto& [program, mode] : *pairs) {
      bool known_program = std::any_of(all->begin(), all->end(),
                                       [&](const Program& p) { return p.name == program; });
      bool known_mode = std::any_of(options.modes.begin(), options.modes.end(),
                                    [&](const Configuration& m) { return m.name == mode; });
      if (!known_program || !known_mode) {
        absl::FPrintF(stderr, "differential_runner: --%s=%s:%s names no %s\n", option, program,
                      mode, known_program ? "mode" : "program");
        return kUsageExitCode;
      }
    }
  }
  std::vector<Program> selected;
  int matching = 0;
  for (Program& program : *all) {
    if (!absl::StrContains(program.name, options.filter)) continue;
    if (matching++ % options.shard_count == options.shard_index) {
      selected.push_back(std::move(program));
    }
  }
  if (matching == 0) {
    absl::FPrintF(stderr, "differential_runner: no program matches --filter=%s\n", options.filter);
    return kUsageExitCode;
  }
  return Runner(std::move(options), std::move(selected)).Run();
}

}  // namespace
}  // namespace morel::differential

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  return morel::differential::Main(argc, argv);
}
