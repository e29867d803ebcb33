// The entry point of the AArch64 backend as a shared object
// (libmorel_backend_aarch64.so), loaded with --engine.BackendPlugin=path.so.
// See engine/codegen/backend_plugin_api.h for why this is an exported symbol
// rather than a static initializer.

#include "backend_aarch64/aarch64_backend.h"
#include "engine/codegen/backend_plugin_api.h"

namespace {

morel::codegen::Backend* Create() { return morel::aarch64::CreateAarch64Backend().release(); }

}  // namespace

extern "C" __attribute__((visibility("default"))) int MorelRegisterBackend(
    const MorelBackendHost* host) {
  if (host == nullptr || host->abi_version != kMorelBackendPluginAbiVersion) return 1;
  return host->register_backend(host->context, morel::aarch64::kBackendName, &Create);
}
