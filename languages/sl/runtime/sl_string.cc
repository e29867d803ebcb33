#include "languages/sl/runtime/sl_string.h"

#include <cstring>

#include "nodes/heap.h"

namespace morel::sl {

namespace {
SLString* Allocate(size_t length) {
  auto* string = static_cast<SLString*>(
      heap::AllocateAtomic(offsetof(SLString, data) + length + 1));
  string->length = length;
  string->data[length] = '\0';
  return string;
}
}  // namespace

SLString* NewString(absl::string_view text) {
  SLString* string = Allocate(text.size());
  if (!text.empty()) std::memcpy(string->data, text.data(), text.size());
  return string;
}

Value StringValue(absl::string_view text) {
  return Value::Reference(kStringTag, NewString(text));
}

Value ConcatStrings(absl::string_view a, absl::string_view b) {
  SLString* string = Allocate(a.size() + b.size());
  if (!a.empty()) std::memcpy(string->data, a.data(), a.size());
  if (!b.empty()) std::memcpy(string->data + a.size(), b.data(), b.size());
  return Value::Reference(kStringTag, string);
}

}  // namespace morel::sl
