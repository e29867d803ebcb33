#ifndef MOREL_TESTING_TEST_LANGUAGE_VALUES_H_
#define MOREL_TESTING_TEST_LANGUAGE_VALUES_H_

// The test language's values: the framework's longs, booleans and doubles,
// plus strings (in the collected heap) and functions (a call target).

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"
#include "nodes/guest_error.h"
#include "nodes/value.h"

namespace morel {
class CallTarget;
}

namespace morel::test_language {

// Payload: a CallTarget* (call targets are not in the collected heap).
inline constexpr ValueTag kFunctionTag = kFirstLanguageTag;
// Payload: a TlString* in the collected heap.
inline constexpr ValueTag kStringTag = kFirstReferenceTag;

// An immutable string, allocated pointer-free (heap::AllocateAtomic).
struct TlString {
  size_t length;
  char chars[1];  // `length` characters and a terminating NUL
};

Value MakeString(absl::string_view text);
// The characters of a kStringTag value.
absl::string_view StringOf(Value value);

Value FunctionValue(CallTarget* target);
CallTarget* AsFunction(Value value);

// "12", "true", "1.5", the string itself, "<fn name>", "<illegal>".
std::string ToDisplayString(Value value);

// Errors of test-language programs (type errors, explicit throws).
class TlError : public GuestError {
 public:
  using GuestError::GuestError;
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_VALUES_H_
