#ifndef MOREL_INLINER_CALL_TREE_H_
#define MOREL_INLINER_CALL_TREE_H_

// The call tree of one compilation (Truffle's language-agnostic inlining,
// CallTree / CallNode; truffle_reference §2.1-2.3, §2.7).
//
// One CallNode per call site: a callee called from two places is two nodes.
// The root is the compilation's own call target, partially evaluated and
// Inlined from the start. A direct call site in an expanded graph becomes a
// Cutoff child; expanding it (partially evaluating the callee on its own,
// through the Expander) makes it Expanded with its own children, or BailedOut;
// a policy then marks Expanded nodes Inlined. Indirect calls in an expanded
// callee become Indirect leaves. The engine marks a node Removed when the final
// partial evaluation finds its call site gone.
//
// The tree knows nothing about IR, nodes or languages: call sites and targets
// are opaque identities (`const void*`) chosen by the engine.
//
// Not thread-safe: a tree belongs to one compilation.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace morel::inliner {

class CallNode;
class CallTree;
class InliningPolicy;

// CallNode.State. The order is Truffle's.
enum class CallNodeState { kCutoff, kExpanded, kInlined, kRemoved, kIndirect, kBailedOut };

// "Cutoff", "Expanded", "Inlined", "Removed", "Indirect", "BailedOut": the
// event text of a TraceInlining line.
absl::string_view StateName(CallNodeState state);

// One call site found by partial evaluation in an expanded (or the root's)
// graph, with what the tree needs to know about its callee.
struct CallSite {
  // Identity of the call site in its parent's graph (the engine passes a
  // DirectCallNode*); null for an indirect call. FindChild looks it up.
  const void* key = nullptr;
  // The callee's identity (the engine passes a CallTarget*); null for an
  // indirect call.
  const void* target = nullptr;
  // Same-or-split identity: split copies of a target share it (Truffle's
  // isSameOrSplit). Recursion depth compares these; null means `target`.
  const void* target_family = nullptr;
  // The callee's name, for traces and dumps.
  std::string name;
  // An indirect call: becomes an Indirect node, never expanded.
  bool indirect = false;
  // Calls made through this call site (OptimizedDirectCallNode.callCount):
  // the numerator of this node's frequency.
  int call_count = 0;
  // The callee's own call count: the denominator of ITS children's frequency.
  int target_call_count = 0;
  // Direct call nodes in the callee's AST ("Truffle Callees").
  int truffle_callees = 0;
  // How many call sites know this target (the dequeue rule).
  int known_call_site_count = 0;
  // RootNode::IsTrivial(): expanded eagerly, inlined without budget.
  bool trivial = false;
  // DirectCallNode::ForceInlining() ("Forced"): the Default policy expands
  // and inlines it past both budgets (recursion and depth limits still
  // apply).
  bool forced = false;
};

// What the partial evaluator reports after partially evaluating one callee on
// its own.
struct Expansion {
  // PE gave up for good (Truffle's PermanentBailoutException): BailedOut.
  bool bailed_out = false;
  std::string bailout_reason;
  // IR node count of the callee's graph after PE and cheap cleanups.
  int ir_nodes = 0;
  // The call sites still in that graph, direct and indirect, in graph order.
  std::vector<CallSite> calls;
  // The callee's root claimed to be trivial but its graph is not (Truffle's
  // verifyTrivial): the node stops being trivial.
  bool trivial_failed = false;
};

// Partially evaluates callees for the tree: the engine's partial evaluator,
// or a fake in tests.
class Expander {
 public:
  virtual ~Expander() = default;

  // Called for a Cutoff node being expanded (by a policy, or eagerly for a
  // trivial callee). `node` already has its final id, parent and depth.
  virtual Expansion Expand(const CallNode& node) = 0;

  // The size of the root graph with everything inlined so far, asked when an
  // inlining candidate would exceed InliningInliningBudget (Truffle
  // recomputes the real graph's node count there). By default the root's IR
  // nodes plus those of every other Inlined node.
  virtual int CurrentRootSize(const CallTree& tree);
};

class CallNode {
 public:
  CallNode(const CallNode&) = delete;
  CallNode& operator=(const CallNode&) = delete;

  // Creation order in the tree, root 0; the Default policy's tie-break.
  int id() const { return id_; }
  CallNodeState state() const { return state_; }
  // Null for the root.
  CallNode* parent() const { return parent_; }
  // In creation order: direct calls in graph order, then indirect ones.
  const std::vector<std::unique_ptr<CallNode>>& children() const { return children_; }
  const CallSite& site() const { return site_; }
  // The callee's name; "<indirect>" for an Indirect node.
  const std::string& name() const;
  bool is_root() const { return parent_ == nullptr; }

  // rootRelativeFrequency: root 1.0; a child
  // parentFreq * max(1, call_count) / max(1, parent's target_call_count);
  // an Indirect node 0.
  double frequency() const { return frequency_; }
  // Ancestors whose target family equals this node's (0 for Indirect).
  int recursion_depth() const { return recursion_depth_; }
  // Depth in the tree, root 0.
  int depth() const { return depth_; }
  // IR nodes of the expanded graph; 0 unless expanded.
  int ir_nodes() const { return ir_nodes_; }
  bool trivial() const { return trivial_; }
  // The root is never forced.
  bool forced() const { return !is_root() && !site_.indirect && site_.forced; }
  // The Default policy's analysis (0 until it runs).
  double call_diff() const { return call_diff_; }
  void set_call_diff(double call_diff) { call_diff_ = call_diff; }
  // Why PE bailed out (BailedOut nodes only).
  const std::string& bailout_reason() const { return bailout_reason_; }

  // The child for call site `key` (a CallSite::key), or null. Used by the
  // engine's final partial evaluation to find the decision for a call.
  CallNode* FindChild(const void* key) const;

 private:
  friend class CallTree;
  CallNode(int id, CallSite site, CallNode* parent);

  int id_;
  CallNodeState state_ = CallNodeState::kCutoff;
  CallNode* parent_;
  std::vector<std::unique_ptr<CallNode>> children_;
  CallSite site_;
  double frequency_ = 0;
  int recursion_depth_ = 0;
  int depth_ = 0;
  int ir_nodes_ = 0;
  bool trivial_ = false;
  double call_diff_ = 0;
  std::string bailout_reason_;
};

class CallTree {
 public:
  // Builds the root from the compilation's own target (`root`) and its
  // partially evaluated graph (`root_expansion`, which must not be bailed
  // out). The root's direct calls become Cutoff children; like Truffle's
  // CallNode.makeRoot it gets no Indirect children. The root is then Inlined
  // and the policy's AfterExpand(root) runs.
  //
  // `policy` supplies the AfterExpand hook and the policy's trace properties
  // from the root on; pass the policy that will run (create it first). When
  // null, the tree uses a Default policy with default options of its own
  // (trivial children are expanded eagerly, "call diff" is traced) until
  // set_policy / RunInliningPhase binds another.
  CallTree(CallSite root, Expansion root_expansion, Expander& expander,
           InliningPolicy* policy = nullptr);
  CallTree(const CallTree&) = delete;
  CallTree& operator=(const CallTree&) = delete;
  ~CallTree();

  CallNode& root() { return *root_; }
  const CallNode& root() const { return *root_; }

  // The policy whose hooks the tree calls (never null).
  InliningPolicy& policy() const { return *policy_; }
  // Later expansions and traces use `policy` (not owned; must outlive the
  // tree's use); null goes back to the tree's own Default policy.
  void set_policy(InliningPolicy* policy);

  // Expands a Cutoff node through the Expander: counts `expanded`, then the
  // node becomes BailedOut, or Expanded with its children (Cutoff for direct
  // calls, Indirect for indirect ones) after which AfterExpand(node) runs.
  void Expand(CallNode& node);
  // Marks an Expanded node Inlined: counts `inlined`, and the frontier grows
  // by its children count - 1.
  void Inline(CallNode& node);
  // Marks a node Removed: its call site is gone from the graph.
  void Remove(CallNode& node);
  // An Inlined node whose evaluation into the final graph bailed out (the
  // call stays a call): BailedOut, and the counts no longer include it.
  void BailOutInlined(CallNode& node, std::string reason);

  // Truffle's counters; both start at 1 (the root).
  int expanded_count() const { return expanded_; }
  int inlined_count() const { return inlined_; }
  // "opt done |Inlined xY zN": Y = inlined - 1, N = the frontier size (the
  // root's children count, plus children - 1 per inline: updateTracingInfo).
  int InlinedY() const { return inlined_ - 1; }
  int InlinedN() const { return frontier_size_; }

  // The root's IR nodes plus those of every other Inlined node: the size the
  // final graph would have without further cleanups.
  int InlinedIrNodes() const;
  // The Expander's CurrentRootSize (by default InlinedIrNodes): what the
  // Default policy recomputes its root size from.
  int CurrentRootSize() const { return expander_.CurrentRootSize(*this); }

  // Every Inlined target other than the root's whose known_call_site_count is
  // 1, depth-first through Inlined nodes, each once (collectTargetsToDequeue:
  // dequeue them with reason "Target inlined into only caller").
  std::vector<const void*> TargetsToDequeue() const;
  // The targets of all Inlined nodes, root first, each once
  // (collectInlinedTargets).
  std::vector<const void*> InlinedTargets() const;

  // TraceInlining: the lines without the "[engine] " prefix. "Inline start"
  // for the root, one line per node depth-first (event = state name, subject
  // indented 2 * depth), then "Inline done" for the root. Descends only into
  // Inlined nodes unless `details` (TraceInliningDetails).
  //
  // Properties print in the iteration order of Java's HashMap that Truffle
  // builds them in (string hash buckets of a 16-slot table):
  //   call diff (Default policy only), Recursion Depth, Explore/inline ratio,
  //   IR Nodes, Frequency, Truffle Callees, Forced, Depth.
  // Indirect nodes have none. Explore/inline ratio is expanded/inlined on the
  // root and NaN elsewhere.
  std::vector<std::string> Trace(bool details) const;

  // The tree as Graphviz dot: a node per CallNode labelled with name, state,
  // IR nodes and frequency, filled by state; an edge parent -> child.
  std::string ToGraphviz(absl::string_view title) const;

 private:
  std::unique_ptr<CallNode> NewNode(CallSite site, CallNode* parent);
  void AddChildren(CallNode& node, std::vector<CallSite> calls, bool with_indirect);
  void TraceNode(const CallNode& node, bool details, std::vector<std::string>& lines) const;

  Expander& expander_;
  std::unique_ptr<InliningPolicy> default_policy_;
  InliningPolicy* policy_;
  int next_id_ = 0;
  int expanded_ = 1;
  int inlined_ = 1;
  int frontier_size_ = 0;
  std::unique_ptr<CallNode> root_;
};

}  // namespace morel::inliner

#endif  // MOREL_INLINER_CALL_TREE_H_
