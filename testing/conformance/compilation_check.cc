#include "testing/conformance/compilation_check.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace morel::conformance {

absl::StatusOr<CompilationStatistics> ParseCompilationStatistics(absl::string_view text) {
  CompilationStatistics statistics;
  int background = 0;
  const std::map<std::string, int*> fields = {
      {"successful", &statistics.successful},
      {"failed", &statistics.failed},
      {"recompilation_limits", &statistics.recompilation_limits},
      {"deopts", &statistics.deopts},
      {"invalidations", &statistics.invalidations},
      {"executed_targets", &statistics.executed_targets},
      {"due_targets", &statistics.due_targets},
      {"background_compilation", &background},
      {"deopt_every_n", &statistics.deopt_every_n},
  };
  std::set<std::string> seen;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipWhitespace())) {
    std::pair<absl::string_view, absl::string_view> parts =
        absl::StrSplit(absl::StripAsciiWhitespace(line), absl::MaxSplits(' ', 1));
    std::string name(parts.first);
    auto field = fields.find(name);
    if (field == fields.end()) continue;  // a newer engine's extra line
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(parts.second), field->second)) {
      return absl::InvalidArgumentError(absl::StrCat("bad statistics line '", line, "'"));
    }
    seen.insert(name);
  }
  for (const auto& [name, unused] : fields) {
    if (seen.count(name) == 0) {
      return absl::InvalidArgumentError(absl::StrCat("no '", name, "' line"));
    }
  }
  statistics.background_compilation = background != 0;
  return statistics;
}

absl::StatusOr<std::string> NewStatisticsFile() {
  const char* directory = std::getenv("TEST_TMPDIR");
  std::string pattern = absl::StrCat(directory != nullptr && *directory != '\0' ? directory : "/tmp",
                                     "/compilation_statistics.XXXXXX");
  int fd = mkstemp(pattern.data());
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("cannot create ", pattern, ": ", std::strerror(errno)));
  }
  close(fd);
  return pattern;
}

absl::StatusOr<RunResult> RunWithCompilationStatistics(std::vector<std::string> argv,
                                                       const RunOptions& options,
                                                       std::optional<std::string>* statistics) {
  absl::StatusOr<std::string> file = NewStatisticsFile();
  if (!file.ok()) return file.status();
  argv.insert(argv.end() - 1, kStatisticsFlag + *file);
  absl::StatusOr<RunResult> result = RunProgram(argv, options);
  *statistics = ReadFile(*file);
  std::error_code ignored;
  std::filesystem::remove(*file, ignored);
  return result;
}

std::string DescribeStatistics(const CompilationStatistics& s) {
  return absl::StrCat("successful ", s.successful, ", failed ", s.failed,
                      ", recompilation limits ", s.recompilation_limits, ", deopts ", s.deopts,
                      ", invalidations ", s.invalidations, "; guest call targets executed ",
                      s.executed_targets, ", due for compilation ", s.due_targets,
                      s.background_compilation ? "; background compilation" : "",
                      s.deopt_every_n > 0 ? absl::StrCat("; DeoptEveryN=", s.deopt_every_n) : "");
}

CompilationVerdict CheckCompilation(const std::optional<std::string>& text,
                                    bool allowed_to_fail) {
  CompilationVerdict verdict;
  if (!text.has_value() || text->empty()) {
    verdict.problems.push_back(
        absl::StrCat("no compilation statistics: the launcher did not write the file named by ",
                     kStatisticsFlag, "... (a Morel engine writes it when it closes)"));
    return verdict;
  }
  absl::StatusOr<CompilationStatistics> parsed = ParseCompilationStatistics(*text);
  if (!parsed.ok()) {
    verdict.problems.push_back(
        absl::StrCat("unreadable compilation statistics: ", parsed.status().message()));
    return verdict;
  }
  const CompilationStatistics& s = *parsed;
  verdict.statistics = s;
  if (s.failed > 0 && !allowed_to_fail) {
    verdict.problems.push_back(absl::StrCat(
        s.failed, " compilation(s) failed permanently (\"opt failed\"): the compiler could not "
                  "compile code this program ran (--engine.TraceCompilation prints the reasons)"));
  }
  if (s.failed == 0 && allowed_to_fail) {
    verdict.notes.push_back(
        "allowed to fail compilation, but no compilation failed: remove the allowance");
  }
  if (s.recompilation_limits > 0 && s.deopt_every_n == 0) {
    verdict.problems.push_back(absl::StrCat(
        s.recompilation_limits,
        " call target(s) stopped being compiled by the recompilation policy (deopt cycle or "
        "MaximumCompilations) although no deoptimization was forced (DeoptEveryN=0): compiled "
        "code kept deoptimizing"));
  }
  // (An allowed program whose compilations all failed is explained by its
  // allowance: nothing fell back silently.)
  if (s.due_targets > 0 && s.successful == 0 && !s.background_compilation &&
      !(allowed_to_fail && s.failed > 0)) {
    verdict.problems.push_back(absl::StrCat(
        "nothing was compiled: ", s.due_targets,
        " guest call target(s) reached the compilation threshold, 0 compilations succeeded (",
        s.failed, " failed): this mode ran in the interpreter"));
  }
  return verdict;
}

void CompilationTally::Add(const CompilationStatistics& statistics) {
  if (statistics.due_targets > 0) ++due_;
  if (statistics.successful > 0) ++compiled_;
}

std::string CompilationTally::Problem() const {
  if (due_ == 0 || compiled_ > 0) return "";
  return absl::StrCat("nothing was compiled in any program: ", due_,
                      " program(s) had guest call targets due for compilation, none compiled "
                      "anything");
}

}  // namespace morel::conformance
