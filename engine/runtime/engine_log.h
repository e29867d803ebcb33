#ifndef MOREL_ENGINE_RUNTIME_ENGINE_LOG_H_
#define MOREL_ENGINE_RUNTIME_ENGINE_LOG_H_

// The engine's log sink: "[engine] ..." lines (Truffle's engine logger) to
// standard error, or to the file named by --engine.Log. Thread-safe; each
// line is written whole.

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/log_sink.h"

namespace morel::runtime {

class EngineLog final : public LogSink {
 public:
  // Logs to standard error.
  EngineLog();
  // Logs to `path` (created or truncated); an empty path means stderr.
  static absl::StatusOr<std::unique_ptr<EngineLog>> Open(const std::string& path);
  ~EngineLog();
  EngineLog(const EngineLog&) = delete;
  EngineLog& operator=(const EngineLog&) = delete;

  // Writes "[engine] <message>\n".
  void Log(absl::string_view message) override;
  // Writes `text` as is (multi-line reports that carry their own prefixes).
  void Write(absl::string_view text);

 private:
  explicit EngineLog(std::FILE* file, bool owned);

  std::mutex lock_;
  std::FILE* file_;
  bool owned_;
};

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_ENGINE_LOG_H_
