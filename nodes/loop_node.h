#ifndef MOREL_NODES_LOOP_NODE_H_
#define MOREL_NODES_LOOP_NODE_H_

// LoopNode around a RepeatingNode (Truffle's LoopNode): runs the body until
// it stops asking to continue, counts iterations and reports them to the
// enclosing call target (its call-and-loop count drives compilation) and to
// the runtime (which may offer on-stack replacement; osr/ builds on this).

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
  // and the runtime for on-stack replacement (NodeRuntime::PollOSR) as the
  // iterations of this entry grow.
  int Execute(Frame& frame);

  RepeatingNode* repeating_node() const { return body_.get(); }

  // Child 0 is one iteration of the repeating node; its outcome's status
  // says whether to go on looping.
  Outcome Resume(Frame& frame, int next_child,
                 absl::Span<const Outcome> done) override;
  void ForEachChild(ChildVisitor visitor) override { visitor(body_.slot()); }

  // Adds `iterations` to the call target of `node`'s root (Truffle's
  // LoopNode.reportLoopCount).
  static void ReportLoopCount(Node& node, int iterations);

 private:
  int OsrPollMask();
  // The runtime of the enclosing call target (null outside one), found once.
  NodeRuntime* Runtime();

  Child<RepeatingNode> body_;
  // NodeRuntime::OsrPollMask(), asked once (kUnknownMask until then).
  static constexpr int kUnknownMask = -2;
  std::atomic<int> osr_poll_mask_{kUnknownMask};
  std::atomic<NodeRuntime*> runtime_{nullptr};
};

}  // namespace morel

#endif  // MOREL_NODES_LOOP_NODE_H_
