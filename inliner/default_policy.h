#ifndef MOREL_INLINER_DEFAULT_POLICY_H_
#define MOREL_INLINER_DEFAULT_POLICY_H_

// "Default" (priority 0, the last tier's default): Truffle's
// DefaultInliningPolicy, truffle_reference §2.4. Run = expand -> analyse ->
// inline.
//
// Both queues poll by: a non-trivial node before a trivial one, then higher
// frequency, then lower id.
//
// Expand: `expanded` starts at the root's IR nodes; the queue at the root's
// Cutoff children. While the queue is non-empty and expanded <
// InliningExpansionBudget, poll; expand the candidate if its recursion depth
// <= InliningRecursionDepth and its depth <= MAX_DEPTH; if it ends Expanded,
// add its IR nodes to `expanded` and queue its Cutoff children.
//
// AfterExpand: every trivial Cutoff child of a freshly expanded node (and of
// the root) is expanded at once: no budget, not counted in `expanded`, its
// children not queued (its own trivial children are expanded the same way).
// Unlike Truffle, a trivial child whose recursion depth exceeds
// InliningRecursionDepth is left alone, so that a trivial target that calls
// itself cannot recurse without end (Truffle would overflow its stack).
//
// Analyse (post-order): a Cutoff node with recursion depth 0 has
// callDiff = +frequency; an Expanded node -frequency plus the callDiff of its
// children that are not Indirect, Removed or BailedOut, reset to +frequency
// if that is positive; any other node 0. Negative: inlining the subtree
// removes more frequency-weighted calls than it leaves.
//
// Inline: the queue starts at the root's Expanded children, rootSize at the
// root's IR nodes. For each polled candidate: skip it unless InlineOnly
// accepts it; a trivial one is inlined (no budget, children not queued);
// otherwise cost = its IR nodes, and if rootSize + cost >
// InliningInliningBudget, rootSize is recomputed (CallTree::CurrentRootSize)
// and if still over, inlining stops completely. With callDiff <= 0 the
// candidate is inlined, rootSize += cost and its Expanded children queued.

#include "inliner/inlining_policy.h"

namespace morel::inliner {

class DefaultInliningPolicy : public InliningPolicy {
 public:
  explicit DefaultInliningPolicy(const InliningOptions& options) : options_(options) {}

  void Run(CallTree& tree) override;
  void AfterExpand(CallTree& tree, CallNode& node) override;
  bool TracesCallDiff() const override { return true; }

 private:
  // The three steps of Run.
  void ExpandStep(CallTree& tree);
  static void Analyse(CallNode& node);
  void InlineStep(CallTree& tree);

  InliningOptions options_;
};

}  // namespace morel::inliner

#endif  // MOREL_INLINER_DEFAULT_POLICY_H_
