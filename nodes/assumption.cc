#include "nodes/assumption.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace morel {
namespace {

// One lock for every assumption and dependency: registration, installation
// and invalidation are rare next to execution, and a single lock makes the
// install-versus-invalidate race trivially serializable.
std::mutex& AssumptionsLock() {
  static auto* lock = new std::mutex();
  return *lock;
}

void Erase(std::vector<CodeDependencies*>& list, const CodeDependencies* item) {
  list.erase(std::remove(list.begin(), list.end(), item), list.end());
}

}  // namespace

// ------------------------------------------------------------------ Assumption

Assumption::~Assumption() {
  std::lock_guard<std::mutex> guard(AssumptionsLock());
  for (CodeDependencies* dependent : dependents_) {
    auto& list = dependent->assumptions_;
    std::replace(list.begin(), list.end(), this, static_cast<Assumption*>(nullptr));
  }
}

void Assumption::Invalidate(absl::string_view reason) {
  std::lock_guard<std::mutex> guard(AssumptionsLock());
  if (!valid_.load(std::memory_order_relaxed)) return;
  valid_.store(false, std::memory_order_release);
  std::vector<CodeDependencies*> dependents = std::move(dependents_);
  dependents_.clear();
  std::string message = reason.empty() ? absl::StrCat("assumption ", name_, " invalidated")
                                       : std::string(reason);
  for (CodeDependencies* dependent : dependents) dependent->InvalidateLocked(this, message);
}

int Assumption::dependent_count() const {
  std::lock_guard<std::mutex> guard(AssumptionsLock());
  return static_cast<int>(dependents_.size());
}

// ------------------------------------------------------------ CyclicAssumption

CyclicAssumption::CyclicAssumption(std::string name, Generations generations)
    : name_(std::move(name)),
      generations_policy_(generations),
      current_(std::make_shared<Assumption>(name_)) {
  current_raw_.store(current_.get(), std::memory_order_release);
}

std::shared_ptr<Assumption> CyclicAssumption::GetShared() const {
  std::lock_guard<std::mutex> guard(lock_);
  return current_;
}

size_t CyclicAssumption::kept_generations() const {
  std::lock_guard<std::mutex> guard(lock_);
  return older_.size() + 1;
}

void CyclicAssumption::Invalidate(absl::string_view reason) {
  std::shared_ptr<Assumption> old;
  {
    std::lock_guard<std::mutex> guard(lock_);
    old = std::exchange(current_, std::make_shared<Assumption>(name_));
    current_raw_.store(current_.get(), std::memory_order_release);
    if (generations_policy_ == Generations::kKeepAll) older_.push_back(old);
  }
  // After the swap: a compilation that reads the slot from now on gets the
  // fresh generation; one that read `old` is invalidated here. With
  // kKeepReferenced, `old` goes with its last holder (perhaps now).
  old->Invalidate(reason);
}

// ------------------------------------------------------------ CodeDependencies

CodeDependencies::~CodeDependencies() {
  std::lock_guard<std::mutex> guard(AssumptionsLock());
  // Only registered code is known to its assumptions; code that was never
  // installed (discarded, refused) may outlive the assumptions it recorded.
  if (!installed_) return;
  for (Assumption* assumption : assumptions_) {
    if (assumption != nullptr) Erase(assumption->dependents_, this);
  }
}

bool CodeDependencies::Add(Assumption* assumption) {
  if (std::find(assumptions_.begin(), assumptions_.end(), assumption) == assumptions_.end()) {
    assumptions_.push_back(assumption);
  }
  return assumption->IsValid();
}

bool CodeDependencies::InstallIfValid(Handler on_invalidated,
                                      absl::FunctionRef<void()> install,
                                      std::string* reason) {
  std::lock_guard<std::mutex> guard(AssumptionsLock());
  if (valid_.load(std::memory_order_relaxed) == 0) {
    *reason = "invalidated before installation";
    assumptions_.clear();
    return false;
  }
  for (Assumption* assumption : assumptions_) {
    if (assumption == nullptr || !assumption->valid_.load(std::memory_order_relaxed)) {
      *reason = assumption == nullptr
                    ? "an assumption was destroyed during compilation"
                    : absl::StrCat("assumption ", assumption->name(),
                                   " invalidated during compilation");
      valid_.store(0, std::memory_order_release);
      assumptions_.clear();  // never registered: forget them
      return false;
    }
  }
  for (Assumption* assumption : assumptions_) assumption->dependents_.push_back(this);
  installed_ = true;
  on_invalidated_ = std::move(on_invalidated);
  install();
  return true;
}

void CodeDependencies::Invalidate(absl::string_view reason) {
  std::lock_guard<std::mutex> guard(AssumptionsLock());
  if (valid_.load(std::memory_order_relaxed) == 0) return;
  InvalidateLocked(nullptr, std::string(reason));
}

void CodeDependencies::InvalidateLocked(const Assumption* except, const std::string& reason) {
  valid_.store(0, std::memory_order_release);
  if (installed_) {
    for (Assumption* assumption : assumptions_) {
      if (assumption != nullptr && assumption != except) Erase(assumption->dependents_, this);
    }
  }
  // Unregistered from all (or never registered): forget them.
  assumptions_.clear();
  if (installed_) {
    installed_ = false;
    Handler handler = std::move(on_invalidated_);
    on_invalidated_ = nullptr;
    if (handler) handler(reason);
  }
}

}  // namespace morel
