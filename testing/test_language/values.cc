#include "testing/test_language/values.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"

namespace morel::test_language {

Value MakeString(absl::string_view text) {
  auto* string = static_cast<TlString*>(
      heap::AllocateAtomic(offsetof(TlString, chars) + text.size() + 1));
  if (string == nullptr) throw std::bad_alloc();
  string->length = text.size();
  std::memcpy(string->chars, text.data(), text.size());
  string->chars[text.size()] = '\0';
  return Value::Reference(kStringTag, string);
}

absl::string_view StringOf(Value value) {
  const TlString* string = value.As<TlString>();
  return absl::string_view(string->chars, string->length);
}

Value FunctionValue(CallTarget* target) {
  return Value::Immediate(kFunctionTag, reinterpret_cast<uint64_t>(target));
}

CallTarget* AsFunction(Value value) {
  return reinterpret_cast<CallTarget*>(value.bits);
}

std::string ToDisplayString(Value value) {
  if (value.IsLong()) return absl::StrCat(value.AsLong());
  if (value.IsBoolean()) return value.AsBoolean() ? "true" : "false";
  if (value.IsDouble()) return absl::StrCat(value.AsDouble());
  if (value.Is(kStringTag)) return std::string(StringOf(value));
  if (value.Is(kFunctionTag)) return absl::StrCat("<fn ", AsFunction(value)->name(), ">");
  return "<illegal>";
}

}  // namespace morel::test_language
