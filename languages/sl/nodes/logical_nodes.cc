#include "languages/sl/nodes/logical_nodes.h"

#include "base/check.h"

namespace morel::sl {

void ThrowToBooleanError(const Value& value, const Node& node) {
  ThrowTypeError(&node.source_section(), "toBoolean", {value});
}

Value SLToBooleanNode::Execute(Frame&) {
  MOREL_CHECK_MSG(false, "SLToBooleanNode runs only as a bytecode operation");
  return Value::Illegal();
}

}  // namespace morel::sl
