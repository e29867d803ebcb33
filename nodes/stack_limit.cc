#include "nodes/stack_limit.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace morel {


void StackLimit::InitializeForCurrentThread() {
  pthread_attr_t attributes;
  void* low = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    pthread_attr_getstack(&attributes, &low, &size);
    pthread_attr_destroy(&attributes);
  }
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (low == nullptr || size == 0) {
    // Unknown layout: assume the smallest common stack (1 MiB) below here.
    limit_ = here - (1 << 20) + kReserve;
    return;
  }
  uintptr_t bottom = reinterpret_cast<uintptr_t>(low);
  // The main thread's reported size can exceed what the rlimit lets grow;
  // other threads have exactly the stack they were created with.
  struct rlimit rl;
  bool main_thread = getpid() == static_cast<pid_t>(syscall(SYS_gettid));
  if (main_thread && getrlimit(RLIMIT_STACK, &rl) == 0 &&
      rl.rlim_cur != RLIM_INFINITY) {
    uintptr_t top = bottom + size;
    if (size > rl.rlim_cur) bottom = top - rl.rlim_cur;
  }
  limit_ = bottom + kReserve;
}

}  // namespace morel
