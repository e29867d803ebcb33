// The entry point of the x86_64 backend as a shared object
// (libmorel_backend_x86_64.so), loaded with --engine.BackendPlugin=path.so.
// See engine/codegen/backend_plugin_api.h for why this is an exported symbol
// rather than a static initializer.

#include "backend_x86_64/x86_64_backend.h"
#include "engine/codegen/backend_plugin_api.h"

namespace {

morel::codegen::Backend* Create() { return morel::x86_64::CreateX86_64Backend().release(); }

}  // namespace

extern "C" __attribute__((visibility("default"))) int MorelRegisterBackend(
    const MorelBackendHost* host) {
  if (host == nullptr || host->abi_version != kMorelBackendPluginAbiVersion) return 1;
  return host->register_backend(host->context, morel::x86_64::kBackendName, &Create);
}
