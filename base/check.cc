#include "base/check.h"

#include <cstdio>
#include <cstdlib>

namespace morel::base_internal {

void CheckFailed(const char* file, int line, const char* condition,
                 absl::string_view message) {
  // One fprintf: the line reaches stderr whole even if other threads write.
  if (condition == nullptr) {
    std::fprintf(stderr, "morel: unreachable code reached at %s:%d: %.*s\n", file, line,
                 static_cast<int>(message.size()), message.data());
  } else if (message.empty()) {
    std::fprintf(stderr, "morel: check failed at %s:%d: %s\n", file, line, condition);
  } else {
    std::fprintf(stderr, "morel: check failed at %s:%d: %s: %.*s\n", file, line, condition,
                 static_cast<int>(message.size()), message.data());
  }
  std::fflush(stderr);
  std::abort();
}

}  // namespace morel::base_internal
