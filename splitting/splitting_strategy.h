#ifndef MOREL_SPLITTING_SPLITTING_STRATEGY_H_
#define MOREL_SPLITTING_SPLITTING_STRATEGY_H_

// SplittingStrategy: the engine's splitting policy (Truffle's
// TruffleSplittingStrategy plus the engine-wide EngineData state,
// truffle_reference §1). One per engine; the engine's NodeRuntime hooks
// delegate here:
//
//   CreateCallTarget        -> OnTargetCreated      (budget growth)
//   OnPolymorphicSpecialize -> OnPolymorphicSpecialize (statistics, marking)
//   BeforeDirectCall        -> BeforeCall           (split decision + split)
//   ForceSplit              -> ForceSplit           (CloneCallTarget)
//   engine close            -> Close                (TraceSplittingSummary)
//
// The split decision (BeforeCall, at a call node's first interpreter call
// after its callee was marked) checks, in Truffle's order, printing
// "split failed <reason>" with TraceSplitting for the first that fails:
//   needs split (else nothing is printed);
//   "Split not possible." — already cloned, splitting off, or the root does
//       not allow cloning;
//   "Recursive split." — the callee is already the source of 3 split
//       ancestors on the chain of split call sites;
//   "Not enough budget. <splitCount + size> > <splitLimit>" when
//       splitCount + size >= splitLimit;
//   "Target too big: <size> > <SplittingMaxCalleeSize>".
// A split clones the callee's root uninitialized, makes a CallTarget of it
// (through the engine's factory, which owns it), installs it in the call
// node under the caller's root lock, and tells the caller's call target
// (NodeRuntime::OnNodeReplaced with reason "Split call node", the node
// replaced by itself): code compiled for the caller relied on the old
// callee and must be invalidated.
//
// Forced splits (CloneCallTarget) need SplittingAllowForcedSplits, a
// possible split and no recursion; they ignore budget and size and, as in
// Truffle's master (2023) TruffleSplittingStrategy#forceSplitting, charge
// the callee's size to the budget twice (once there and once in doSplit).
//
// SplittingForceAll (a stress mode, not in Truffle) forces every split:
// every source call target is marked needs-split when it is created, so
// every direct call node reaches the split decision at its first interpreter
// call, and the decision is a forced split — "Split not possible." and
// "Recursive split." still refuse it (traced as usual), budget and size do
// not. Split copies are not marked, and their call nodes call the source
// targets, so each call path gets its own copies down to the recursion
// guard. The interpreter's call path is unchanged: it already checks the
// needs-split flag.

#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "base/log_sink.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/node.h"
#include "nodes/root_node.h"
#include "splitting/needs_split.h"
#include "splitting/split_statistics.h"
#include "splitting/splitting_options.h"

namespace morel::splitting {

// Makes and keeps (for the engine's lifetime) the call target of a split
// copy `root` of `source`.
using SplitTargetFactory =
    std::function<CallTarget*(std::unique_ptr<RootNode> root, CallTarget* source)>;

class SplittingStrategy {
 public:
  // The depth of Truffle's isRecursiveSplit guard.
  static constexpr int kRecursiveSplitDepth = 3;

  // `log` receives the traces and the summary; it may be null when no
  // tracing option is on.
  SplittingStrategy(SplittingOptions options, LogSink* log,
                    SplitTargetFactory factory);
  SplittingStrategy(const SplittingStrategy&) = delete;
  SplittingStrategy& operator=(const SplittingStrategy&) = delete;

  const SplittingOptions& options() const { return options_; }

  // A source (non-split) call target was loaded: the budget grows by
  // (int)(SplittingGrowthLimit * its uninitialized node count). With
  // SplittingForceAll the target is marked needs-split.
  void OnTargetCreated(CallTarget& target);
  // A node reported a polymorphic specialization.
  void OnPolymorphicSpecialize(const Node& source);
  // The call node's one split decision; returns the target to call.
  CallTarget* BeforeCall(DirectCallNode& call, CallTarget* target);
  // DirectCallNode::CloneCallTarget(); whether the node now calls a split.
  bool ForceSplit(DirectCallNode& call);

  // The runtime freed `target` (engine/runtime: a retired call target):
  // forgets it, so that a target later allocated at its address is not
  // taken for it.
  void OnTargetFreed(const CallTarget& target);

  // Prints the TraceSplittingSummary report once (if the option is on).
  void Close();
  std::string SummaryText() const;

  // Engine-wide budget: nodes created by splitting so far / allowed.
  int split_count() const;
  int split_limit() const;
  SplitStatistics statistics() const;
  std::vector<std::string> dump_files() const { return marker_.dump_files(); }

 private:
  bool CanSplit(const DirectCallNode& call) const;
  static bool IsRecursiveSplit(const DirectCallNode& call, int max_depth);
  // Requires lock_. The first failing check's message, or "" for go.
  std::string CheckSplitLocked(const DirectCallNode& call, const CallTarget& target) const;
  // The checks a forced split keeps (SplittingForceAll's decisions).
  std::string CheckForcedSplit(const DirectCallNode& call) const;
  // Charges the budget and statistics, clones and installs. Returns the
  // split target, or null if the root produced no clone.
  CallTarget* DoSplit(DirectCallNode& call, bool forced);
  void CalculateSplitWasteLocked(CallTarget& target);
  void TraceSplit(const DirectCallNode& call);
  void TraceSplitFailed(const DirectCallNode& call, absl::string_view reason);

  const SplittingOptions options_;
  LogSink* log_;
  SplitTargetFactory factory_;
  NeedsSplitMarker marker_;

  mutable std::mutex lock_;
  int split_count_ = 0;  // EngineData.splitCount
  int split_limit_ = 0;  // EngineData.splitLimit
  SplitStatistics statistics_;
  std::set<const CallTarget*> waste_;
  int traced_splits_ = 0;  // TraceSplittingListener's counter
  bool closed_ = false;
};

}  // namespace morel::splitting

#endif  // MOREL_SPLITTING_SPLITTING_STRATEGY_H_
