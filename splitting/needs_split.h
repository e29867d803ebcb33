#ifndef MOREL_SPLITTING_NEEDS_SPLIT_H_
#define MOREL_SPLITTING_NEEDS_SPLIT_H_

// Marking call targets "needs split" on polymorphic reports (Truffle's
// OptimizedCallTarget#polymorphicSpecialize / #maybeSetNeedsSplit,
// truffle_reference §1.3).
//
// MaybeSetNeedsSplit(target, depth):
//   early return (the current flag) if depth > SplittingMaxPropagationDepth,
//     the flag is already set, no caller is known, or the target is in its
//     first execution (call count 1: its polymorphism is intrinsic);
//   one known caller: analyse the caller's target at depth + 1 and mark this
//     one "via parent" if the caller got marked;
//   several callers: mark.
// The flag stays set: a call site created later is split too.
//
// With SplittingTraceEvents each step logs
//   String.format("[poly-event] %-70s %s", indent + message [+ " " + arg], target)
// with two spaces of indent per depth; with SplittingDumpDecisions each
// multi-caller mark writes the chain as a graph (decision_dump.h).

#include <mutex>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "base/log_sink.h"
#include "nodes/call_target.h"
#include "nodes/node.h"
#include "splitting/decision_dump.h"
#include "splitting/splitting_options.h"

namespace morel::splitting {

// "<kind>@<hex address>", the analogue of a Java node's toString.
std::string NodeDescription(const Node& node);

class NeedsSplitMarker {
 public:
  // `log` may be null when no tracing option is on.
  NeedsSplitMarker(const SplittingOptions& options, LogSink* log);

  // A node of `target` reported a polymorphic specialization.
  void PolymorphicSpecialize(const Node& source, CallTarget& target);

  // Paths of the .dot files written so far (SplittingDumpDecisions).
  std::vector<std::string> dump_files() const;

 private:
  bool MaybeSetNeedsSplit(CallTarget& target, int depth, DecisionChain* chain);
  void LogEvent(int depth, const CallTarget& target, absl::string_view message,
                std::optional<std::string> argument = std::nullopt);
  void Dump(DecisionChain& chain, const CallTarget& marked);

  const SplittingOptions& options_;
  LogSink* log_;
  // One report at a time, so that a report's trace lines stay together.
  mutable std::mutex lock_;
  std::vector<std::string> dump_files_;
};

}  // namespace morel::splitting

#endif  // MOREL_SPLITTING_NEEDS_SPLIT_H_
