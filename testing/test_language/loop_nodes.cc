#include "testing/test_language/loop_nodes.h"

namespace morel::test_language {

std::unique_ptr<TlExpression> WhileNode::CloneUninitialized() const {
  auto* repeating = static_cast<WhileRepeatingNode*>(loop_->repeating_node());
  return std::make_unique<WhileNode>(repeating->condition()->CloneUninitialized(),
                                     repeating->body()->CloneUninitialized());
}

}  // namespace morel::test_language
