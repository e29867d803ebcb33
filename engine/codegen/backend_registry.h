#ifndef MOREL_ENGINE_CODEGEN_BACKEND_REGISTRY_H_
#define MOREL_ENGINE_CODEGEN_BACKEND_REGISTRY_H_

// The process-wide backend registry, keyed by name ("x86_64", "aarch64").
// Backends register explicitly (RegisterBackend), from a small alwayslink
// registration target (backend_x86_64:registration), or from a shared object
// (LoadBackendPlugin, see backend_plugin_api.h). A backend is constructed on
// first lookup and lives until process exit. Thread-safe.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/codegen/backend.h"

namespace morel::codegen {

using BackendFactory = std::function<std::unique_ptr<Backend>()>;

// Fails with AlreadyExists if `name` is taken.
absl::Status RegisterBackend(absl::string_view name, BackendFactory factory);

// NotFound names the linked backends and asks whether support was linked in.
absl::StatusOr<Backend*> FindBackend(absl::string_view name);

std::vector<std::string> RegisteredBackendNames();

// dlopens `path` and calls its MorelRegisterBackend. Fails if the object
// cannot be loaded, lacks the symbol, has another ABI version or registers
// nothing. The object stays loaded until process exit.
absl::Status LoadBackendPlugin(const std::string& path);

// The engine option --engine.Backend as a registry name: "host" becomes the
// machine's architecture (uname), "x86_64"/"aarch64" stay.
std::string BackendNameForOption(absl::string_view option);

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_BACKEND_REGISTRY_H_
