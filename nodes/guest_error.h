#ifndef MOREL_NODES_GUEST_ERROR_H_
#define MOREL_NODES_GUEST_ERROR_H_

// Guest errors: errors of the guest program (type errors, undefined names,
// stack overflow), as opposed to bugs of the engine. The interpreter unwinds
// them as C++ exceptions; languages subclass GuestError for their own kinds.

#include <exception>
#include <string>

namespace morel {

class GuestError : public std::exception {
 public:
  explicit GuestError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// Raised by CallTarget::Call when the guest recursion would exhaust the
// native stack. Never a crash.
class StackOverflowError : public GuestError {
 public:
  using GuestError::GuestError;
};

// A sandbox resource limit was exceeded (engine options MaxCPUTime,
// MaxHeapMemory, MaxStackFrames, MaxASTDepth, MaxOutputStreamSize): the
// guest program is cancelled. Once raised, every later safepoint and call of
// the same runtime raises it again, so the guest cannot catch it and go on;
// the embedder sees it like any guest error.
class ResourceLimitError : public GuestError {
 public:
  using GuestError::GuestError;
};

}  // namespace morel

#endif  // MOREL_NODES_GUEST_ERROR_H_
