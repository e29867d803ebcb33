#ifndef MOREL_ENGINE_OPT_FUEL_H_
#define MOREL_ENGINE_OPT_FUEL_H_

// Fuel (OptimizationFuel): a budget of individual rewrites. Every pass asks
// for one unit before each rewrite and stops rewriting once it is refused,
// so a miscompile can be bisected to the exact rewrite: run with fuel N and
// N+1 and diff. Thread-safe; share one Fuel between pipelines to make the
// budget span a whole process (as the engine option says).

#include <atomic>
#include <cstdint>

namespace morel::opt {

class Fuel {
 public:
  static constexpr int64_t kUnlimited = -1;

  explicit Fuel(int64_t limit = kUnlimited) : limit_(limit) {}
  Fuel(const Fuel&) = delete;
  Fuel& operator=(const Fuel&) = delete;

  // Grants one rewrite (returns true) unless the budget is spent.
  bool Consume() {
    if (limit_ < 0) {
      consumed_.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
    int64_t used = consumed_.load(std::memory_order_relaxed);
    while (used < limit_) {
      if (consumed_.compare_exchange_weak(used, used + 1, std::memory_order_relaxed)) {
        return true;
      }
    }
    exhausted_.store(true, std::memory_order_relaxed);
    return false;
  }

  int64_t limit() const { return limit_; }
  // Rewrites granted so far.
  int64_t consumed() const { return consumed_.load(std::memory_order_relaxed); }
  // True once a request was refused.
  bool exhausted() const { return exhausted_.load(std::memory_order_relaxed); }

 private:
  const int64_t limit_;
  std::atomic<int64_t> consumed_{0};
  std::atomic<bool> exhausted_{false};
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_FUEL_H_
