#include "testing/conformance/compilation_check.h"

#include <filesystem>
#include <optional>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/conformance/run_program.h"

namespace morel::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string Statistics(int successful, int failed, int due, int background = 0,
                       int limits = 0, int deopt_every_n = 0) {
  return absl::StrCat("successful ", successful, "\nfailed ", failed,
                      "\nrecompilation_limits ", limits, "\ndeopts 4\ninvalidations 1\n",
                      "executed_targets ", due + 1, "\ndue_targets ", due,
                      "\nbackground_compilation ", background, "\ndeopt_every_n ", deopt_every_n,
                      "\n");
}

TEST(CompilationCheckTest, ParsesEveryField) {
  absl::StatusOr<CompilationStatistics> s = ParseCompilationStatistics(
      absl::StrCat(Statistics(3, 1, 2, 1, 5, 3), "some_future_count 7\n"));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->successful, 3);
  EXPECT_EQ(s->failed, 1);
  EXPECT_EQ(s->recompilation_limits, 5);
  EXPECT_EQ(s->deopts, 4);
  EXPECT_EQ(s->invalidations, 1);
  EXPECT_EQ(s->executed_targets, 3);
  EXPECT_EQ(s->due_targets, 2);
  EXPECT_TRUE(s->background_compilation);
  EXPECT_EQ(s->deopt_every_n, 3);
}

TEST(CompilationCheckTest, RejectsMissingAndBadLines) {
  EXPECT_FALSE(ParseCompilationStatistics("successful 1\n").ok());
  std::string bad = Statistics(1, 0, 1);
  bad.replace(bad.find("failed 0"), 8, "failed x");
  EXPECT_FALSE(ParseCompilationStatistics(bad).ok());
}

TEST(CompilationCheckTest, CompiledRunPasses) {
  CompilationVerdict verdict = CheckCompilation(Statistics(2, 0, 2), false);
  EXPECT_THAT(verdict.problems, IsEmpty());
  EXPECT_THAT(verdict.notes, IsEmpty());
  ASSERT_TRUE(verdict.statistics.has_value());
}

TEST(CompilationCheckTest, NothingDueNothingRequired) {
  // A parse error, or a small program under high thresholds.
  EXPECT_THAT(CheckCompilation(Statistics(0, 0, 0), false).problems, IsEmpty());
}

TEST(CompilationCheckTest, DueButNothingCompiledFails) {
  CompilationVerdict verdict = CheckCompilation(Statistics(0, 0, 3), false);
  ASSERT_EQ(verdict.problems.size(), 1u);
  EXPECT_THAT(verdict.problems[0], HasSubstr("nothing was compiled: 3 guest call target(s)"));
}

TEST(CompilationCheckTest, BackgroundRunsAreLeftToTheTally) {
  EXPECT_THAT(CheckCompilation(Statistics(0, 0, 3, /*background=*/1), false).problems,
              IsEmpty());
}

TEST(CompilationCheckTest, CompilerFailuresFailUnlessAllowed) {
  CompilationVerdict verdict = CheckCompilation(Statistics(5, 1, 3), false);
  ASSERT_EQ(verdict.problems.size(), 1u);
  EXPECT_THAT(verdict.problems[0], HasSubstr("1 compilation(s) failed permanently"));
  EXPECT_THAT(CheckCompilation(Statistics(5, 1, 3), true).problems, IsEmpty());
  // Every compilation failed: both problems, unless allowed.
  EXPECT_EQ(CheckCompilation(Statistics(0, 3, 3), false).problems.size(), 2u);
  EXPECT_THAT(CheckCompilation(Statistics(0, 3, 3), true).problems, IsEmpty());
}

TEST(CompilationCheckTest, StaleAllowanceIsANote) {
  CompilationVerdict verdict = CheckCompilation(Statistics(5, 0, 3), true);
  EXPECT_THAT(verdict.problems, IsEmpty());
  EXPECT_THAT(verdict.notes,
              ElementsAre(HasSubstr("allowed to fail compilation, but no compilation failed")));
}

TEST(CompilationCheckTest, RecompilationLimitsOnlyUnderForcedDeopts) {
  EXPECT_THAT(CheckCompilation(Statistics(5, 0, 3, 0, /*limits=*/2, /*deopt_every_n=*/3), false)
                  .problems,
              IsEmpty());
  CompilationVerdict verdict = CheckCompilation(Statistics(5, 0, 3, 0, /*limits=*/2), false);
  ASSERT_EQ(verdict.problems.size(), 1u);
  EXPECT_THAT(verdict.problems[0], HasSubstr("2 call target(s) stopped being compiled"));
}

TEST(CompilationCheckTest, NoFileFails) {
  EXPECT_THAT(CheckCompilation(std::nullopt, false).problems,
              ElementsAre(HasSubstr("no compilation statistics")));
  EXPECT_THAT(CheckCompilation("", false).problems,
              ElementsAre(HasSubstr("no compilation statistics")));
  EXPECT_THAT(CheckCompilation("garbage\n", false).problems,
              ElementsAre(HasSubstr("unreadable compilation statistics")));
}

TEST(CompilationCheckTest, TallyNeedsOneCompiledRunWhenAnyWasDue) {
  CompilationTally empty;
  EXPECT_EQ(empty.Problem(), "");
  CompilationTally nothing_due;
  nothing_due.Add(*ParseCompilationStatistics(Statistics(0, 0, 0, 1)));
  EXPECT_EQ(nothing_due.Problem(), "");
  CompilationTally uncompiled;
  uncompiled.Add(*ParseCompilationStatistics(Statistics(0, 0, 2, 1)));
  uncompiled.Add(*ParseCompilationStatistics(Statistics(0, 0, 0, 1)));
  EXPECT_THAT(uncompiled.Problem(), HasSubstr("nothing was compiled in any program: 1 program"));
  uncompiled.Add(*ParseCompilationStatistics(Statistics(1, 0, 1, 1)));
  EXPECT_EQ(uncompiled.Problem(), "");
}

TEST(CompilationCheckTest, NewStatisticsFileIsEmptyAndUnique) {
  absl::StatusOr<std::string> a = NewStatisticsFile();
  absl::StatusOr<std::string> b = NewStatisticsFile();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_EQ(std::filesystem::file_size(*a), 0u);
  EXPECT_EQ(std::filesystem::file_size(*b), 0u);
}

TEST(CompilationCheckTest, RunWithCompilationStatisticsReadsAndRemovesTheFile) {
  // $0 is the statistics flag (put before the program, $1).
  std::optional<std::string> statistics;
  absl::StatusOr<RunResult> result = RunWithCompilationStatistics(
      {"/bin/sh", "-c", R"(printf 'successful 1\n' > "${0#*=}"; printf '%s %s' "$0" "$1")",
       "program"},
      RunOptions(), &statistics);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(statistics, "successful 1\n");
  std::pair<std::string, std::string> words = absl::StrSplit(result->stdout_text, ' ');
  EXPECT_TRUE(absl::StartsWith(words.first, kStatisticsFlag)) << words.first;
  EXPECT_EQ(words.second, "program");
  EXPECT_FALSE(std::filesystem::exists(words.first.substr(sizeof(kStatisticsFlag) - 1)));
}

}  // namespace
}  // namespace morel::conformance
