#include "nodes/pending_exception.h"

#include "base/check.h"

namespace morel {
namespace {
thread_local std::exception_ptr pending;
}  // namespace

void SetPendingException(std::exception_ptr error) { pending = std::move(error); }

void RethrowPendingException() {
  std::exception_ptr error = std::move(pending);
  pending = nullptr;
  MOREL_CHECK_MSG(error != nullptr, "a pending-exception marker without an exception");
  std::rethrow_exception(error);
}

}  // namespace morel
