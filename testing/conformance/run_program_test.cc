// RunProgram: separate capture of stdout and stderr, stdin from a file,
// exit status, signals, the timeout kill, leftover children, the capture cap
// and set-up errors. Commands are /bin/sh scripts.

#include "testing/conformance/run_program.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace morel::conformance {
namespace {

std::vector<std::string> Shell(const std::string& script) { return {"/bin/sh", "-c", script}; }

std::string TempFile(const std::string& name, const std::string& contents) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST(RunProgramTest, CapturesStdoutAndStderrSeparately) {
  absl::StatusOr<RunResult> result =
      RunProgram(Shell("printf 'a\\n'; printf 'b\\n' >&2; printf 'c'"));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text, "a\nc");
  EXPECT_EQ(result->stderr_text, "b\n");
  EXPECT_EQ(result->CombinedOutput(), "a\ncb\n");
  EXPECT_TRUE(result->exited);
  EXPECT_EQ(result->exit_status, 0);
  EXPECT_FALSE(result->timed_out);
  EXPECT_FALSE(result->truncated);
  EXPECT_EQ(DescribeExit(*result, 60), "0");
}

TEST(RunProgramTest, StdinComesFromTheFileOrDevNull) {
  RunOptions options;
  options.stdin_path = TempFile("stdin.txt", "line one\nline two\n");
  absl::StatusOr<RunResult> result = RunProgram(Shell("cat"), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text, "line one\nline two\n");
  result = RunProgram(Shell("cat"));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text, "");
}

TEST(RunProgramTest, ReportsExitStatusAndSignals) {
  absl::StatusOr<RunResult> result = RunProgram(Shell("echo out; exit 3"));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->exited);
  EXPECT_EQ(result->exit_status, 3);
  EXPECT_EQ(result->stdout_text, "out\n");
  EXPECT_EQ(DescribeExit(*result, 60), "3");

  result = RunProgram(Shell("kill -SEGV $$"));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->exited);
  EXPECT_FALSE(result->timed_out);
  EXPECT_EQ(result->signal, 11);
  EXPECT_EQ(DescribeExit(*result, 60), "killed by signal 11");
}

TEST(RunProgramTest, TimeoutKillsTheProcessGroup) {
  RunOptions options;
  options.timeout_seconds = 1;
  absl::StatusOr<RunResult> result =
      RunProgram(Shell("echo started; sleep 30 & sleep 30; echo never"), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->timed_out);
  EXPECT_FALSE(result->exited);
  EXPECT_EQ(result->stdout_text, "started\n");
  EXPECT_EQ(DescribeExit(*result, 1), "timed out after 1 s (killed)");
}

TEST(RunProgramTest, LeftoverChildDoesNotHoldTheResult) {
  // The background sleep keeps the pipes open after the shell exits; the
  // result is the shell's, without waiting for the timeout.
  RunOptions options;
  options.timeout_seconds = 20;
  absl::StatusOr<RunResult> result = RunProgram(Shell("sleep 1000 & echo done"), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->timed_out);
  EXPECT_TRUE(result->exited);
  EXPECT_EQ(result->stdout_text, "done\n");
}

TEST(RunProgramTest, CapturesAtMostTheCapPerStream) {
  RunOptions options;
  options.max_capture_bytes = 10;
  absl::StatusOr<RunResult> result =
      RunProgram(Shell("printf '0123456789abcdef'; printf 'xy' >&2"), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->truncated);
  EXPECT_EQ(result->stdout_text, "0123456789");
  EXPECT_EQ(result->stderr_text, "xy");
  EXPECT_TRUE(result->exited);
}

TEST(RunProgramTest, SetUpErrorsAreStatuses) {
  absl::StatusOr<RunResult> result = RunProgram({"/no/such/launcher"});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(std::string(result.status().message()),
            "cannot execute /no/such/launcher: No such file or directory");
  RunOptions options;
  options.stdin_path = "/no/such/input";
  result = RunProgram(Shell("true"), options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(std::string(result.status().message()),
            "cannot open /no/such/input: No such file or directory");
  EXPECT_FALSE(RunProgram({}).ok());
}

TEST(RunProgramTest, ConcurrentRunsKeepTheirOwnOutput) {
  // Each child must see EOF on its own pipes even while another thread is
  // forking (close-on-exec): the runs end long before their timeouts.
  std::vector<std::thread> threads;
  std::vector<absl::StatusOr<RunResult>> results(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([i, &results] {
      RunOptions options;
      options.timeout_seconds = 30;
      results[i] = RunProgram(Shell(absl::StrCat("sleep 0.", i, "; echo ", i)), options);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].status();
    EXPECT_EQ(results[i]->stdout_text, absl::StrCat(i, "\n"));
    EXPECT_FALSE(results[i]->timed_out);
  }
}

}  // namespace
}  // namespace morel::conformance
