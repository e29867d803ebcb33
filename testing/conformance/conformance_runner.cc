// conformance_runner: runs every golden program of a directory through a
// language launcher and compares what it prints with the expected files.
//
//   conformance_runner --launcher=<path> --tests=<dir> [--filter=substr]
//       [--launcher_arg=X ...] [--extension=sl] [--timeout_seconds=60] [--bless]
//
// For each <name>.<extension> in <dir> (sorted by name) it runs
// `<launcher> [launcher args...] <dir>/<name>.<extension>` with stdin from
// <name>.input (or /dev/null), captures stdout and stderr separately and
// compares "stdout followed by stderr" byte for byte with <name>.output, and
// the exit status with the number in <name>.exit (0 when there is no such
// file). It prints `PASS name` or `FAIL name` plus a unified diff per
// program, then `N passed, N failed`; the exit status is 0 iff every program
// passed (2 for a usage error). --bless rewrites the .output/.exit files from
// the actual results instead of comparing. See README.md.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
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

extern char** environ;

namespace morel::conformance {
namespace {

namespace fs = std::filesystem;

constexpr int kUsageExitCode = 2;
// Each captured stream is cut off after this many bytes (a runaway program
// must not exhaust the runner's memory); the rest is drained and dropped.
constexpr size_t kMaxCaptureBytes = 16 << 20;

struct Options {
  std::string launcher;
  std::string tests_dir;
  std::string filter;
  std::string extension = "sl";
  std::vector<std::string> launcher_args;
  int timeout_seconds = 60;
  bool bless = false;
};

struct RunResult {
  std::string out;  // stdout, then stderr
  bool timed_out = false;
  bool exited = false;  // false: killed by a signal (or timed out)
  int exit_status = 0;  // valid if exited
  int signal = 0;       // valid if !exited && !timed_out
  bool truncated = false;
};

std::string ToStd(absl::string_view s) { return std::string(s.data(), s.size()); }

constexpr char kUsage[] =
    "usage: conformance_runner --launcher=<path> --tests=<dir> [--filter=substr]\n"
    "           [--launcher_arg=X ...] [--extension=sl] [--timeout_seconds=60] "
    "[--bless]\n";

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
    } else if (arg == "--bless") {
      options.bless = true;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown argument '", ToStd(arg), "'"));
    }
  }
  if (options.launcher.empty()) return absl::InvalidArgumentError("--launcher is required");
  if (options.tests_dir.empty()) return absl::InvalidArgumentError("--tests is required");
  if (options.extension.empty()) return absl::InvalidArgumentError("--extension is empty");
  return options;
}

// Under `bazel run` the working directory is the runfiles tree; relative
// paths given by the developer are meant relative to the workspace.
std::string ResolveUserPath(const std::string& path) {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  if (workspace == nullptr || path.empty() || path[0] == '/') return path;
  return (fs::path(workspace) / path).string();
}

std::optional<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
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

// Appends everything readable from `fd` (non-blocking) to `sink`; returns
// false at end of file.
bool Drain(int fd, std::string& sink, bool& truncated) {
  char buffer[65536];
  while (true) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      size_t room = kMaxCaptureBytes > sink.size() ? kMaxCaptureBytes - sink.size() : 0;
      if (static_cast<size_t>(n) > room) truncated = true;
      sink.append(buffer, std::min(room, static_cast<size_t>(n)));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
    return false;
  }
}

// Runs `argv` with stdin from `input_path` and captures stdout and stderr.
// The child leads its own process group so a timeout kills everything it
// started. Errors setting up the child (not the child's own failures) are
// returned as a status.
absl::StatusOr<RunResult> Run(const std::vector<std::string>& argv,
                              const std::string& input_path, int timeout_seconds) {
  int out_pipe[2], err_pipe[2], exec_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return absl::InternalError("pipe failed");
  }
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return absl::InternalError("pipe failed");
  }
  int input_fd = open(input_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (input_fd < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0],
                   exec_pipe[1]}) {
      close(fd);
    }
    return absl::NotFoundError(absl::StrCat("cannot open ", input_path, ": ", strerror(errno)));
  }

  std::vector<char*> c_argv;
  for (const std::string& arg : argv) c_argv.push_back(const_cast<char*>(arg.c_str()));
  c_argv.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0],
                   exec_pipe[1], input_fd}) {
      close(fd);
    }
    return absl::InternalError(absl::StrCat("fork failed: ", strerror(errno)));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here on.
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(input_fd, STDIN_FILENO) < 0 || dup2(out_pipe[1], STDOUT_FILENO) < 0 ||
        dup2(err_pipe[1], STDERR_FILENO) < 0) {
      int error = errno;
      (void)!write(exec_pipe[1], &error, sizeof error);
      _exit(127);
    }
    if (strchr(c_argv[0], '/') != nullptr) {
      execve(c_argv[0], c_argv.data(), environ);
    } else {
      execvp(c_argv[0], c_argv.data());
    }
    int error = errno;
    (void)!write(exec_pipe[1], &error, sizeof error);
    _exit(127);
  }
  setpgid(pid, pid);  // Also done by the child; whichever runs first wins.
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_pipe[1]);
  close(input_fd);

  RunResult result;
  int exec_errno = 0;
  ssize_t got;
  do {
    got = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  close(exec_pipe[0]);
  if (got == sizeof exec_errno) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    waitpid(pid, nullptr, 0);
    return absl::FailedPreconditionError(
        absl::StrCat("cannot execute ", argv[0], ": ", strerror(exec_errno)));
  }

  std::string out_text, err_text;
  fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
  fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  bool out_open = true, err_open = true;
  bool reaped = false;
  int status = 0;
  while (out_open || err_open) {
    auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(
                         deadline - std::chrono::steady_clock::now())
                         .count();
    if (remaining <= 0) {
      result.timed_out = true;
      break;
    }
    pollfd fds[2];
    int n = 0;
    if (out_open) fds[n++] = {out_pipe[0], POLLIN, 0};
    if (err_open) fds[n++] = {err_pipe[0], POLLIN, 0};
    int ready = poll(fds, n, static_cast<int>(std::min<long long>(remaining, 100)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; ready > 0 && i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == out_pipe[0]) {
        out_open = Drain(out_pipe[0], out_text, result.truncated);
      } else {
        err_open = Drain(err_pipe[0], err_text, result.truncated);
      }
    }
    if ((out_open || err_open) && waitpid(pid, &status, WNOHANG) == pid) {
      // The launcher has exited but something it started still holds the
      // pipes: everything the launcher wrote is already in the pipes.
      reaped = true;
      if (out_open) Drain(out_pipe[0], out_text, result.truncated);
      if (err_open) Drain(err_pipe[0], err_text, result.truncated);
      break;
    }
  }
  if (result.timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  }
  close(out_pipe[0]);
  close(err_pipe[0]);

  // Both streams are closed; the launcher normally exits right after. Wait
  // for it within what is left of the deadline, then kill it.
  while (!reaped) {
    pid_t waited = waitpid(pid, &status, result.timed_out ? 0 : WNOHANG);
    if (waited == pid) break;
    if (waited < 0 && errno != EINTR) break;
    if (waited == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        result.timed_out = true;
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
      } else {
        usleep(10000);
      }
    }
  }
  // Descendants that outlived the launcher must not linger.
  kill(-pid, SIGKILL);
  if (WIFEXITED(status)) {
    result.exited = !result.timed_out;
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  result.out = out_text + err_text;
  return result;
}

// ---------------------------------------------------------------------------
// Unified diff of two texts, line by line.

struct Line {
  std::string text;
  bool newline;  // false only for a last line without a trailing newline
};

std::vector<Line> SplitLines(const std::string& text) {
  std::vector<Line> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back({text.substr(start), false});
      break;
    }
    lines.push_back({text.substr(start, end - start), true});
    start = end + 1;
  }
  return lines;
}

bool operator==(const Line& a, const Line& b) { return a.newline == b.newline && a.text == b.text; }

enum class Op { kKeep, kDelete, kInsert };

// Longest-common-subsequence edit script. Golden outputs are small; very
// large ones fall back to "delete everything, insert everything".
std::vector<Op> EditScript(const std::vector<Line>& a, const std::vector<Line>& b) {
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  const size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  std::vector<Op> ops(prefix, Op::kKeep);
  if (n * m > 4'000'000) {
    ops.insert(ops.end(), n, Op::kDelete);
    ops.insert(ops.end(), m, Op::kInsert);
  } else {
    // lcs[i][j] = LCS length of a[prefix+i..] and b[prefix+j..].
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        lcs[i][j] = a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1
                                                   : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
        ops.push_back(Op::kKeep);
        ++i;
        ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        ops.push_back(Op::kDelete);
        ++i;
      } else {
        ops.push_back(Op::kInsert);
        ++j;
      }
    }
  }
  ops.insert(ops.end(), suffix, Op::kKeep);
  return ops;
}

std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        absl::string_view expected_name, absl::string_view actual_name) {
  constexpr size_t kContext = 3;
  const std::vector<Line> a = SplitLines(expected), b = SplitLines(actual);
  const std::vector<Op> ops = EditScript(a, b);
  std::string diff = absl::StrCat("--- ", ToStd(expected_name), "\n+++ ", ToStd(actual_name), "\n");
  // Positions (in a and b) of each op.
  std::vector<std::pair<size_t, size_t>> pos;
  size_t i = 0, j = 0;
  for (Op op : ops) {
    pos.push_back({i, j});
    if (op != Op::kInsert) ++i;
    if (op != Op::kDelete) ++j;
  }
  size_t k = 0;
  while (k < ops.size()) {
    if (ops[k] == Op::kKeep) {
      ++k;
      continue;
    }
    // A hunk: from kContext keeps before the change to kContext keeps after
    // the last change that is within 2*kContext of the previous one.
    size_t begin = k >= kContext ? k - kContext : 0;
    while (begin < k && ops[begin] != Op::kKeep) ++begin;
    size_t end = k;
    while (true) {
      while (end < ops.size() && ops[end] != Op::kKeep) ++end;
      size_t keeps = 0;
      while (end + keeps < ops.size() && ops[end + keeps] == Op::kKeep) ++keeps;
      if (end + keeps < ops.size() && keeps <= 2 * kContext) {
        end += keeps;
        continue;
      }
      end += std::min(keeps, kContext);
      break;
    }
    size_t a_start = pos[begin].first, b_start = pos[begin].second;
    size_t a_count = 0, b_count = 0;
    for (size_t x = begin; x < end; ++x) {
      if (ops[x] != Op::kInsert) ++a_count;
      if (ops[x] != Op::kDelete) ++b_count;
    }
    absl::StrAppendFormat(&diff, "@@ -%d,%d +%d,%d @@\n", a_count ? a_start + 1 : a_start,
                          a_count, b_count ? b_start + 1 : b_start, b_count);
    for (size_t x = begin; x < end; ++x) {
      const Line& line = ops[x] == Op::kInsert ? b[pos[x].second] : a[pos[x].first];
      char mark = ops[x] == Op::kKeep ? ' ' : ops[x] == Op::kDelete ? '-' : '+';
      absl::StrAppend(&diff, std::string(1, mark), line.text, "\n");
      if (!line.newline) diff += "\\ No newline at end of file\n";
    }
    k = end;
  }
  return diff;
}

// ---------------------------------------------------------------------------

std::string DescribeStatus(const RunResult& result, int timeout_seconds) {
  if (result.timed_out) return absl::StrCat("timed out after ", timeout_seconds, " s (killed)");
  if (!result.exited) return absl::StrCat("killed by signal ", result.signal);
  return absl::StrCat(result.exit_status);
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
  for (const fs::directory_entry& entry : fs::directory_iterator(options.tests_dir, error)) {
    std::string file = entry.path().filename().string();
    if (file.size() <= suffix.size() || !absl::EndsWith(file, suffix)) continue;
    if (!entry.is_regular_file(error)) continue;  // follows (runfiles) symlinks
    std::string name = file.substr(0, file.size() - suffix.size());
    if (!absl::StrContains(name, options.filter)) continue;
    names.push_back(name);
  }
  if (error) {
    absl::FPrintF(stderr, "conformance_runner: cannot list %s: %s\n", options.tests_dir,
                  error.message());
    return kUsageExitCode;
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) {
    absl::FPrintF(stderr, "conformance_runner: no *%s programs in %s%s\n", suffix,
                  options.tests_dir,
                  options.filter.empty() ? "" : absl::StrCat(" matching '", options.filter, "'"));
    return kUsageExitCode;
  }

  int passed = 0, failed = 0;
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

    absl::StatusOr<RunResult> run = Run(command, input, options.timeout_seconds);
    if (!run.ok()) {
      absl::PrintF("FAIL %s\n    %s\n", name, ToStd(run.status().message()));
      ++failed;
      continue;
    }
    const RunResult& result = *run;

    if (options.bless) {
      if (!result.exited) {
        absl::PrintF("FAIL %s\n    not blessed: %s\n", name,
                     DescribeStatus(result, options.timeout_seconds));
        ++failed;
        continue;
      }
      absl::Status written = WriteFile(output_file, result.out);
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
      problems.push_back(absl::StrCat("output truncated at ", kMaxCaptureBytes, " bytes"));
    }
    if (!result.exited || result.exit_status != expected_status) {
      problems.push_back(absl::StrCat("exit status: expected ", expected_status, ", got ",
                                      DescribeStatus(result, options.timeout_seconds)));
    }
    const bool output_matches = *expected == result.out;
    if (problems.empty() && output_matches) {
      absl::PrintF("PASS %s\n", name);
      ++passed;
      continue;
    }
    ++failed;
    absl::PrintF("FAIL %s\n", name);
    for (const std::string& problem : problems) absl::PrintF("    %s\n", problem);
    if (!output_matches) {
      absl::PrintF("    output differs (expected vs actual stdout+stderr):\n%s",
                   Indent(UnifiedDiff(*expected, result.out, name + ".output",
                                      name + " (actual)")));
    }
  }
  absl::PrintF("%d passed, %d failed\n", passed, failed);
  std::fflush(stdout);
  return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace morel::conformance

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  return morel::conformance::Main(argc, argv);
}
