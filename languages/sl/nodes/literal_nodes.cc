#include "languages/sl/nodes/literal_nodes.h"

#include "base/check.h"
#include "languages/sl/runtime/sl_function.h"

namespace morel::sl {

Value LookupCurrentFunction(const SLFunctionLiteralNode* node) {
  FunctionRegistry* registry = FunctionRegistry::Current();
  MOREL_CHECK_MSG(registry != nullptr,
                  "shared SL code runs outside of a context (no current registry)");
  return registry->LookupId(node->id())->AsValue();
}

Value SLFunctionLiteralNode::Execute(Frame&) { return LookupCurrentFunction(this); }

}  // namespace morel::sl
