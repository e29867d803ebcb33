#ifndef MOREL_OSR_OSR_POLICY_H_
#define MOREL_OSR_OSR_POLICY_H_

// OsrPolicy: when a loop of a running activation is compiled and entered
// (Truffle's OptimizedOSRLoopNode, truffle_reference §3.1/§3.3). A
// NodeRuntime delegates NodeRuntime::OsrLoopThreshold, OsrLoopPollInterval
// and PollOSR to it; the policy talks to the compiler through OsrHost
// (osr_host.h), which the engine implements (engine/runtime/osr.cc) and a
// component used alone can fake (osr/osr_example.cc). Bytecode OSR has its
// own policy (bytecode_osr_policy.h) on the same host.
//
//  - LoopNode polls at the first iteration of a loop entry whose count (its
//    iterations plus its inner loops') is above OSRCompilationThreshold --
//    exactly the threshold does not poll -- and then every 1024 iterations
//    (AlwaysOSR: from the first iteration on, every iteration). The first
//    poll creates the loop's OSR call target (an OsrRootNode; the host owns
//    it) and requests its compilation; if the code is there at once (no
//    background compilation) the poll enters it, else the loop keeps
//    interpreting and polls again.
//  - When the OSR target has code, the poll runs it on the activation's
//    frame (OsrHost::RunOsrCode); its result is the loop's status.
//  - While the target is still compiling, the loop keeps interpreting. Once
//    the code is gone (deoptimized, invalidated, discarded), a later poll
//    requests it again: the first request is free, each later one is a
//    re-attempt, at most OSRMaxCompilationReAttempts of them. Beyond that,
//    or after a permanent compilation failure, OSR is disabled for the loop
//    ("opt osr disabled <target>|Reason <reason>" with TraceCompilation).
//
// Thread-safe. Lock order: the policy's mutex is a leaf: the policy never
// calls the host or the log while holding it, and the host may call Loops()
// under its own locks.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "base/log_sink.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "nodes/root_node.h"
#include "nodes/value.h"
#include "osr/osr_host.h"
#include "osr/osr_root_node.h"

namespace morel::osr {

class OsrPolicy {
 public:
  // `host` and `log` outlive the policy; `log` may be null (no tracing).
  OsrPolicy(const OsrOptions& options, OsrHost* host, LogSink* log);
  OsrPolicy(const OsrPolicy&) = delete;
  OsrPolicy& operator=(const OsrPolicy&) = delete;

  // NodeRuntime::OsrLoopThreshold: -1 (never poll) without OSR or
  // compilation, 0 with AlwaysOSR, else OSRCompilationThreshold.
  int LoopThreshold();
  // NodeRuntime::OsrLoopPollInterval: 1 with AlwaysOSR, else 1024
  // (Truffle's OSR_POLL_INTERVAL).
  int PollInterval() const;
  // NodeRuntime::PollOSR: true when OSR code ran the rest of the loop on
  // `frame` (then `*status` is the loop's status). `count` is the loop
  // entry's count; nothing happens at or below the threshold.
  bool Poll(LoopNode& loop, Frame& frame, int count, int* status);

  // The loops with OSR state and their OSR targets (null until created).
  std::vector<std::pair<const LoopNode*, CallTarget*>> Loops() const;
  // Whether OSR is disabled for `loop`.
  bool IsDisabled(const LoopNode& loop) const;

 private:
  // The state of one loop.
  struct EntryState {
    CallTarget* target = nullptr;  // the entry's OSR call target, once created
    int reattempts = 0;            // compilation requests after the first
    bool creating = false;         // a thread is creating `target`
    bool requested = false;
    bool disabled = false;
  };
  // A poll past the threshold: creates the loop's target (`make_root`) on
  // the first poll, requests compilations, counts re-attempts, disables.
  // Returns the code to run now (and its target in `*target`), or null:
  // keep interpreting. `find_state` runs under the mutex and returns the
  // loop's state (std::map: stable, never erased). A request records
  // `frame`'s tags as the target's entry tags (OsrRootNode::entry_tags).
  InstalledCode* CodeToRun(absl::FunctionRef<EntryState*()> find_state,
                           absl::FunctionRef<std::unique_ptr<RootNode>()> make_root,
                           const Frame& frame, CallTarget** target);
  void TraceDisabled(const CallTarget& target, const std::string& reason);

  const OsrOptions options_;
  OsrHost* const host_;
  LogSink* const log_;
  mutable std::mutex mutex_;
  std::map<const LoopNode*, EntryState> loops_;  // guarded by mutex_
};

}  // namespace morel::osr

#endif  // MOREL_OSR_OSR_POLICY_H_
