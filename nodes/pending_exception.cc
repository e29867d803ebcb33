#include "nodes/pending_exception.h"

#include <cstdio>
#include <cstdlib>

namespace morel {
namespace {
thread_local std::exception_ptr pending;
}  // namespace

void SetPendingException(std::exception_ptr error) { pending = std::move(error); }

void RethrowPendingException() {
  std::exception_ptr error = std::move(pending);
  pending = nullptr;
  if (!error) {
    std::fprintf(stderr, "morel: a pending-exception marker without an exception\n");
    std::abort();
  }
  std::rethrow_exception(error);
}

}  // namespace morel
