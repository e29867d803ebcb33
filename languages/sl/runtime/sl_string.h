#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_STRING_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_STRING_H_

// SLString: an immutable byte string in the collected heap (pointer-free
// memory). SL never indexes strings, so UTF-8 bytes pass through unchanged
// (sl_spec §11).

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"
#include "languages/sl/runtime/values.h"
#include "nodes/value.h"

namespace morel::sl {

struct SLString {
  size_t length;
  char data[1];  // `length` bytes follow, then a NUL

  absl::string_view view() const { return absl::string_view(data, length); }
};

// A new collected string holding `text`.
SLString* NewString(absl::string_view text);
Value StringValue(absl::string_view text);
// `a` followed by `b`.
Value ConcatStrings(absl::string_view a, absl::string_view b);

inline absl::string_view StringView(const Value& v) {
  return v.As<SLString>()->view();
}

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_STRING_H_
