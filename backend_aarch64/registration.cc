// Registers the AArch64 backend with the process-wide registry when this
// translation unit is linked (the :registration target is alwayslink, so a
// binary that depends on it gets the backend without referencing a symbol).

#include "backend_aarch64/aarch64_backend.h"
#include "engine/codegen/backend_registry.h"

namespace morel::aarch64 {
namespace {

bool Register() {
  absl::Status s = codegen::RegisterBackend(kBackendName, &CreateAarch64Backend);
  return s.ok();
}

[[maybe_unused]] const bool registered = Register();

}  // namespace
}  // namespace morel::aarch64
