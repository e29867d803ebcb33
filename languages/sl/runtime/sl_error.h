#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_ERROR_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_ERROR_H_

// SL guest errors (sl_spec §8) and the exit request of exit(n).

#include <initializer_list>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "nodes/guest_error.h"
#include "nodes/source.h"
#include "nodes/value.h"

namespace morel::sl {

class SLError : public GuestError {
 public:
  explicit SLError(std::string message) : GuestError(std::move(message)) {}
  // An error at `section` (its message names it too: Location()). A null or
  // invalid section is no location.
  SLError(std::string message, const SourceSection* section);

  // Where the error happened; line() is 0 when unknown.
  const std::string& source_name() const { return source_name_; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string source_name_;
  int line_ = 0;
  int column_ = 0;
};

// exit(n): unwinds to the launcher, which runs the shutdown hooks and exits.
class SLExit : public std::exception {
 public:
  explicit SLExit(int status) : status_(status) {}
  int status() const { return status_; }
  const char* what() const noexcept override { return "exit"; }

 private:
  int status_;
};

// "Type error at <source> line L col C: operation "<op>" not defined for
// <v1>, <v2>"; without a valid section (inside builtins) the location part
// is left out.
[[noreturn]] void ThrowTypeError(const SourceSection* section,
                                 absl::string_view operation,
                                 std::initializer_list<Value> values);
[[noreturn]] void ThrowUndefinedFunction(const Value& callee);
[[noreturn]] void ThrowUndefinedProperty(absl::string_view key);
// " at <source> line L col C", or "" without a valid section.
std::string Location(const SourceSection* section);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_ERROR_H_
