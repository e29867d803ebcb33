#ifndef MOREL_BASE_LOG_SINK_H_
#define MOREL_BASE_LOG_SINK_H_

// LogSink: where a component writes its trace lines. Components (splitting,
// ...) take a LogSink* and never know where the lines go; the engine's
// EngineLog implements it ("[engine] <message>" to stderr or to
// --engine.Log), and a component used alone passes its own sink, or null
// for no tracing.

#include "absl/strings/string_view.h"

namespace morel {

class LogSink {
 public:
  virtual ~LogSink() = default;

  // Writes one line, `message` without its prefix or newline; the sink adds
  // both. Thread-safe in every implementation: each line is written whole.
  virtual void Log(absl::string_view message) = 0;
};

}  // namespace morel

#endif  // MOREL_BASE_LOG_SINK_H_
