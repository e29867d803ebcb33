#ifndef MOREL_OSR_BYTECODE_OSR_POLICY_H_
#define MOREL_OSR_BYTECODE_OSR_POLICY_H_

// BytecodeOsrPolicy: on-stack replacement of bytecode interpreters (Truffle's
// BytecodeOSRMetadata, truffle_reference §3.2). A NodeRuntime delegates
// NodeRuntime::OnBytecodeOSRPoll and TryBytecodeOSR to it; the compiler is
// its OsrHost (osr_host.h), as for AST loops.
//
// Per BytecodeOSRNode (a method), created lazily at its first back-edge poll:
//  - metadata (BytecodeOsrMetadata) with the OSR targets of its entries (one
//    per target bci, created at the first TryOSR there, kept for the
//    method's life: reused after a deoptimization or invalidation);
//  - the back-edge count is the node's and counts every activation of the
//    method (racy, as Truffle's). A poll is due at a count at or above
//    OSRCompilationThreshold that is a multiple of 1024 (a batch: that
//    crossed one); AlwaysOSR: every back edge.
//  - A new OSR target starts with the function's call-and-loop count, and
//    each TryOSR while it is queued or compiling adds 1024 (the poll
//    interval) to it: the compile queue ranks it by that count.
//  - TryOSR: the method's first OSR request goes through unconditionally
//    (stage FRESH -> HOT); later requests of a target without code need
//    the count at the secondary threshold (2 x threshold). One compilation
//    per method is in flight at a time, across its entries: a request while
//    another is compiling only resets the counter. Each request resets the
//    count to the threshold (the back-off: another threshold's worth of back
//    edges to reach the secondary one). The first compilation of an entry
//    is free; every later one counts, for the whole method, and past
//    OSRMaxCompilationReAttempts OSR is disabled for the method ("opt osr
//    disabled <target>|Reason Max OSR compilation re-attempts reached (N)").
//    A permanent compilation failure disables it too.
//  - Running OSR code: `before_transfer`, then a fresh OSR frame that
//    BytecodeOSRNode::CopyIntoOSRFrame fills from the activation's frame,
//    made the current frame in the activation's place (stack walks show it,
//    never the OSR target: BytecodeOsrRootNode is internal), the code on it
//    (OsrHost::RunBytecodeOsrCode), then RestoreParentFrame, also when the
//    code throws. The code's result is the call target's.
//
// Thread-safe. The policy's mutex is a leaf: it never calls the host, the
// log or a node's hooks while holding it.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "base/log_sink.h"
#include "nodes/bytecode_osr_node.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/root_node.h"
#include "nodes/value.h"
#include "osr/osr_host.h"

namespace morel::osr {

class BytecodeOsrPolicy {
 public:
  // `host` and `log` outlive the policy; `log` may be null (no tracing).
  BytecodeOsrPolicy(const OsrOptions& options, OsrHost* host, LogSink* log);
  ~BytecodeOsrPolicy();
  BytecodeOsrPolicy(const BytecodeOsrPolicy&) = delete;
  BytecodeOsrPolicy& operator=(const BytecodeOsrPolicy&) = delete;

  // NodeRuntime::OnBytecodeOSRPoll.
  bool OnPoll(BytecodeOSRNode& node, int64_t previous, int64_t count);
  // NodeRuntime::TryBytecodeOSR.
  std::optional<Value> TryOSR(BytecodeOSRNode& node, int target_bci, int64_t interpreter_state,
                              absl::FunctionRef<void()> before_transfer, Frame& parent_frame);

  // The count at which a poll is next due after `count`: the least multiple
  // of the poll interval above `count` and at or above the threshold.
  int64_t NextPollAfter(int64_t count) const;

  // An entry with an OSR target (created at the first TryOSR at its bci).
  struct Entry {
    const BytecodeOSRNode* node;
    const RootNode* root;  // the node's function root
    int bci;
    CallTarget* target;
  };
  std::vector<Entry> Entries() const;
  // Whether OSR is disabled for `node`'s method (for good).
  bool IsDisabled(const BytecodeOSRNode& node) const;
  // Compilation requests of `node`'s method after the first of each entry
  // (Truffle's re-attempt counter; 0 once disabled).
  int ReAttempts(const BytecodeOSRNode& node) const;

 private:
  class Metadata;
  // `node`'s metadata if it is this policy's, else null (none yet, or the
  // shared disabled marker, or another runtime's).
  Metadata* MetadataOf(const BytecodeOSRNode& node) const;
  // Requests the compilation of `target` for `bci` of `node` (Truffle's
  // requestOSRCompilation), with `frame`'s tags as the entry tags.
  void Request(BytecodeOSRNode& node, Metadata& metadata, int bci, CallTarget& target,
               const Frame& frame);
  // Runs installed code of `target` on an OSR frame copied from `parent`.
  Value RunOnOsrFrame(BytecodeOSRNode& node, int bci, CallTarget& target, InstalledCode& code,
                      absl::FunctionRef<void()> before_transfer, Frame& parent);
  void Disable(BytecodeOSRNode& node, Metadata& metadata, const CallTarget& target,
               const std::string& reason);
  // Truffle's resetCounter: the count back to the threshold.
  void ResetCounter(BytecodeOSRNode& node) const;
  int64_t threshold() const;

  const OsrOptions options_;
  OsrHost* const host_;
  LogSink* const log_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Metadata>> metadata_;  // guarded by mutex_
};

}  // namespace morel::osr

#endif  // MOREL_OSR_BYTECODE_OSR_POLICY_H_
