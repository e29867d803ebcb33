#include "inliner/default_policy.h"

#include <queue>
#include <vector>

namespace morel::inliner {
namespace {

// Both queues poll a non-trivial node before a trivial one, then higher
// frequency first, then lower id. std::priority_queue pops its greatest
// element, so this is "`a` polls after `b`".
struct PollsAfter {
  bool operator()(const CallNode* a, const CallNode* b) const {
    if (a->trivial() != b->trivial()) return a->trivial();
    if (a->frequency() != b->frequency()) return a->frequency() < b->frequency();
    return a->id() > b->id();
  }
};

using Queue = std::priority_queue<CallNode*, std::vector<CallNode*>, PollsAfter>;

void QueueChildren(const CallNode& node, CallNodeState state, Queue& queue) {
  for (const auto& child : node.children()) {
    if (child->state() == state) queue.push(child.get());
  }
}

}  // namespace

void DefaultInliningPolicy::Run(CallTree& tree) {
  ExpandStep(tree);
  Analyse(tree.root());
  InlineStep(tree);
}

void DefaultInliningPolicy::ExpandStep(CallTree& tree) {
  int expanded = tree.root().ir_nodes();
  Queue queue;
  QueueChildren(tree.root(), CallNodeState::kCutoff, queue);
  while (!queue.empty()) {
    CallNode* candidate = queue.top();
    queue.pop();
    // The Default hook only expands children not queued yet; another
    // policy's AfterExpand (the tree's bound hook) might not.
    if (candidate->state() != CallNodeState::kCutoff) continue;
    // Past the budget only forced call sites (DirectCallNode::ForceInlining)
    // are still expanded: what the language forces is honoured.
    if (expanded >= options_.expansion_budget && !candidate->forced()) continue;
    if (candidate->recursion_depth() > options_.recursion_depth ||
        candidate->depth() > options_.max_depth) {
      continue;
    }
    tree.Expand(*candidate);
    if (candidate->state() == CallNodeState::kExpanded) {
      expanded += candidate->ir_nodes();
      QueueChildren(*candidate, CallNodeState::kCutoff, queue);
    }
  }
}

void DefaultInliningPolicy::Analyse(CallNode& node) {
  for (const auto& child : node.children()) Analyse(*child);
  if (node.state() == CallNodeState::kCutoff && node.recursion_depth() == 0) {
    node.set_call_diff(node.frequency());
  } else if (node.state() == CallNodeState::kExpanded) {
    double call_diff = -node.frequency();
    for (const auto& child : node.children()) {
      CallNodeState state = child->state();
      if (state != CallNodeState::kIndirect && state != CallNodeState::kRemoved &&
          state != CallNodeState::kBailedOut) {
        call_diff += child->call_diff();
      }
    }
    node.set_call_diff(call_diff > 0 ? node.frequency() : call_diff);
  }
}

void DefaultInliningPolicy::InlineStep(CallTree& tree) {
  Queue queue;
  QueueChildren(tree.root(), CallNodeState::kExpanded, queue);
  int root_size = tree.root().ir_nodes();
  bool budget_spent = false;
  while (!queue.empty()) {
    CallNode* candidate = queue.top();
    queue.pop();
    if (!AcceptForInline(candidate->name(), options_.inline_only)) continue;
    // Truffle stops inlining completely once the budget is spent (trivial
    // callees included); forced candidates still in the queue are inlined
    // all the same.
    if (budget_spent && !candidate->forced()) continue;
    if (candidate->trivial()) {
      tree.Inline(*candidate);
      continue;
    }
    int cost = candidate->ir_nodes();
    // Forced (DirectCallNode::ForceInlining): inlined without budget or
    // call-diff test, like a trivial callee, but its own Expanded children
    // are still candidates.
    if (!candidate->forced()) {
      if (root_size + cost > options_.inlining_budget) {
        root_size = tree.CurrentRootSize();
        if (root_size + cost > options_.inlining_budget) {
          budget_spent = true;
          continue;
        }
      }
      if (candidate->call_diff() > 0) continue;
    }
    tree.Inline(*candidate);
    root_size += cost;
    QueueChildren(*candidate, CallNodeState::kExpanded, queue);
  }
}

void DefaultInliningPolicy::AfterExpand(CallTree& tree, CallNode& node) {
  for (const auto& child : node.children()) {
    if (child->trivial() && child->state() == CallNodeState::kCutoff &&
        child->recursion_depth() <= options_.recursion_depth) {
      tree.Expand(*child);
    }
  }
}

}  // namespace morel::inliner
