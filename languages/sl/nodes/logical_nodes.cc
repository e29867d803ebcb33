#include "languages/sl/nodes/logical_nodes.h"

#include "base/check.h"

namespace morel::sl {

Value SLToBooleanNode::Execute(Frame &) {
  MOREL_CHECK_MSG(false, "SLToBooleanNode runs only as a bytecode operation");
  return Value::Illegal();
}

}  // namespace morel::sl
