#ifndef MOREL_NODES_STACK_LIMIT_H_
#define MOREL_NODES_STACK_LIMIT_H_

// Guards the native stack against guest recursion: CallTarget::Call checks
// IsExceeded() and raises a guest StackOverflowError while enough stack is
// left to unwind and report it.

#include <cstddef>
#include <cstdint>

namespace morel {

class StackLimit {
 public:
  // Bytes kept free below the limit for unwinding, error reporting and
  // runtime calls.
  static constexpr size_t kReserve = 256 * 1024;

  static bool IsExceeded() {
    uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    if (limit_ == 0) InitializeForCurrentThread();
    return here < limit_;
  }

  // Distinct for every live thread (the address of its limit): a thread
  // that exited may pass its token on to a later thread.
  static const void* ThreadToken() { return &limit_; }

  // The lowest usable address of this thread's stack plus kReserve.
  static void InitializeForCurrentThread();

  // Where this thread's limit lives (initialized first if needed). Compiled
  // code reads the limit in its prologue through the thread pointer
  // (engine/runtime/native_tier.cc).
  static const uintptr_t* LimitAddress() {
    if (limit_ == 0) InitializeForCurrentThread();
    return &limit_;
  }

 private:
  // Defined here, constant-initialized: IsExceeded() in other files reads
  // it without a call to a thread_local wrapper.
  static inline thread_local uintptr_t limit_ = 0;
};

}  // namespace morel

#endif  // MOREL_NODES_STACK_LIMIT_H_
