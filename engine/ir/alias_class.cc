#include "engine/ir/alias_class.h"

#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "base/check.h"

namespace morel::ir {

const AliasClass* AliasClass::Get(absl::string_view name) {
  MOREL_CHECK(!name.empty());
  static std::mutex mutex;
  // Never destroyed: classes are referenced by instructions until exit.
  static auto* classes = new absl::flat_hash_map<std::string, std::unique_ptr<AliasClass>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = classes->try_emplace(std::string(name));
  if (inserted) it->second.reset(new AliasClass(std::string(name)));
  return it->second.get();
}

}  // namespace morel::ir
