#include "testing/test_language/expression_nodes.h"

#include "absl/strings/str_cat.h"
#include "testing/test_language/values.h"

namespace morel::test_language {

ExpressionList CloneAll(const ChildList<TlExpression>& list) {
  ExpressionList copies;
  for (size_t i = 0; i < list.size(); ++i) {
    copies.push_back(list[i]->CloneUninitialized());
  }
  return copies;
}

Value ArgumentNode::Execute(Frame& frame) {
  if (index_ >= static_cast<int>(frame.arguments().size())) {
    throw TlError(absl::StrCat("missing argument ", index_));
  }
  return frame.arguments()[index_];
}

Value ReadLocalNode::Execute(Frame& frame) {
  if (!frame.IsInitialized(slot_)) {
    throw TlError(absl::StrCat("uninitialized local ", frame.descriptor().name(slot_)));
  }
  return frame.Get(slot_);
}

Value WriteLocalNode::Execute(Frame& frame) {
  Value value = value_->Execute(frame);
  frame.descriptor().RecordWrite(slot_, value);
  frame.Set(slot_, value);
  return value;
}

Value BlockNode::Execute(Frame& frame) {
  Value last = Value::Illegal();
  for (size_t i = 0; i < body_.size(); ++i) last = body_[i]->Execute(frame);
  return last;
}

Value LessThanNode::Execute(Frame& frame) {
  Value left = left_->Execute(frame);
  Value right = right_->Execute(frame);
  if (!left.IsLong() || !right.IsLong()) {
    throw TlError(absl::StrCat("type error: ", ToDisplayString(left), " < ",
                               ToDisplayString(right)));
  }
  return Value::Boolean(left.AsLong() < right.AsLong());
}

Value ThrowIfNode::Execute(Frame& frame) {
  Value condition = condition_->Execute(frame);
  if (condition.IsBoolean() && condition.AsBoolean()) throw TlError(message_);
  return Value::Boolean(false);
}

}  // namespace morel::test_language
