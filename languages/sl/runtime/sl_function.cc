#include "languages/sl/runtime/sl_function.h"

#include "base/check.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"

#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/values.h"

namespace morel::sl {

void SLFunction::set_call_target(CallTarget* target, bool retire_previous) {
  __atomic_store_n(&writes_caller_frame_,
                   target != nullptr && target->root_node()->WritesCallerFrame() ? 1 : 0,
                   __ATOMIC_RELEASE);
  guard_target_ = target;
  CallTarget* previous = call_target_.exchange(target, std::memory_order_acq_rel);
  if (previous != nullptr && previous != target) {
    call_target_stable_.Invalidate(absl::StrCat("function ", name_, " redefined"));
    // After the invalidation: a compilation that starts from now on sees
    // the assumption dead and does not call `previous` through it.
    // Activations, call nodes and code that still name it keep it alive.
    if (retire_previous) previous->runtime()->RetireCallTarget(*previous);
  }
}

int FunctionIds::IdOf(absl::string_view name) {
  auto [it, inserted] = ids_.try_emplace(name, static_cast<int>(names_.size()));
  if (inserted) names_.emplace_back(name);
  return it->second;
}

namespace {
thread_local FunctionRegistry* current_registry = nullptr;
}  // namespace

FunctionRegistry* FunctionRegistry::Current() { return current_registry; }

FunctionRegistry::Scope::Scope(FunctionRegistry* registry) : previous_(current_registry) {
  current_registry = registry;
}

FunctionRegistry::Scope::~Scope() { current_registry = previous_; }

SLFunction* FunctionRegistry::LookupId(int id) {
  if (static_cast<size_t>(id) < by_id_.size() && by_id_[id] != nullptr) [[likely]] {
    return by_id_[id];
  }
  MOREL_CHECK_MSG(ids_ != nullptr, "LookupId in a registry without shared code");
  if (static_cast<size_t>(id) >= by_id_.size()) by_id_.resize(id + 1, nullptr);
  return by_id_[id] = Lookup(ids_->NameOf(id));
}

SLFunction* FunctionRegistry::Lookup(absl::string_view name) {
  auto it = functions_.find(name);
  if (it != functions_.end()) return it->second.get();
  auto function = std::make_unique<SLFunction>(std::string(name));
  SLFunction* raw = function.get();
  functions_.emplace(std::string(name), std::move(function));
  return raw;
}

void FunctionRegistry::Register(absl::string_view name, CallTarget* target) {
  Lookup(name)->set_call_target(target, /*retire_previous=*/!shared());
}

SLFunction* FunctionRegistry::Find(absl::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second.get();
}

}  // namespace morel::sl
