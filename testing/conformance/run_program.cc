#include "testing/conformance/run_program.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <fstream>
#include <cstdlib>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

extern char** environ;

namespace morel::conformance {
namespace {

// Appends everything readable from `fd` (non-blocking) to `sink`, keeping at
// most `cap` bytes in it; returns false at end of file.
bool Drain(int fd, std::string& sink, size_t cap, bool& truncated) {
  char buffer[65536];
  while (true) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      size_t room = cap > sink.size() ? cap - sink.size() : 0;
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

void CloseAll(std::initializer_list<int> fds) {
  for (int fd : fds) close(fd);
}

}  // namespace

absl::StatusOr<RunResult> RunProgram(const std::vector<std::string>& argv,
                                     const RunOptions& options) {
  if (argv.empty()) return absl::InvalidArgumentError("RunProgram: empty command");
  const auto start = std::chrono::steady_clock::now();
  int out_pipe[2], err_pipe[2], exec_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    CloseAll({out_pipe[0], out_pipe[1]});
    return absl::InternalError("pipe failed");
  }
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    CloseAll({out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]});
    return absl::InternalError("pipe failed");
  }
  int input_fd = open(options.stdin_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (input_fd < 0) {
    int error = errno;
    CloseAll({out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1]});
    return absl::NotFoundError(
        absl::StrCat("cannot open ", options.stdin_path, ": ", strerror(error)));
  }

  // Everything the child needs is built before fork: after it, only
  // async-signal-safe calls (the caller may be multithreaded).
  std::vector<char*> c_argv;
  for (const std::string& arg : argv) c_argv.push_back(const_cast<char*>(arg.c_str()));
  c_argv.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) {
    int error = errno;
    CloseAll(
        {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1], input_fd});
    return absl::InternalError(absl::StrCat("fork failed: ", strerror(error)));
  }
  if (pid == 0) {
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
  CloseAll({out_pipe[1], err_pipe[1], exec_pipe[1], input_fd});

  // The exec pipe closes on a successful exec; an errno arrives otherwise.
  RunResult result;
  int exec_errno = 0;
  ssize_t got;
  do {
    got = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  close(exec_pipe[0]);
  if (got == sizeof exec_errno) {
    CloseAll({out_pipe[0], err_pipe[0]});
    waitpid(pid, nullptr, 0);
    return absl::FailedPreconditionError(
        absl::StrCat("cannot execute ", argv[0], ": ", strerror(exec_errno)));
  }

  fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
  fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
  const size_t cap = options.max_capture_bytes;
  const auto deadline = start + std::chrono::seconds(options.timeout_seconds);
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
        out_open = Drain(out_pipe[0], result.stdout_text, cap, result.truncated);
      } else {
        err_open = Drain(err_pipe[0], result.stderr_text, cap, result.truncated);
      }
    }
    if ((out_open || err_open) && waitpid(pid, &status, WNOHANG) == pid) {
      // The command has exited but something it started still holds the
      // pipes: everything the command wrote is already in the pipes.
      reaped = true;
      if (out_open) Drain(out_pipe[0], result.stdout_text, cap, result.truncated);
      if (err_open) Drain(err_pipe[0], result.stderr_text, cap, result.truncated);
      break;
    }
  }
  if (result.timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  }
  CloseAll({out_pipe[0], err_pipe[0]});

  // Both streams are closed; the command normally exits right after. Wait
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
  // Descendants that outlived the command must not linger.
  kill(-pid, SIGKILL);
  if (WIFEXITED(status)) {
    result.exited = !result.timed_out;
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string DescribeExit(const RunResult& result, int timeout_seconds) {
  if (result.timed_out) return absl::StrCat("timed out after ", timeout_seconds, " s (killed)");
  if (!result.exited) return absl::StrCat("killed by signal ", result.signal);
  return absl::StrCat(result.exit_status);
}

std::optional<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string ResolveUserPath(const std::string& path) {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  if (workspace == nullptr || path.empty() || path[0] == '/') return path;
  return (std::filesystem::path(workspace) / path).string();
}

}  // namespace morel::conformance
