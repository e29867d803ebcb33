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
  int iterations() const { return iterations_; }

 private:
  Node& loop_;
  int iterations_ = 0;
};

}  // namespace

int RepeatingNode::PartialEvaluateLoop(pe::PartialEvaluator&) { return -1; }

int LoopNode::OsrPollMask() {
  int mask = osr_poll_mask_.load(std::memory_order_relaxed);
  if (mask != kUnknownMask) return mask;
  RootNode* root = GetRootNode();
  mask = root != nullptr && root->call_target() != nullptr
             ? root->call_target()->runtime()->OsrPollMask()
             : -1;
  osr_poll_mask_.store(mask, std::memory_order_relaxed);
  return mask;
}

NodeRuntime* LoopNode::Runtime() {
  NodeRuntime* runtime = runtime_.load(std::memory_order_relaxed);
  if (runtime != nullptr) return runtime;
  RootNode* root = GetRootNode();
  if (root == nullptr || root->call_target() == nullptr) return nullptr;
  runtime = root->call_target()->runtime();
  runtime_.store(runtime, std::memory_order_relaxed);
  return runtime;
}

int LoopNode::Execute(Frame& frame) {
  IterationReporter reporter(*this);
  RepeatingNode* body = body_.get();
  const int mask = OsrPollMask();
  NodeRuntime* runtime = Runtime();
  int status;
  while ((status = body->ExecuteRepeating(frame)) == RepeatingNode::kContinueLoop) {
    reporter.Count();
    if (runtime != nullptr && runtime->SafepointRequested()) [[unlikely]] {
      runtime->OnSafepoint();
    }
    if (mask >= 0 && (reporter.iterations() & mask) == 0) [[unlikely]] {
      // The runtime may run the rest of this loop in OSR-compiled code.
      CallTarget* target = GetRootNode()->call_target();
      if (target->runtime()->PollOSR(*this, frame, reporter.iterations(), &status)) {
        return status;
      }
    }
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
