#include "engine/runtime/engine_log.h"

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace morel::runtime {

EngineLog::EngineLog() : EngineLog(stderr, false) {}

EngineLog::EngineLog(std::FILE* file, bool owned) : file_(file), owned_(owned) {}

absl::StatusOr<std::unique_ptr<EngineLog>> EngineLog::Open(
    const std::string& path) {
  if (path.empty()) return std::make_unique<EngineLog>();
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "option engine.Log: cannot open '", path, "': ", std::strerror(errno)));
  }
  return std::unique_ptr<EngineLog>(new EngineLog(file, true));
}

EngineLog::~EngineLog() {
  if (owned_) std::fclose(file_);
}

void EngineLog::Log(absl::string_view message) {
  Write(absl::StrCat("[engine] ", message, "\n"));
}

void EngineLog::Write(absl::string_view text) {
  std::lock_guard<std::mutex> guard(lock_);
  std::fwrite(text.data(), 1, text.size(), file_);
  std::fflush(file_);
}

}  // namespace morel::runtime
