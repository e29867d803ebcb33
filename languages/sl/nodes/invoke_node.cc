#include "languages/sl/nodes/invoke_node.h"

#include <alloca.h>

#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/sl_object.h"

namespace morel::sl {

std::optional<InvokeDirect::Cache> InvokeDirect::Create(SLInvokeNode& node, Value callee,
                                                        absl::Span<const Value>) {
  if (!IsFunction(callee)) return std::nullopt;
  SLFunction* function = callee.As<SLFunction>();
  std::shared_ptr<Assumption> stable = function->call_target_stable();
  CallTarget* target = function->call_target();
  if (target == nullptr) return std::nullopt;
  const DirectlyCallableBuiltin* builtin = AsDirectlyCallableBuiltin(target);
  const DirectlyCallableBuiltin::Intrinsic intrinsic =
      builtin != nullptr ? builtin->intrinsic() : DirectlyCallableBuiltin::Intrinsic::kNone;
  Assumption* single_context = nullptr;
  if (FunctionIds* ids = node.shared_ids()) {
    single_context = ids->single_context();
    if (!single_context->IsValid()) {
      // Keyed by target only: several contexts' functions share it.
      return Cache{nullptr, nullptr,
                   nullptr, Child<DirectCallNode>(DirectCallNode::Create(target)),
                   builtin, intrinsic};
    }
  }
  return Cache{function,       std::move(stable),
               single_context, Child<DirectCallNode>(DirectCallNode::Create(target)),
               builtin,        intrinsic};
}

Value CallIndirect(SLInvokeNode* node, Value callee, absl::Span<const Value> args) {
  CallTarget* target = callee.As<SLFunction>()->call_target();
  if (target == nullptr) ThrowUndefinedFunction(callee);
  return node->indirect_call()->Call(target, args);
}

const DirectlyCallableBuiltin* AsDirectlyCallableBuiltin(CallTarget* target) {
  RootNode* root = target->root_node();
  if (root->InspectsCallerFrame()) return nullptr;
  const auto* builtin = dynamic_cast<const DirectlyCallableBuiltin*>(root);
  if (builtin != nullptr && builtin->calls_guest_functions()) return nullptr;
  return builtin;
}

Value InvokeBuiltin(const DirectlyCallableBuiltin* builtin, absl::Span<const Value> args) {
  return builtin->InvokeDirectly(args);
}

Value InvokeBuiltinOperation(const void* builtin, absl::Span<const Value> args) {
  return InvokeBuiltin(static_cast<const DirectlyCallableBuiltin*>(builtin), args);
}

Value IsNullOperation(const void*, absl::Span<const Value> args) {
  return Value::Boolean(args.empty() || IsNull(args[0]));
}

Value NewObjectOperation(const void*, absl::Span<const Value>) {
  return Value::Reference(kObjectTag, NewObject());
}

Value SLInvokeNode::Fallback(SLInvokeNode&, Value callee, absl::Span<const Value>) {
  ThrowUndefinedFunction(callee);
}

}  // namespace morel::sl
