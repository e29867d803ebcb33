#include "nodes/loop_node.h"

#include "nodes/call_target.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"

namespace morel {
namespace {

// Reports iterations even when the loop is left by a guest error.
class IterationReporter {
 public:
  explicit IterationReporter(Node& loop) : loop_(loop) {}
  ~IterationReporter() {
    if (iterations_ > 0) LoopNode::ReportLoopCount(loop_, iterations_);
  }
  void Count() {
    if (iterations_ < (1 << 30)) ++iterations_;
  }

 private:
  Node& loop_;
  int iterations_ = 0;
};

}  // namespace

int LoopNode::Execute(Frame& frame) {
  IterationReporter reporter(*this);
  RepeatingNode* body = body_.get();
  int status;
  while ((status = body->ExecuteRepeating(frame)) == RepeatingNode::kContinueLoop) {
    reporter.Count();
  }
  return status;
}

Outcome LoopNode::Resume(Frame& frame, int next_child,
                         absl::Span<const Outcome> done) {
  if (next_child == 0) return Outcome::OfStatus(Execute(frame));
  int status = done[0].status;
  if (status != RepeatingNode::kContinueLoop) return Outcome::OfStatus(status);
  ReportLoopCount(*this, 1);  // the iteration that was resumed
  return Outcome::OfStatus(Execute(frame));
}

void LoopNode::ReportLoopCount(Node& node, int iterations) {
  RootNode* root = node.GetRootNode();
  if (root == nullptr || root->call_target() == nullptr) return;
  CallTarget* target = root->call_target();
  target->AddLoopCount(iterations);
  target->runtime()->OnLoopCount(*target, iterations);
}

}  // namespace morel
