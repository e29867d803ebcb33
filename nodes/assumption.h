#ifndef MOREL_NODES_ASSUMPTION_H_
#define MOREL_NODES_ASSUMPTION_H_

// Assumptions: facts compiled code may rely on without checking them at run
// time (Truffle's Assumption, truffle_reference.md; DESIGN §5). The
// interpreter checks one with a cheap IsValid(); the partial evaluator
// records it as a dependency of the compilation and folds it away
// (PartialEvaluator::Assume). Installing the code registers it with every
// assumption it depends on; invalidating an assumption invalidates that code:
//
//   - the compilation's validity cell (CodeDependencies) becomes 0. Compiled
//     code reads the cell after every call that may have run guest code and
//     deoptimizes ("invalidated") if it is 0, resuming after the call with
//     its result: activations that were suspended in a call never continue
//     in stale code (lazy invalidation, engine/pe/README.md);
//   - the handler given at installation runs (the engine detaches the code
//     from its call target, which re-profiles, and traces `opt inval.`).
//
// Thread safety: all registration and invalidation happens under one
// process-wide lock, so installation (which checks every assumption under
// that lock) and invalidation are serialized: code is either installed while
// all its assumptions are valid and gets invalidated later, or it is never
// installed. IsValid() is a lock-free acquire load.
//
// Lifetimes: an Assumption and the CodeDependencies registered with it may
// be destroyed in either order; each unregisters itself from the other.
// Code that was never installed (discarded or refused) is unknown to its
// assumptions and never touches them again; an assumption recorded by a
// compilation must outlive the compilation until its installation attempt.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "nodes/heap.h"
#include "nodes/value.h"

namespace morel {

class CodeDependencies;

class Assumption {
 public:
  explicit Assumption(std::string name) : name_(std::move(name)) {}
  ~Assumption();
  Assumption(const Assumption&) = delete;
  Assumption& operator=(const Assumption&) = delete;

  // True until Invalidate(). Cheap: what the interpreter checks.
  bool IsValid() const { return valid_.load(std::memory_order_acquire); }
  // Marks the assumption invalid (for good) and invalidates every code that
  // depends on it, passing `reason` to their handlers. Idempotent: only the
  // first call notifies.
  void Invalidate(absl::string_view reason);

  const std::string& name() const { return name_; }
  // Installed code currently registered with this assumption.
  int dependent_count() const;

 private:
  friend class CodeDependencies;

  std::string name_;
  std::atomic<bool> valid_{true};
  std::vector<CodeDependencies*> dependents_;  // under AssumptionsLock()
};

// Truffle's CyclicAssumption: a slot holding the current generation of an
// assumption. Invalidate() replaces it with a fresh, valid one (after
// invalidating the old), so code compiled afterwards can depend on the new
// state. Compilers must read Get() *before* reading the state it guards
// (e.g. a function's call target), and writers must change that state
// *before* calling Invalidate(): then a compilation that saw stale state
// always holds a generation that gets invalidated.
//
// Generations: kKeepAll keeps every generation as long as the slot, so a
// raw Get() stays valid (a compiler thread may still hold one). With
// kKeepReferenced the slot keeps only the current one; an older generation
// lives as long as the GetShared() pointers to it, so a slot invalidated
// without end (a function redefined a million times) holds one
// generation, not a million. Its users keep what they read (an inline
// cache stores GetShared(); a compilation reads it from the cache of a tree
// it holds); a raw Get() is valid only until the next Invalidate().
class CyclicAssumption {
 public:
  enum class Generations { kKeepAll, kKeepReferenced };
  explicit CyclicAssumption(std::string name, Generations generations = Generations::kKeepAll);
  CyclicAssumption(const CyclicAssumption&) = delete;
  CyclicAssumption& operator=(const CyclicAssumption&) = delete;

  Assumption* Get() const { return current_raw_.load(std::memory_order_acquire); }
  std::shared_ptr<Assumption> GetShared() const;
  void Invalidate(absl::string_view reason);
  // Generations the slot itself keeps (tests).
  size_t kept_generations() const;

 private:
  const std::string name_;
  const Generations generations_policy_;
  mutable std::mutex lock_;
  std::shared_ptr<Assumption> current_;                     // under lock_
  std::vector<std::shared_ptr<Assumption>> older_;          // kKeepAll, under lock_
  std::atomic<Assumption*> current_raw_;
};

// What one compilation depends on, and its validity cell. Created before
// partial evaluation (the generated code reads the cell at a constant
// address), owned by the compilation, so it lives as long as the code.
class CodeDependencies {
 public:
  // Invalidation handler: runs once, under the assumptions' lock, after the
  // cell was cleared. It must not register or invalidate assumptions.
  using Handler = std::function<void(const std::string& reason)>;

  CodeDependencies() = default;
  ~CodeDependencies();
  CodeDependencies(const CodeDependencies&) = delete;
  CodeDependencies& operator=(const CodeDependencies&) = delete;

  // ---- while compiling (one thread)
  // Records `assumption` (once). Returns whether it is valid now; the
  // dependency is recorded either way (an invalid one refuses installation).
  bool Add(Assumption* assumption);
  const std::vector<Assumption*>& assumptions() const { return assumptions_; }
  // Keeps `value` (a guest object the code embeds as a constant, e.g. one
  // partial evaluation computed: InterpreterContext::CallFoldable) alive as
  // long as this code.
  void KeepAlive(Value value) { kept_alive_.push_back(value); }
  const heap::TracedVector<Value>& kept_alive() const { return kept_alive_; }

  // ---- the validity cell: 1 while the code is valid, 0 once invalidated
  const int64_t* validity_address() const {
    return reinterpret_cast<const int64_t*>(&valid_);
  }
  bool IsValid() const { return valid_.load(std::memory_order_acquire) != 0; }

  // Under the assumptions' lock: if every recorded assumption is still
  // valid (and the code was not invalidated), registers with each of them,
  // remembers `on_invalidated`, runs `install` and returns true. Otherwise
  // clears the cell, sets `*reason` and returns false (`install` never
  // runs). At most once per compilation.
  bool InstallIfValid(Handler on_invalidated, absl::FunctionRef<void()> install,
                      std::string* reason);

  // Invalidates this code alone (e.g. for tests or a discarded compilation):
  // clears the cell, unregisters, runs the handler if installed.
  void Invalidate(absl::string_view reason);

 private:
  friend class Assumption;
  // Clears the cell, unregisters from every assumption but `except`, runs
  // the handler. Caller holds AssumptionsLock().
  void InvalidateLocked(const Assumption* except, const std::string& reason);

  std::atomic<int64_t> valid_{1};
  static_assert(sizeof(std::atomic<int64_t>) == sizeof(int64_t) &&
                    std::atomic<int64_t>::is_always_lock_free,
                "compiled code reads the cell as a plain i64");
  std::vector<Assumption*> assumptions_;
  // Root-allocated: the collector scans it.
  heap::TracedVector<Value> kept_alive_;
  // Registered with every assumption in assumptions_ (installed and not
  // invalidated since). Under AssumptionsLock().
  bool installed_ = false;
  Handler on_invalidated_;  // under AssumptionsLock()
};

}  // namespace morel

#endif  // MOREL_NODES_ASSUMPTION_H_
