#ifndef MOREL_NODES_LOOP_NODE_H_
#define MOREL_NODES_LOOP_NODE_H_

// LoopNode around a RepeatingNode (Truffle's LoopNode): runs the body until
// it stops asking to continue, counts iterations and reports them to the
// enclosing call target (its call-and-loop count drives compilation) and to
// the enclosing loops (their OSR thresholds count the iterations of their
// inner loops), and polls the runtime, which may offer on-stack replacement
// (osr/ builds on this).

#include <atomic>
#include <memory>

#include "nodes/frame.h"
#include "nodes/node.h"

namespace morel {

class NodeRuntime;

namespace pe {
class PartialEvaluator;
}  // namespace pe

class RepeatingNode : public Node {
 public:
  // The status that asks the loop to run the body again. Any other value
  // ends the loop and is returned by LoopNode::Execute (a language's break,
  // return, ... statuses).
  static constexpr int kContinueLoop = 0;

  using Node::Node;
  // Runs one iteration (typically: evaluate the condition, run the body).
  virtual int ExecuteRepeating(Frame& frame) = 0;

  // Compiled code (engine/pe): emits the whole loop — header, one iteration
  // per trip, exit — with the enclosing LoopNode already entered on the
  // resume path. Returns the loop's status where control reaches the exit
  // (a `return` in the body leaves through PartialEvaluator::Return), or -1
  // if this repeating node cannot be compiled (the default). A language's
  // loop statement uses it, and so does an OSR compilation of the loop
  // (osr/), which starts in the middle of a running activation.
  virtual int PartialEvaluateLoop(pe::PartialEvaluator& pe);
};

class LoopNode final : public Node {
 public:
  MOREL_NODE_KIND(LoopNode)

  explicit LoopNode(std::unique_ptr<RepeatingNode> body,
                    SourceSection source_section = {})
      : Node(std::move(source_section)), body_(std::move(body)) {}

  // Runs the loop; returns the body's final (non-continue) status. Polls
  // the runtime's safepoint after every iteration (NodeRuntime::OnSafepoint)
  // and the runtime for on-stack replacement (NodeRuntime::PollOSR) at the
  // first iteration whose count -- this entry's iterations plus what inner
  // loops reported meanwhile -- is above NodeRuntime::OsrLoopThreshold(),
  // then every OsrLoopPollInterval() iterations. When it leaves (also by a
  // guest error) it reports its iterations (ReportLoopCount) and its inner
  // loops' count starts from 0 again for the next entry.
  int Execute(Frame& frame);

  RepeatingNode* repeating_node() const { return body_.get(); }

  // Child 0 is one iteration of the repeating node; its outcome's status
  // says whether to go on looping.
  Outcome Resume(Frame& frame, int next_child,
                 absl::Span<const Outcome> done) override;
  void ForEachChild(ChildVisitor visitor) override { visitor(body_.slot()); }

  // Adds `iterations` (loop iterations run under `node`: by a loop, OSR
  // code, a bytecode interpreter) to the call target of `node`'s root and
  // to the current entry of every LoopNode from `node` up to the root, so
  // that they count toward those loops' OSR thresholds (Truffle's
  // LoopNode.reportLoopCount and reportChildLoopCount). The root's call
  // target is the function's also for code that runs in an OSR call
  // target: OSR roots do not hold the loop (osr/).
  static void ReportLoopCount(Node& node, int iterations);

  // What inner loops reported during the current entry (0 between entries).
  int base_loop_count() const { return base_loop_count_.load(std::memory_order_relaxed); }

  // Whether the runtime has an OSR target for this loop (osr/osr_policy.h
  // sets it): then every entry polls from its first iteration on, so that
  // existing OSR code is entered at once (Truffle's compilingLoop), not only
  // past the threshold.
  bool has_osr_target() const { return has_osr_target_.load(std::memory_order_relaxed); }
  void set_has_osr_target(bool value) { has_osr_target_.store(value, std::memory_order_relaxed); }

 private:
  friend class LoopIterationReporter;
  struct OsrPolling {
    int threshold;  // -1: never poll
    int interval;
  };
  // NodeRuntime::OsrLoopThreshold/OsrLoopPollInterval, asked once.
  OsrPolling Polling();
  // The runtime of the enclosing call target (null outside one), found once.
  NodeRuntime* Runtime();
  // Adds to the current entry's count of inner iterations (saturating;
  // Truffle's reportChildLoopCount).
  void ReportLoopCountToEntry(int iterations);
  // Reports this entry's own iterations: to the enclosing loops (not this
  // one) and the call target.
  void ReportOwnIterations(int iterations);
  // Adds `iterations` to the entries of the LoopNodes from `node` up to the
  // root; returns the root (null for a detached tree).
  static RootNode* ReportToEnclosingLoops(Node* node, int iterations);

  Child<RepeatingNode> body_;
  // Truffle's baseLoopCount: iterations inner loops reported during the
  // current entry; reset when an entry ends. Shared by recursive and
  // concurrent entries, as Truffle's field is (a count, not a guarantee).
  std::atomic<int> base_loop_count_{0};
  static constexpr int kUnknown = -2;
  std::atomic<int> osr_threshold_{kUnknown};  // published after osr_interval_
  std::atomic<int> osr_interval_{1024};
  std::atomic<NodeRuntime*> runtime_{nullptr};
  std::atomic<bool> has_osr_target_{false};
};

}  // namespace morel

#endif  // MOREL_NODES_LOOP_NODE_H_
