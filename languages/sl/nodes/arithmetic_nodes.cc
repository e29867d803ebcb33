#include "languages/sl/nodes/arithmetic_nodes.h"

#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/value_printing.h"

namespace morel::sl {

namespace {
SLString* AsConcatOperand(const Value& v) {
  return IsString(v) ? AsString(v) : NewString(ConcatString(v));
}
}  // namespace

Value ConcatValues(Value left, Value right) {
  return ConcatStrings(AsConcatOperand(left), AsConcatOperand(right));
}

Value CheckedBigDiv(const SLDivNode* node, Value left, Value right) {
  if (right.IsLong() && right.AsLong() == 0) {
    ThrowTypeError(&node->source_section(), "/", {left, right});
  }
  return BigDiv(left, right);
}

Value SLAddNode::Fallback(SLAddNode& node, Value l, Value r) {
  ThrowTypeError(&node.source_section(), "+", {l, r});
}
Value SLSubNode::Fallback(SLSubNode& node, Value l, Value r) {
  ThrowTypeError(&node.source_section(), "-", {l, r});
}
Value SLMulNode::Fallback(SLMulNode& node, Value l, Value r) {
  ThrowTypeError(&node.source_section(), "*", {l, r});
}
Value SLDivNode::Fallback(SLDivNode& node, Value l, Value r) {
  ThrowTypeError(&node.source_section(), "/", {l, r});
}

}  // namespace morel::sl
