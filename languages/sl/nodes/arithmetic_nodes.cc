#include "languages/sl/nodes/arithmetic_nodes.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/value_printing.h"

namespace morel::sl {

namespace {
SLString* AsConcatOperand(const Value& v) {
  return IsString(v) ? AsString(v) : NewString(ConcatString(v));
}
// v's text in a concatenation where reading it has no effect: a flat
// string's characters or a long's digits (written to `digits`).
std::optional<absl::string_view> FoldableText(
    Value v, char (&digits)[absl::numbers_internal::kFastToBufferSize]) {
  if (IsString(v)) return AsString(v)->FlatView();
  if (!v.IsLong()) return std::nullopt;
  char* end = absl::numbers_internal::FastIntToBuffer(v.AsLong(), digits);
  return absl::string_view(digits, end - digits);
}
}  // namespace

std::optional<Value> FoldConcatValues(Value left, Value right) {
  if (!IsString(left) && !IsString(right)) return std::nullopt;
  char left_digits[absl::numbers_internal::kFastToBufferSize];
  char right_digits[absl::numbers_internal::kFastToBufferSize];
  std::optional<absl::string_view> a = FoldableText(left, left_digits);
  std::optional<absl::string_view> b = FoldableText(right, right_digits);
  // Longer results stay calls rather than text embedded in the code.
  constexpr size_t kMaxFoldedBytes = 1024;
  if (!a.has_value() || !b.has_value() || a->size() + b->size() > kMaxFoldedBytes) {
    return std::nullopt;
  }
  return StringValue(absl::StrCat(*a, *b));
}

Value ConcatValues(Value left, Value right) {
  // String + long (either order), the common case of building text: the
  // number's digits go straight into the result.
  if (IsString(left) && right.IsLong()) {
    char digits[absl::numbers_internal::kFastToBufferSize];
    char* end = absl::numbers_internal::FastIntToBuffer(right.AsLong(), digits);
    return ConcatStringAndText(AsString(left), absl::string_view(digits, end - digits),
                               /*b_first=*/false);
  }
  if (left.IsLong() && IsString(right)) {
    char digits[absl::numbers_internal::kFastToBufferSize];
    char* end = absl::numbers_internal::FastIntToBuffer(left.AsLong(), digits);
    return ConcatStringAndText(AsString(right), absl::string_view(digits, end - digits),
                               /*b_first=*/true);
  }
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
