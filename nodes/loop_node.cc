#include "nodes/loop_node.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <typeinfo>

#include "nodes/call_target.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"

namespace morel {

namespace {

// Whether `node` is a LoopNode (Node::role: cheaper than a type test on
// every ancestor of every reporting loop).
bool IsLoopNode(const Node& node) { return node.role() == Node::Role::kLoop; }

// Adds to `target`'s call-and-loop count and tells the runtime.
void ReportToCallTarget(RootNode* root, int iterations) {
  if (root == nullptr || root->call_target() == nullptr) return;
  CallTarget* target = root->call_target();
  target->AddLoopCount(iterations);
  target->runtime()->OnLoopCount(*target, iterations);
}

}  // namespace

int RepeatingNode::PartialEvaluateLoop(pe::PartialEvaluator&) { return -1; }

LoopNode::OsrPolling LoopNode::Polling() {
  int threshold = osr_threshold_.load(std::memory_order_acquire);
  if (threshold != kUnknown) {
    return {threshold, osr_interval_.load(std::memory_order_relaxed)};
  }
  NodeRuntime* runtime = Runtime();
  threshold = runtime != nullptr ? runtime->OsrLoopThreshold() : -1;
  const int interval = runtime != nullptr ? std::max(1, runtime->OsrLoopPollInterval()) : 1024;
  osr_interval_.store(interval, std::memory_order_relaxed);
  osr_threshold_.store(threshold < 0 ? -1 : threshold, std::memory_order_release);
  return {threshold < 0 ? -1 : threshold, interval};
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

int LoopNode::RunVirtual(LoopNode& loop, Frame& frame) {
  RepeatingNode* const body = loop.body_.get();
  return loop.Run(frame, [body, &frame] { return body->ExecuteRepeating(frame); });
}

bool LoopNode::PollOsr(Frame& frame, NodeRuntime* runtime, const OsrPolling& polling, int64_t count,
                       int64_t* next_poll, int* status) {
  // The runtime may run the rest of this loop in OSR-compiled code.
  const int clamped = count > INT_MAX ? INT_MAX : static_cast<int>(count);
  if (runtime->PollOSR(*this, frame, clamped, status)) return true;
  // Then every interval while the loop has an OSR target or is past the
  // threshold; else (the target went away) profiling again.
  *next_poll = has_osr_target() || count > polling.threshold ? count + polling.interval
                                                             : int64_t{polling.threshold} + 1;
  return false;
}

Outcome LoopNode::Resume(Frame& frame, int next_child,
                         absl::Span<const Outcome> done) {
  if (next_child == 0) return Outcome::OfStatus(Execute(frame));
  int status = done[0].status;
  if (status != RepeatingNode::kContinueLoop) return Outcome::OfStatus(status);
  ReportOwnIterations(1);  // the iteration that was resumed
  return Outcome::OfStatus(Execute(frame));
}

void LoopNode::ReportLoopCountToEntry(int iterations) {
  // Saturating; a lost update between concurrent entries is tolerated, as
  // for every profiling counter.
  const int base = base_loop_count_.load(std::memory_order_relaxed);
  base_loop_count_.store(base > INT_MAX - iterations ? INT_MAX : base + iterations,
                         std::memory_order_relaxed);
}

RootNode* LoopNode::ReportToEnclosingLoops(Node* node, int iterations) {
  Node* top = nullptr;
  for (; node != nullptr; node = node->parent()) {
    if (IsLoopNode(*node)) static_cast<LoopNode*>(node)->ReportLoopCountToEntry(iterations);
    top = node;
  }
  return top != nullptr ? top->GetRootNode() : nullptr;
}

void LoopNode::ReportOwnIterations(int iterations) {
  ReportToCallTarget(ReportToEnclosingLoops(parent(), iterations), iterations);
}

void LoopNode::ReportLoopCount(Node& node, int iterations) {
  if (iterations <= 0) return;
  ReportToCallTarget(ReportToEnclosingLoops(&node, iterations), iterations);
}

}  // namespace morel
