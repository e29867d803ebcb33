#include "testing/test_language/call_nodes.h"

#include "absl/strings/str_cat.h"

namespace morel::test_language {
Value InvokeIndirectly(InvokeNode* node, Value callee, absl::Span<const Value> arguments) {
  return node->indirect_call()->Call(AsFunction(callee), arguments);
}

Value InvokeNode::Fallback(InvokeNode&, Value callee, absl::Span<const Value>) {
  throw TlError(absl::StrCat("not a function: ", ToDisplayString(callee)));
}

}  // namespace morel::test_language
