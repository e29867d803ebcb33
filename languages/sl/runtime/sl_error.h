#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_ERROR_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_ERROR_H_

// SL guest errors (sl_spec §8) and the exit request of exit(n).

#include <initializer_list>
#include <string>

#include "absl/strings/string_view.h"
#include "nodes/guest_error.h"
#include "nodes/source.h"
#include "nodes/value.h"

namespace morel::sl {

class SLError : public GuestError {
 public:
  using GuestError::GuestError;
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
