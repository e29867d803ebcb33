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
  if (inserted) {
    names_.emplace_back(name);
    for (FunctionRegistry* registry : registries_) registry->SyncTable();
  }
  return it->second;
}

namespace {
thread_local FunctionRegistry* current_registry = nullptr;
}  // namespace

FunctionRegistry::FunctionRegistry(FunctionIds* ids, SLContext* owner)
    : ids_(ids), owner_(owner) {
  if (ids_ == nullptr) return;
  ids_->registries_.push_back(this);
  if (++ids_->registries_made_ == 2) {
    ids_->single_context_.Invalidate("a second context shares the code");
  }
  SyncTable();
}

FunctionRegistry::~FunctionRegistry() {
  if (ids_ == nullptr) return;
  std::erase(ids_->registries_, this);
  if (ids_->current_registry_ == this) {
    ids_->current_registry_ = nullptr;
    ids_->current_table_ = nullptr;
  }
}

void FunctionRegistry::SyncTable() {
  while (table_.size() < ids_->names_.size()) {
    table_.push_back(Lookup(ids_->names_[table_.size()]));
  }
  if (ids_->current_registry_ == this) ids_->current_table_ = table_.data();
}

void FunctionRegistry::MakeCurrent() {
  ids_->current_registry_ = this;
  ids_->current_table_ = table_.data();
}

FunctionRegistry* FunctionRegistry::Current() { return current_registry; }

FunctionRegistry::Scope::Scope(FunctionRegistry* registry)
    : registry_(registry), previous_(current_registry) {
  current_registry = registry;
  if (registry->ids_ != nullptr) {
    previous_shared_ = registry->ids_->current_registry_;
    registry->MakeCurrent();
  }
}

FunctionRegistry::Scope::~Scope() {
  current_registry = previous_;
  if (FunctionIds* ids = registry_->ids_) {
    if (previous_shared_ != nullptr) {
      previous_shared_->MakeCurrent();
    } else {
      ids->current_registry_ = nullptr;
      ids->current_table_ = nullptr;
    }
  }
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
