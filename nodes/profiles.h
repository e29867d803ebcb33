#ifndef MOREL_NODES_PROFILES_H_
#define MOREL_NODES_PROFILES_H_

// Value profiles the partial evaluator reads as compilation-final facts.
//
// BranchProfile: whether a branch was ever taken; compiled code of a
// never-taken branch deoptimizes instead.
// ConditionProfile: how often a condition was true and false; a branch seen
// only one way compiles to a speculation.

#include <atomic>
#include <cstdint>

namespace morel {

class BranchProfile {
 public:
  void Enter() {
    if (!visited_.load(std::memory_order_relaxed)) {
      visited_.store(true, std::memory_order_relaxed);
    }
  }
  bool WasVisited() const { return visited_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> visited_{false};
};

class ConditionProfile {
 public:
  bool Profile(bool value) {
    auto& counter = value ? true_count_ : false_count_;
    uint32_t c = counter.load(std::memory_order_relaxed);
    if (c < UINT32_MAX) counter.store(c + 1, std::memory_order_relaxed);
    return value;
  }
  uint32_t true_count() const { return true_count_.load(std::memory_order_relaxed); }
  uint32_t false_count() const { return false_count_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint32_t> true_count_{0};
  std::atomic<uint32_t> false_count_{0};
};

}  // namespace morel

#endif  // MOREL_NODES_PROFILES_H_
