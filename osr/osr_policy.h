#ifndef MOREL_OSR_OSR_POLICY_H_
#define MOREL_OSR_OSR_POLICY_H_

// OsrPolicy: when a loop of a running activation is compiled and entered
// (Truffle's OptimizedOSRLoopNode, truffle_reference §3.1/§3.3). A
// NodeRuntime delegates NodeRuntime::OsrPollMask and NodeRuntime::PollOSR to
// it; the policy talks to the compiler through OsrHost, which the engine
// implements (engine/runtime/osr.cc) and a component used alone can fake
// (osr/osr_example.cc).
//
//  - LoopNode polls every 1024 iterations of one loop entry (every iteration
//    with AlwaysOSR). Once the entry ran more than OSRCompilationThreshold
//    iterations (any number with AlwaysOSR), the policy creates the loop's
//    OSR call target (an OsrRootNode; the host owns it) and requests its
//    compilation. The loop keeps interpreting and polls again.
//  - When the OSR target has code, the poll runs it on the activation's
//    frame (OsrHost::RunOsrCode); its result is the loop's status.
//  - While the target is still compiling, the loop keeps interpreting. Once
//    the code is gone (deoptimized, invalidated, discarded), a later poll
//    requests it again: the first request is free, each later one is a
//    re-attempt, at most OSRMaxCompilationReAttempts of them. Beyond that,
//    or after a permanent compilation failure, OSR is disabled for the loop
//    ("opt osr disabled <target>|Reason <reason>" with TraceCompilation).
//
// Bytecode OSR (Truffle's BytecodeOSRNode, §3.2) follows the same rules per
// entry, an entry being (BytecodeRootNode, target bci of a back edge): the
// interpreter polls with its activation's back-edge count at the same
// intervals; at or above OSRCompilationThreshold (exactly the threshold
// counts, as Truffle's `count >= osrThreshold`) the policy creates the
// entry's OSR call target (a BytecodeOsrRootNode named `<function><OSR@bci>`)
// and requests its compilation; its code runs from the bci to the end of
// the function on the activation's frame (OsrHost::RunBytecodeOsrCode) and
// its result is the function's.
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
#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "nodes/root_node.h"
#include "nodes/value.h"
#include "osr/bytecode_osr_root_node.h"
#include "osr/osr_root_node.h"

namespace morel::osr {

// The options of the policy; the defaults are the engine's (EngineConfig).
struct OsrOptions {
  bool enabled = true;                   // OSR
  bool always_osr = false;               // AlwaysOSR
  int compilation_threshold = 100352;    // OSRCompilationThreshold
  int max_compilation_re_attempts = 30;  // OSRMaxCompilationReAttempts
  bool trace_compilation = false;        // TraceCompilation: "opt osr disabled"
};

// What the policy needs from the compiler (the engine implements it).
class OsrHost {
 public:
  enum class CompilationState {
    kIdle,       // neither queued nor compiling (code installed or not)
    kCompiling,  // queued or being compiled: keep interpreting
    kFailed,     // failed permanently: OSR is disabled for the loop
  };

  virtual ~OsrHost() = default;

  // Whether the host compiles at all (no: the loops are never polled).
  virtual bool CompilationEnabled() = 0;
  // Whether the host is shutting down (no new OSR requests).
  virtual bool Closed() { return false; }
  // Creates the call target of `root` (an OsrRootNode or a
  // BytecodeOsrRootNode) and keeps it as long as the host; it is never
  // compiled by its call count, only by RequestOsrCompilation. Called once
  // per loop or bytecode entry.
  virtual CallTarget* CreateOsrTarget(std::unique_ptr<RootNode> root) = 0;
  virtual CompilationState OsrCompilationState(CallTarget& target) = 0;
  // Requests the compilation of `target` at the tier OSR code gets (the
  // engine: a last-tier request); the code may be installed on return (no
  // background compilation) or later.
  virtual void RequestOsrCompilation(CallTarget& target) = 0;
  // Runs the rest of the loop in `code` on `frame`; returns the loop's
  // status.
  virtual int RunOsrCode(CallTarget& target, InstalledCode& code, Frame& frame) = 0;
  // Runs `code` of a bytecode OSR target from its entry bci to the end of
  // the function on `frame` (the locals, then the entry's operand stack in
  // the frame's storage); returns the function's result. Only called for
  // targets of BytecodeOsrRootNodes, which only exist on a runtime that
  // delegates NodeRuntime::PollBytecodeOSR to the policy; the default
  // fails.
  virtual Value RunBytecodeOsrCode(CallTarget& target, InstalledCode& code, Frame& frame);
  // The target as the compilation trace names it ("opt osr disabled <it>|...").
  virtual std::string TraceName(const CallTarget& target) { return target.name(); }
};

class OsrPolicy {
 public:
  // `host` and `log` outlive the policy; `log` may be null (no tracing).
  OsrPolicy(const OsrOptions& options, OsrHost* host, LogSink* log);
  OsrPolicy(const OsrPolicy&) = delete;
  OsrPolicy& operator=(const OsrPolicy&) = delete;

  // NodeRuntime::OsrPollMask: -1 (never poll) without OSR or compilation,
  // 0 with AlwaysOSR, else 1023 (Truffle's OSR_POLL_INTERVAL).
  int PollMask();
  // NodeRuntime::PollOSR: true when OSR code ran the rest of the loop on
  // `frame` (then `*status` is the loop's status).
  bool Poll(LoopNode& loop, Frame& frame, int iterations, int* status);
  // NodeRuntime::PollBytecodeOSR: true when OSR code ran `root` from
  // `target_bci` to its end on `frame` (then `*result` is the function's
  // result). `back_edges` is the activation's back-edge count.
  bool PollBytecode(bytecode::BytecodeRootNode& root, int target_bci, Frame& frame, int back_edges,
                    Value* result);

  // The loops with OSR state and their OSR targets (null until created).
  std::vector<std::pair<const LoopNode*, CallTarget*>> Loops() const;
  // Whether OSR is disabled for `loop`.
  bool IsDisabled(const LoopNode& loop) const;

  // A bytecode entry with OSR state and its OSR target (null until created).
  struct BytecodeEntry {
    const bytecode::BytecodeRootNode* root;
    int bci;
    CallTarget* target;
  };
  std::vector<BytecodeEntry> BytecodeEntries() const;
  // Whether OSR is disabled for the entry at `bci` of `root`.
  bool IsDisabled(const bytecode::BytecodeRootNode& root, int bci) const;

 private:
  // The state of one loop or bytecode entry.
  struct EntryState {
    CallTarget* target = nullptr;  // the entry's OSR call target, once created
    int reattempts = 0;            // compilation requests after the first
    bool creating = false;         // a thread is creating `target`
    bool requested = false;
    bool disabled = false;
  };
  // The common part of a poll past the threshold: creates the entry's
  // target (`make_root`) on the first poll, requests compilations, counts
  // re-attempts, disables. Returns the code to run now (and its target in
  // `*target`), or null: keep interpreting. `find_state` runs under the
  // mutex and returns the entry's state (std::map: stable, never erased).
  InstalledCode* CodeToRun(absl::FunctionRef<EntryState*()> find_state,
                           absl::FunctionRef<std::unique_ptr<RootNode>()> make_root,
                           CallTarget** target);
  void TraceDisabled(const CallTarget& target, const std::string& reason);

  const OsrOptions options_;
  OsrHost* const host_;
  LogSink* const log_;
  mutable std::mutex mutex_;
  std::map<const LoopNode*, EntryState> loops_;  // guarded by mutex_
  // guarded by mutex_
  std::map<std::pair<const bytecode::BytecodeRootNode*, int>, EntryState> bytecode_entries_;
};

}  // namespace morel::osr

#endif  // MOREL_OSR_OSR_POLICY_H_
