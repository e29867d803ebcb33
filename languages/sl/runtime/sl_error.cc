#include "languages/sl/runtime/sl_error.h"

#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/value_printing.h"

namespace morel::sl {

SLError::SLError(std::string message, const SourceSection* section)
    : GuestError(std::move(message)) {
  if (section == nullptr || !section->IsValid()) return;
  source_name_ = std::string(section->source->name());
  line_ = section->line;
  column_ = section->column;
}

std::string Location(const SourceSection* section) {
  if (section == nullptr || !section->IsValid()) return "";
  return absl::StrCat(" at ", section->source->name(), " line ", section->line,
                      " col ", section->column);
}

void ThrowTypeError(const SourceSection* section, absl::string_view operation,
                    std::initializer_list<Value> values) {
  std::string message = absl::StrCat("Type error", Location(section));
  absl::StrAppend(&message, ": operation \"", operation, "\" not defined for ");
  bool first = true;
  for (const Value& value : values) {
    if (!first) absl::StrAppend(&message, ", ");
    first = false;
    absl::StrAppend(&message, TypeErrorValue(value));
  }
  throw SLError(std::move(message), section);
}

void ThrowUndefinedFunction(const Value& callee) {
  throw SLError(absl::StrCat("Undefined function: ", HostString(callee)));
}

void ThrowUndefinedProperty(absl::string_view key) {
  throw SLError(absl::StrCat("Undefined property: ", key));
}

}  // namespace morel::sl
