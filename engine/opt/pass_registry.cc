#include "engine/opt/pass_registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/opt/standard_passes.h"

namespace morel::opt {

absl::Status PassRegistry::Register(std::string name, Factory factory) {
  if (factories_.contains(name)) {
    return absl::AlreadyExistsError(absl::StrCat("pass '", name, "' is already registered"));
  }
  factories_.emplace(std::move(name), std::move(factory));
  return absl::OkStatus();
}

bool PassRegistry::Contains(absl::string_view name) const {
  return factories_.find(name) != factories_.end();
}

absl::StatusOr<std::unique_ptr<Pass>> PassRegistry::Create(absl::string_view name) const {
  auto it = factories_.find(name);
  if (it == factories_.end()) {
    return absl::NotFoundError(absl::StrCat("unknown pass '", name, "' (known passes: ",
                                            absl::StrJoin(names(), ", "), ")"));
  }
  return it->second();
}

std::vector<std::string> PassRegistry::names() const {
  std::vector<std::string> result;
  for (const auto& [name, factory] : factories_) result.push_back(name);
  return result;
}

const PassRegistry& PassRegistry::Standard() {
  static const PassRegistry* registry = [] {
    auto* r = new PassRegistry();
    RegisterStandardPasses(*r);
    return r;
  }();
  return *registry;
}

}  // namespace morel::opt
