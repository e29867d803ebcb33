#include "languages/sl/nodes/literal_nodes.h"

#include "base/check.h"

namespace morel::sl {

void SLFunctionLiteralNode::CheckInContext(SLFunction* const* table) {
  MOREL_CHECK_MSG(table != nullptr, "shared SL code runs outside of a context");
}

}  // namespace morel::sl
