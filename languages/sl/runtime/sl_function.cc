#include "languages/sl/runtime/sl_function.h"

#include "languages/sl/runtime/values.h"

namespace morel::sl {

SLFunction* FunctionRegistry::Lookup(absl::string_view name) {
  auto it = functions_.find(name);
  if (it != functions_.end()) return it->second.get();
  auto function = std::make_unique<SLFunction>(std::string(name));
  SLFunction* raw = function.get();
  functions_.emplace(std::string(name), std::move(function));
  return raw;
}

void FunctionRegistry::Register(absl::string_view name, CallTarget* target) {
  Lookup(name)->set_call_target(target);
}

SLFunction* FunctionRegistry::Find(absl::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second.get();
}

}  // namespace morel::sl
