#include "testing/test_language/loop_nodes.h"

namespace morel::test_language {

int WhileRepeatingNode::ExecuteRepeating(Frame& frame) {
  Value condition = condition_->Execute(frame);
  if (!condition.IsBoolean() || !condition.AsBoolean()) return kBreakLoop;
  body_->Execute(frame);
  return kContinueLoop;
}

std::unique_ptr<TlExpression> WhileNode::CloneUninitialized() const {
  auto* repeating = static_cast<WhileRepeatingNode*>(loop_->repeating_node());
  return std::make_unique<WhileNode>(repeating->condition()->CloneUninitialized(),
                                     repeating->body()->CloneUninitialized());
}

}  // namespace morel::test_language
