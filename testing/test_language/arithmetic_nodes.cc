#include "testing/test_language/arithmetic_nodes.h"

#include "absl/strings/str_cat.h"

namespace morel::test_language {
namespace {
double AsDouble(Value v) {
  return v.IsLong() ? static_cast<double>(v.AsLong()) : v.AsDouble();
}
}  // namespace

Value AddAsDoubles(Value left, Value right) {
  return Value::Double(AsDouble(left) + AsDouble(right));
}

Value ConcatAsStrings(Value left, Value right) {
  return MakeString(absl::StrCat(ToDisplayString(left), ToDisplayString(right)));
}

Value AddNode::Fallback(AddNode&, Value l, Value r) {
  throw TlError(
      absl::StrCat("type error: ", ToDisplayString(l), " + ", ToDisplayString(r)));
}

}  // namespace morel::test_language
