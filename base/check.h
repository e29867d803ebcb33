#ifndef MOREL_BASE_CHECK_H_
#define MOREL_BASE_CHECK_H_

// The one idiom for invariant failures in Morel.
//
//   MOREL_CHECK(cond);                      aborts if `cond` is false
//   MOREL_CHECK_MSG(cond, message);         the same, with `message`
//   MOREL_UNREACHABLE(message);             aborts unconditionally
//
// `message` is anything convertible to absl::string_view (a literal, a
// std::string, an absl::StrCat(...)); it is evaluated only when the check
// fails. A failure writes one line to standard error,
//
//   morel: check failed at <file>:<line>: <cond>: <message>
//
// and aborts. Checks are always on (there is no debug-only variant): they
// guard invariants whose violation would otherwise corrupt memory or emit
// wrong machine code. Invariants are programming errors; bad input (a guest
// program, IR text, an option value) is reported through absl::Status
// instead, and a guest's own exit(n) is not a failure.

#include "absl/base/optimization.h"
#include "absl/strings/string_view.h"

namespace morel::base_internal {

// Writes the failure line and aborts. `condition` is null for
// MOREL_UNREACHABLE.
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition,
                              absl::string_view message);

}  // namespace morel::base_internal

#define MOREL_CHECK_MSG(cond, message)                                            \
  (ABSL_PREDICT_TRUE(cond)                                                        \
       ? static_cast<void>(0)                                                     \
       : ::morel::base_internal::CheckFailed(__FILE__, __LINE__, #cond, (message)))

#define MOREL_CHECK(cond) MOREL_CHECK_MSG(cond, "")

#define MOREL_UNREACHABLE(message) \
  ::morel::base_internal::CheckFailed(__FILE__, __LINE__, nullptr, (message))

#endif  // MOREL_BASE_CHECK_H_
