#include "engine/ir/runtime_function.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace morel::ir {

absl::StatusOr<const RuntimeFunction*> RuntimeRegistry::Register(
    RuntimeFunction function) {
  if (function.signature.results.size() > 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "runtime function @", function.name, " returns more than 2 values"));
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_name_.find(function.name);
  if (it != by_name_.end()) {
    const RuntimeFunction& old = *it->second;
    if (old.signature == function.signature && old.effects == function.effects) {
      return &old;
    }
    return absl::AlreadyExistsError(absl::StrCat(
        "runtime function @", function.name,
        " is already registered with a different signature or effects"));
  }
  auto entry = std::make_unique<RuntimeFunction>(std::move(function));
  const RuntimeFunction* result = entry.get();
  by_name_.emplace(entry->name, std::move(entry));
  return result;
}

const RuntimeFunction* RuntimeRegistry::Find(absl::string_view name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second.get();
}

std::vector<const RuntimeFunction*> RuntimeRegistry::functions() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const RuntimeFunction*> result;
  for (const auto& [name, f] : by_name_) result.push_back(f.get());
  std::sort(result.begin(), result.end(),
            [](const RuntimeFunction* a, const RuntimeFunction* b) {
              return a->name < b->name;
            });
  return result;
}

}  // namespace morel::ir
