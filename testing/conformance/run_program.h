#ifndef MOREL_TESTING_CONFORMANCE_RUN_PROGRAM_H_
#define MOREL_TESTING_CONFORMANCE_RUN_PROGRAM_H_

// RunProgram: runs one command (a language launcher and a program) the way
// the golden-file runners need it — stdin from a file, stdout and stderr
// captured separately, a wall-clock timeout that kills everything the
// command started — and reports how it ended. Shared by
// testing/conformance (expected files) and testing/differential (modes
// against the interpreter).
//
// The command is started with fork/exec (no shell) in its own process group,
// with the caller's environment and working directory. Both streams are
// read through pipes with poll(); each is capped at `max_capture_bytes`
// (the rest is drained and dropped). When the command exits while a child
// of it still holds the pipes, the output written so far is taken and the
// group is killed. Safe to call from several threads at once: every file
// descriptor is close-on-exec, so concurrent children never hold each
// other's pipes.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace morel::conformance {

struct RunOptions {
  // stdin of the command.
  std::string stdin_path = "/dev/null";
  int timeout_seconds = 60;
  size_t max_capture_bytes = 16 << 20;
};

struct RunResult {
  std::string stdout_text;
  std::string stderr_text;
  bool timed_out = false;
  bool exited = false;     // false: killed by a signal, or timed out
  int exit_status = 0;     // valid if exited
  int signal = 0;          // valid if !exited && !timed_out
  bool truncated = false;  // a stream hit max_capture_bytes
  double wall_seconds = 0;

  // stdout followed by stderr: what golden .output files hold.
  std::string CombinedOutput() const { return stdout_text + stderr_text; }
};

// Runs `argv` (argv[0] is a path, or a name looked up in PATH). Errors
// setting up the child — an unreadable stdin file, an argv[0] that cannot
// be executed, fork/pipe failures — are returned as a status; everything the
// child itself does (any exit status, a signal, a timeout) is a RunResult.
absl::StatusOr<RunResult> RunProgram(const std::vector<std::string>& argv,
                                     const RunOptions& options = {});

// "0", "3", "killed by signal 11", "timed out after 60 s (killed)".
std::string DescribeExit(const RunResult& result, int timeout_seconds);

// The whole file, or nothing if it cannot be read.
std::optional<std::string> ReadFile(const std::filesystem::path& path);

// Under `bazel run` the working directory is the runfiles tree; a relative
// path the developer gave is meant relative to the workspace
// (BUILD_WORKSPACE_DIRECTORY).
std::string ResolveUserPath(const std::string& path);

}  // namespace morel::conformance

#endif  // MOREL_TESTING_CONFORMANCE_RUN_PROGRAM_H_
