#include "engine/codegen/backend_registry.h"

#include <dlfcn.h>
#include <sys/utsname.h>

#include <map>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/codegen/backend_plugin_api.h"

namespace morel::codegen {
namespace {

struct Entry {
  BackendFactory factory;
  std::unique_ptr<Backend> instance;
};

struct Registry {
  std::mutex mu;
  std::map<std::string, Entry> entries;  // Guarded by mu.
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

int RegisterFromPlugin(void* context, const char* name, Backend* (*factory)()) {
  if (name == nullptr || factory == nullptr) return 1;
  int* count = static_cast<int*>(context);
  absl::Status s = RegisterBackend(
      name, [factory]() { return std::unique_ptr<Backend>(factory()); });
  if (!s.ok()) return 1;
  ++*count;
  return 0;
}

}  // namespace

absl::Status RegisterBackend(absl::string_view name, BackendFactory factory) {
  if (name.empty() || !factory) return absl::InvalidArgumentError("empty backend registration");
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto [it, inserted] = r.entries.try_emplace(std::string(name));
  if (!inserted) {
    return absl::AlreadyExistsError(absl::StrCat("backend '", name, "' is already registered"));
  }
  it->second.factory = std::move(factory);
  return absl::OkStatus();
}

std::vector<std::string> RegisteredBackendNames() {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> names;
  for (const auto& [name, entry] : r.entries) names.push_back(name);
  return names;
}

absl::StatusOr<Backend*> FindBackend(absl::string_view name) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.entries.find(std::string(name));
  if (it == r.entries.end()) {
    std::vector<std::string> names;
    for (const auto& [n, e] : r.entries) names.push_back(n);
    return absl::NotFoundError(absl::StrCat(
        "could not find a registered backend '", name, "' (linked backends: ",
        names.empty() ? "none" : absl::StrJoin(names, ", "),
        ") -- was support for it linked in, or its plugin loaded with --engine.BackendPlugin?"));
  }
  if (it->second.instance == nullptr) {
    it->second.instance = it->second.factory();
    if (it->second.instance == nullptr) {
      return absl::InternalError(absl::StrCat("backend factory for '", name, "' returned null"));
    }
  }
  return it->second.instance.get();
}

absl::Status LoadBackendPlugin(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    return absl::NotFoundError(
        absl::StrCat("cannot load backend plugin ", path, ": ", err != nullptr ? err : "?"));
  }
  auto fn = reinterpret_cast<MorelRegisterBackendFn>(dlsym(handle, "MorelRegisterBackend"));
  if (fn == nullptr) {
    dlclose(handle);
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not a Morel backend plugin: no MorelRegisterBackend symbol"));
  }
  int registered = 0;
  MorelBackendHost host{kMorelBackendPluginAbiVersion, &registered, &RegisterFromPlugin};
  int rc = fn(&host);
  if (rc != 0 || registered == 0) {
    // Keep the object loaded: a backend it did register may be in use.
    return absl::FailedPreconditionError(absl::StrCat(
        "backend plugin ", path, " failed to register (code ", rc, ", ", registered,
        " backends registered)"));
  }
  return absl::OkStatus();
}

std::string BackendNameForOption(absl::string_view option) {
  if (option != "host") return std::string(option);
  utsname u;
  if (uname(&u) != 0) return "unknown";
  std::string machine = u.machine;
  return machine == "arm64" ? "aarch64" : machine;
}

}  // namespace morel::codegen
