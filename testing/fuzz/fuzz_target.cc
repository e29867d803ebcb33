#include "testing/fuzz/fuzz_target.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace morel::fuzz {

void FuzzFailure(absl::string_view property, absl::string_view details) {
  std::fprintf(stderr, "fuzz property failed: %s\n%s\n", std::string(property).c_str(),
               std::string(details).c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace morel::fuzz
