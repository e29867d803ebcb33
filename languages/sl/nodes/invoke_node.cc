#include "languages/sl/nodes/invoke_node.h"

#include <alloca.h>

#include "languages/sl/runtime/sl_error.h"

namespace morel::sl {

std::optional<InvokeDirect::Cache> InvokeDirect::Create(SLInvokeNode&, Value callee,
                                                        absl::Span<const Value>) {
  if (!IsFunction(callee)) return std::nullopt;
  SLFunction* function = callee.As<SLFunction>();
  CallTarget* target = function->call_target();
  if (target == nullptr) return std::nullopt;
  return Cache{function, target, Child<DirectCallNode>(DirectCallNode::Create(target))};
}

Value CallIndirect(SLInvokeNode* node, Value callee, absl::Span<const Value> args) {
  CallTarget* target = callee.As<SLFunction>()->call_target();
  if (target == nullptr) ThrowUndefinedFunction(callee);
  return node->indirect_call()->Call(target, args);
}

Value SLInvokeNode::Execute(Frame& frame) {
  Value callee = callee_->Execute(frame);
  size_t count = arguments_.size();
  // On the native stack, where the collector sees the values.
  auto* args = static_cast<Value*>(alloca(sizeof(Value) * (count + 1)));
  for (size_t i = 0; i < count; ++i) args[i] = Evaluate(arguments_[i], frame);
  return specializer_.Execute(*this, callee, absl::Span<const Value>(args, count));
}

Value SLInvokeNode::Fallback(SLInvokeNode&, Value callee, absl::Span<const Value>) {
  ThrowUndefinedFunction(callee);
}

}  // namespace morel::sl
