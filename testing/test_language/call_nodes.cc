#include "testing/test_language/call_nodes.h"

#include <alloca.h>

#include "absl/strings/str_cat.h"

namespace morel::test_language {
namespace {

// Evaluates `arguments` into `values` (on the caller's native stack, where
// the collector sees them).
void EvaluateArguments(ChildList<TlExpression>& arguments, Frame& frame, Value* values) {
  for (size_t i = 0; i < arguments.size(); ++i) values[i] = arguments[i]->Execute(frame);
}

}  // namespace

Value CallDirectNode::Execute(Frame& frame) {
  size_t count = arguments_.size();
  auto* values = static_cast<Value*>(alloca(sizeof(Value) * (count + 1)));
  EvaluateArguments(arguments_, frame, values);
  return call_->Call(absl::Span<const Value>(values, count));
}

Value InvokeIndirectly(InvokeNode* node, Value callee, absl::Span<const Value> arguments) {
  return node->indirect_call()->Call(AsFunction(callee), arguments);
}

Value InvokeNode::Execute(Frame& frame) {
  Value callee = callee_->Execute(frame);
  size_t count = arguments_.size();
  auto* values = static_cast<Value*>(alloca(sizeof(Value) * (count + 1)));
  EvaluateArguments(arguments_, frame, values);
  return specializer_.Execute(*this, callee, absl::Span<const Value>(values, count));
}

Value InvokeNode::Fallback(InvokeNode&, Value callee, absl::Span<const Value>) {
  throw TlError(absl::StrCat("not a function: ", ToDisplayString(callee)));
}

}  // namespace morel::test_language
