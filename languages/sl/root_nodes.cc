#include "languages/sl/root_nodes.h"

#include <alloca.h>

#include "languages/sl/builtins.h"
#include "languages/sl/node_builder.h"
#include "languages/sl/runtime/values.h"
#include "languages/sl/sl_context.h"
#include "nodes/bytecode/bytecode_switch.h"

// SL's bytecode interpreter switch (root_nodes.h: the operations it inlines).
template class morel::bytecode::BytecodeRootNodeWith<morel::sl::SLInlinedOperations>;

namespace morel::sl {

SLFunctionRootNode::SLFunctionRootNode(SourceSection section, std::string name,
                                       std::unique_ptr<FrameDescriptor> descriptor,
                                       std::vector<int> parameter_slots,
                                       std::unique_ptr<SLBlockNode> body, FunctionBinding binding,
                                       std::shared_ptr<const ast::Program> program,
                                       int function_index)
    : RootNode(std::move(section), std::move(name), std::move(descriptor)),
      parameter_slots_(std::move(parameter_slots)),
      body_(std::move(body)),
      binding_(binding),
      program_(std::move(program)),
      function_index_(function_index) {}

std::unique_ptr<RootNode> SLFunctionRootNode::CloneUninitialized() const {
  return BuildFunctionRoot(binding_, program_, source_section().source, function_index_);
}

SLBytecodeRootNode::SLBytecodeRootNode(SourceSection section, std::string name,
                                       std::unique_ptr<FrameDescriptor> descriptor,
                                       bytecode::BytecodeProgram code, FunctionBinding binding,
                                       std::shared_ptr<const ast::Program> program,
                                       int function_index)
    : BytecodeRootNodeWith(std::move(section), std::move(name), std::move(descriptor),
                           std::move(code)),
      binding_(binding),
      program_(std::move(program)),
      function_index_(function_index) {}

std::unique_ptr<RootNode> SLBytecodeRootNode::CloneUninitialized() const {
  return BuildFunctionRoot(binding_, program_, source_section().source, function_index_);
}

SLBuiltinRootNode::SLBuiltinRootNode(const BuiltinSpec& spec, SLContext* context)
    : RootNode({}, spec.name, nullptr),
      spec_(spec),
      arity_(spec.arity),
      function_(spec.function),
      context_(context) {}

bool SLBuiltinRootNode::InspectsCallerFrame() const {
  return spec_.inspects_caller_frame || spec_.writes_caller_frame;
}
bool SLBuiltinRootNode::WritesCallerFrame() const { return spec_.writes_caller_frame; }
bool SLBuiltinRootNode::may_run_guest_code() const { return spec_.may_run_guest_code; }
bool SLBuiltinRootNode::calls_guest_functions() const { return spec_.calls_guest_functions; }
DirectlyCallableBuiltin::Intrinsic SLBuiltinRootNode::intrinsic() const { return spec_.intrinsic; }

Value SLBuiltinRootNode::Execute(Frame& frame) { return InvokeDirectly(frame.arguments()); }

Value SLBuiltinRootNode::InvokeDirectly(absl::Span<const Value> args) const {
  SLContext& context = context_ != nullptr ? *context_ : SLContext::Current();
  const int arity = arity_;
  if (args.size() == static_cast<size_t>(arity)) return function_(context, args);
  // On the native stack, where the collector sees the values.
  auto* padded = static_cast<Value*>(alloca(sizeof(Value) * (arity + 1)));
  for (int i = 0; i < arity; ++i) {
    padded[i] = static_cast<size_t>(i) < args.size() ? args[i] : NullValue();
  }
  return function_(context, absl::Span<const Value>(padded, arity));
}

}  // namespace morel::sl
