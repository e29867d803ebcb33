#include "inliner/trivial_only_policy.h"

namespace morel::inliner {

void TrivialOnlyInliningPolicy::Run(CallTree& tree) {
  for (const auto& child : tree.root().children()) {
    if (!AcceptForInline(child->name(), options_.inline_only)) continue;
    if (!child->trivial()) continue;
    // Truffle expands unconditionally; a child some other hook already
    // expanded (a tree built with the Default policy's hook) is inlined as is.
    if (child->state() == CallNodeState::kCutoff) tree.Expand(*child);
    if (child->state() == CallNodeState::kExpanded) tree.Inline(*child);
  }
}

}  // namespace morel::inliner
