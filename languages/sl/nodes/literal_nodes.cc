#include "languages/sl/nodes/literal_nodes.h"

#include "base/check.h"

namespace morel::sl {

Value SLFunctionLiteralNode::Execute(Frame&) {
  SLFunction* const* table = ids_->current_table();
  MOREL_CHECK_MSG(table != nullptr, "shared SL code runs outside of a context");
  SLFunction* function = table[id_];
  if (single_context_function_.load(std::memory_order_relaxed) == nullptr &&
      ids_->single_context()->IsValid()) [[unlikely]] {
    single_context_function_.store(function, std::memory_order_release);
  }
  return function->AsValue();
}

}  // namespace morel::sl
