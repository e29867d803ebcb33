#ifndef MOREL_LANGUAGES_SL_RUNTIME_SL_FUNCTION_H_
#define MOREL_LANGUAGES_SL_RUNTIME_SL_FUNCTION_H_

// SL function values and the global function registry (sl_spec §6.1, §10).
//
// There is exactly one SLFunction per name. Looking a name up never fails:
// an unknown name gets an undefined placeholder that a later definition
// fills in, so every reference sees redefinitions. Functions are
// root-allocated: they live as long as the registry.

#include <atomic>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "languages/sl/runtime/values.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"
#include "nodes/value.h"

namespace morel::sl {

class SLFunction : public heap::RootAllocated {
 public:
  explicit SLFunction(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  // The current code, or null while the function is undefined.
  CallTarget* call_target() const {
    return call_target_.load(std::memory_order_acquire);
  }
  void set_call_target(CallTarget* target) {
    call_target_.store(target, std::memory_order_release);
  }
  Value AsValue() const { return Value::Reference(kFunctionTag, this); }

 private:
  std::string name_;
  std::atomic<CallTarget*> call_target_{nullptr};
};

class FunctionRegistry {
 public:
  // The canonical function named `name`, created undefined if new.
  SLFunction* Lookup(absl::string_view name);
  // Defines or redefines `name` to run `target`.
  void Register(absl::string_view name, CallTarget* target);
  // The function if it exists (defined or not), else null.
  SLFunction* Find(absl::string_view name) const;

 private:
  absl::flat_hash_map<std::string, std::unique_ptr<SLFunction>> functions_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_RUNTIME_SL_FUNCTION_H_
