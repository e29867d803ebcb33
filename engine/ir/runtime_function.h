#ifndef MOREL_ENGINE_IR_RUNTIME_FUNCTION_H_
#define MOREL_ENGINE_IR_RUNTIME_FUNCTION_H_

// Runtime functions: C++ functions compiled code may call by name
// (`call_runtime @name(...)`). The runtime registers them in a
// RuntimeRegistry; the parser resolves `@name` through it; instructions hold
// a pointer to the registered entry, so a registry must outlive the IR that
// references it. Guest Values cross the boundary as (payload, tag) pairs.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/ir/types.h"

namespace morel::ir {

struct RuntimeSignature {
  std::vector<Type> params;
  std::vector<Type> results;  // at most 2 (RAX:RDX)

  bool operator==(const RuntimeSignature&) const = default;
};

enum class RuntimeEffects : uint8_t {
  // Reads and writes memory; never invalidates the calling code.
  kNoDeopt,
  // May invalidate the caller (e.g. it can run guest code): every call must
  // carry a lazy frame state.
  kMayDeopt,
};

struct RuntimeFunction {
  std::string name;
  const void* address = nullptr;  // null for functions declared in IR text
  RuntimeSignature signature;
  RuntimeEffects effects = RuntimeEffects::kNoDeopt;
};

// Thread-safe. Entries are never removed, so pointers stay valid for the
// registry's lifetime.
class RuntimeRegistry {
 public:
  RuntimeRegistry() = default;
  RuntimeRegistry(const RuntimeRegistry&) = delete;
  RuntimeRegistry& operator=(const RuntimeRegistry&) = delete;

  // Adds `function`. Registering a name again is allowed only with the same
  // signature and effects (returns the existing entry); otherwise
  // AlreadyExists. More than 2 results is InvalidArgument.
  absl::StatusOr<const RuntimeFunction*> Register(RuntimeFunction function);
  // nullptr if unknown.
  const RuntimeFunction* Find(absl::string_view name) const;
  // All entries, sorted by name.
  std::vector<const RuntimeFunction*> functions() const;

 private:
  mutable std::mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<RuntimeFunction>> by_name_;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_RUNTIME_FUNCTION_H_
