#ifndef MOREL_NODES_PENDING_EXCEPTION_H_
#define MOREL_NODES_PENDING_EXCEPTION_H_

// The compiled-code protocol for guest errors (DESIGN §5: no C++ exception
// crosses a machine-code frame). A C++ boundary that compiled code calls
// (runtime functions, calls to other call targets, deoptimization) catches
// whatever is thrown, parks it here and returns PendingExceptionMarker();
// compiled code returns the marker to its caller at once; the engine's
// entry into compiled code sees it and rethrows on its C++ side.

#include <exception>

#include "nodes/value.h"

namespace morel {

inline Value PendingExceptionMarker() { return Value{0, kPendingExceptionTag}; }

// Parks `error` for this thread (replacing nothing: one at a time).
void SetPendingException(std::exception_ptr error);
// Rethrows and clears the parked exception.
[[noreturn]] void RethrowPendingException();

// Runs `body` (returning a Value); a thrown exception becomes the marker.
template <typename Body>
Value CatchIntoMarker(Body&& body) {
  try {
    return body();
  } catch (...) {
    SetPendingException(std::current_exception());
    return PendingExceptionMarker();
  }
}

}  // namespace morel

#endif  // MOREL_NODES_PENDING_EXCEPTION_H_
