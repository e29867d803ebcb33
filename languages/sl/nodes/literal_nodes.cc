#include "languages/sl/nodes/literal_nodes.h"

#include "base/check.h"

namespace morel::sl {

Value SLFunctionLiteralNode::Execute(Frame&) {
  SLFunction* const* table = ids_->current_table();
  MOREL_CHECK_MSG(table != nullptr, "shared SL code runs outside of a context");
  return table[id_]->AsValue();
}

}  // namespace morel::sl
