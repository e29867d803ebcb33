#ifndef MOREL_ENGINE_CODEGEN_BACKEND_PLUGIN_API_H_
#define MOREL_ENGINE_CODEGEN_BACKEND_PLUGIN_API_H_

// The contract between the engine and a backend shared object loaded with
// --engine.BackendPlugin=path.so (LoadBackendPlugin in backend_registry.h).
//
// The shared object exports one C symbol:
//
//   extern "C" int MorelRegisterBackend(const MorelBackendHost* host);
//
// and calls host->register_backend once per backend it provides, returning 0
// on success. Why not a static initializer calling RegisterBackend: a plugin
// links its own copy of engine/codegen, and whether its references bind to
// the host's copy depends on what the host exports (hosts that link
// //engine/codegen:backend_registry export everything, so that the plugin
// shares the host's Abseil and protobuf: //third_party:plugin.bzl). The host
// table routes the registration to the engine's registry whatever the
// binding.
//
// The ABI is C++ (Backend's vtable, the codegen structs): a plugin must be
// built from the same source tree with the same compiler; abi_version guards
// against accidental mismatches.

#include <cstdint>

namespace morel::codegen {
class Backend;
}  // namespace morel::codegen

extern "C" {

inline constexpr uint32_t kMorelBackendPluginAbiVersion = 1;

struct MorelBackendHost {
  uint32_t abi_version;
  void* context;
  // Returns 0 on success, non-zero if the name is taken or invalid.
  int (*register_backend)(void* context, const char* name,
                          morel::codegen::Backend* (*factory)());
};

typedef int (*MorelRegisterBackendFn)(const MorelBackendHost* host);

}  // extern "C"

#endif  // MOREL_ENGINE_CODEGEN_BACKEND_PLUGIN_API_H_
