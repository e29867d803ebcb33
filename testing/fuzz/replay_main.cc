// main() for a fuzz target outside libFuzzer (see README.md):
//
//   <target> [--mutations=N] [--max_len=N] [--seed=N] [--seconds=N] FILE_OR_DIRECTORY...
//
// Runs the target on every file (a directory: its regular files, in name
// order), then on N mutations of them (default 0). Mutations are
// deterministic for a seed: each starts from a corpus input and applies one
// to four edits -- a bit flip, a byte set to a random or boundary value, an
// inserted or erased range, a duplicated range, a range copied from another
// input -- and is cut at --max_len bytes (default 4096). A crash leaves the
// --seconds=N (for campaigns, //tools/fuzz --engine=replay; never in
// tests) stops the mutations after N seconds. A crash leaves the
// input that caused it in $TEST_UNDECLARED_OUTPUTS_DIR (or the working
// directory) as `crash-replay-<n>`, and stderr names the file. Exits 0 when
// every input ran, 2 on a usage error.

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "testing/fuzz/fuzz_target.h"

// Weak: a target need not define it.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace morel::fuzz {
namespace {

// The input being run and where its reproducer goes, for the signal handler
// (which may only use async-signal-safe calls: open, write, close).
const std::string* current_input = nullptr;
char crash_path[4096];

void WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void OnFatalSignal(int sig) {
  if (current_input != nullptr) {
    int fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      WriteAll(fd, current_input->data(), current_input->size());
      close(fd);
    }
    static const char kMessage[] = "\nreplay: the crashing input is in ";
    WriteAll(2, kMessage, sizeof(kMessage) - 1);
    WriteAll(2, crash_path, strlen(crash_path));
    WriteAll(2, "\n", 1);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void Run(const std::string& input, const std::string& name) {
  current_input = &input;
  const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  std::string path = absl::StrCat(dir != nullptr ? dir : ".", "/crash-replay-", name);
  std::snprintf(crash_path, sizeof(crash_path), "%s", path.c_str());
  // The target gets its own copy, exactly `size` bytes long, so that a read
  // past the end is a fault under a sanitizer.
  std::vector<uint8_t> copy(input.begin(), input.end());
  LLVMFuzzerTestOneInput(copy.data(), copy.size());
  current_input = nullptr;
}

std::string Mutate(const std::vector<std::string>& corpus, size_t max_len, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); };
  std::string s = corpus.empty() ? std::string() : corpus[pick(corpus.size())];
  static constexpr uint8_t kBoundary[] = {0, 1, 0x7f, 0x80, 0xff, '0', '9', ' ', '\n', '{', '}',
                                          '(', ')', ';', '"', '-'};
  const int edits = 1 + static_cast<int>(pick(4));
  for (int e = 0; e < edits; ++e) {
    switch (pick(7)) {
      case 0:  // flip a bit
        if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
        break;
      case 1:  // random byte
        if (!s.empty()) s[pick(s.size())] = static_cast<char>(rng());
        break;
      case 2:  // boundary byte
        if (!s.empty()) s[pick(s.size())] = static_cast<char>(kBoundary[pick(sizeof(kBoundary))]);
        break;
      case 3: {  // insert random bytes
        std::string bytes(1 + pick(8), '\0');
        for (char& c : bytes) c = static_cast<char>(rng());
        s.insert(pick(s.size() + 1), bytes);
        break;
      }
      case 4:  // erase a range
        if (!s.empty()) {
          size_t at = pick(s.size());
          s.erase(at, 1 + pick(std::min<size_t>(16, s.size() - at)));
        }
        break;
      case 5:  // duplicate a range in place
        if (!s.empty()) {
          size_t at = pick(s.size());
          s.insert(at, s.substr(at, 1 + pick(32)));
        }
        break;
      default: {  // splice in a range of another input
        if (corpus.empty()) break;
        const std::string& other = corpus[pick(corpus.size())];
        if (other.empty()) break;
        size_t from = pick(other.size());
        s.insert(pick(s.size() + 1), other.substr(from, 1 + pick(64)));
        break;
      }
    }
  }
  if (s.size() > max_len) s.resize(max_len);
  return s;
}

bool ReadFile(const std::filesystem::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

int Main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  int64_t mutations = 0;
  int64_t max_len = 4096;
  int64_t seed = 1;
  int64_t seconds = 0;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    auto number = [&](absl::string_view flag, int64_t* value) {
      if (!absl::ConsumePrefix(&arg, flag)) return false;
      if (!absl::SimpleAtoi(arg, value) || *value < 0) {
        std::fprintf(stderr, "replay: %s expects a non-negative integer, got '%s'\n",
                     std::string(flag).c_str(), std::string(arg).c_str());
        std::exit(2);
      }
      return true;
    };
    if (number("--mutations=", &mutations) || number("--max_len=", &max_len) ||
        number("--seed=", &seed) ||
        number("--seconds=", &seconds)) {
      continue;
    }
    if (absl::StartsWith(arg, "-")) {
      std::fprintf(stderr,
                   "replay: unknown flag '%s' (accepted: --mutations=N --max_len=N --seed=N "
                   "--seconds=N)\n",
                   argv[i]);
      return 2;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(argv[i], ec)) {
      std::vector<std::filesystem::path> entries;
      for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
        if (entry.is_regular_file()) entries.push_back(entry.path());
      }
      std::sort(entries.begin(), entries.end());
      files.insert(files.end(), entries.begin(), entries.end());
    } else if (std::filesystem::exists(argv[i], ec)) {
      files.emplace_back(argv[i]);
    } else {
      std::fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      return 2;
    }
  }

  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(sig, OnFatalSignal);

  std::vector<std::string> corpus;
  size_t bytes = 0;
  for (const auto& path : files) {
    std::string input;
    if (!ReadFile(path, &input)) {
      std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
      return 2;
    }
    std::fprintf(stderr, "replay: %s\n", path.c_str());
    Run(input, path.filename().string());
    bytes += input.size();
    corpus.push_back(std::move(input));
  }
  std::mt19937_64 rng(static_cast<uint64_t>(seed));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int64_t m = 0;
  for (; m < mutations; ++m) {
    if (seconds > 0 && std::chrono::steady_clock::now() >= deadline) break;
    std::string input = Mutate(corpus, static_cast<size_t>(max_len), rng);
    bytes += input.size();
    Run(input, absl::StrCat("mutation-", m));
  }
  std::printf("replay: %zu files and %lld mutations (seed %lld), %zu bytes: no crash\n",
              corpus.size(), static_cast<long long>(m), static_cast<long long>(seed), bytes);
  return 0;
}

}  // namespace
}  // namespace morel::fuzz

int main(int argc, char** argv) { return morel::fuzz::Main(argc, argv); }
