#include "languages/sl/nodes/comparison_nodes.h"

#include "languages/sl/runtime/big_integer.h"
#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/sl_string.h"

namespace morel::sl {

bool NumbersLess(Value l, Value r) { return BigCompare(l, r) < 0; }
bool NumbersLessEqual(Value l, Value r) { return BigCompare(l, r) <= 0; }
bool StringsEqual(Value l, Value r) {
  if (l.bits == r.bits) return true;
  // Different lengths never flatten a rope.
  if (AsString(l)->length() != AsString(r)->length()) return false;
  absl::string_view a = StringView(l);
  absl::string_view b = StringView(r);
  // Short strings (keys, words) inline: cheaper than a call of memcmp.
  if (a.size() <= 16) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  return a == b;
}

std::optional<bool> FoldStringsEqual(Value l, Value r) {
  if (!IsString(l) || !IsString(r)) return std::nullopt;
  std::optional<absl::string_view> a = AsString(l)->FlatView(), b = AsString(r)->FlatView();
  if (!a.has_value() || !b.has_value()) return std::nullopt;
  return *a == *b;
}

bool ValuesEqual(Value l, Value r) {
  // Meta-objects have no identity (sl_spec §6.5 QUIRK).
  if (IsType(l) || IsType(r)) return false;
  if (IsNumber(l) && IsNumber(r)) return BigCompare(l, r) == 0;
  if (l.tag != r.tag) return false;
  if (IsString(l)) return StringsEqual(l, r);
  // Booleans, NULL, functions (one per name) and objects (identity).
  return l.bits == r.bits;
}

Value SLLessThanNode::Fallback(SLLessThanNode& node, Value l, Value r) {
  ThrowTypeError(&node.source_section(), "<", {l, r});
}
Value SLLessOrEqualNode::Fallback(SLLessOrEqualNode& node, Value l, Value r) {
  ThrowTypeError(&node.source_section(), "<=", {l, r});
}
Value SLEqualNode::Fallback(SLEqualNode&, Value l, Value r) {
  return Value::Boolean(ValuesEqual(l, r));
}

}  // namespace morel::sl
