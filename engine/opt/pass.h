#ifndef MOREL_ENGINE_OPT_PASS_H_
#define MOREL_ENGINE_OPT_PASS_H_

// The pass contract (after XLA's HloPassInterface):
//
//   - name() is the stable key for DumpIR, DisablePasses, the registry and
//     the ir_opt driver; lower_snake_case.
//   - Run() transforms the function in place and returns whether anything
//     changed; an error status aborts the compilation.
//   - A pass leaves the IR valid (the pipeline verifies after each pass
//     under VerifyIR), never removes, duplicates or reorders effectful
//     instructions, and calls ctx.ConsumeFuel() before each individual
//     rewrite, making no more rewrites once it returns false. The exceptions
//     are proved safe where they are made: guard_elim/canonicalize remove
//     guards known to hold, guard_hoist adds a guard that deoptimizes
//     exactly where an existing one would, load_elim removes loads whose
//     value is known, partial_escape removes allocations no other code can
//     see (with their loads and stores) and allocates them again only
//     where they escape.

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/ir/function.h"
#include "engine/opt/fuel.h"

namespace morel::opt {

class PassContext {
 public:
  // `fuel` must outlive the context; nullptr means unlimited.
  explicit PassContext(Fuel* fuel = nullptr) : fuel_(fuel) {}

  // Asks for one rewrite. False: the budget is spent; make no more rewrites.
  bool ConsumeFuel() {
    if (fuel_ != nullptr && !fuel_->Consume()) return false;
    ++rewrites_;
    return true;
  }
  // Counts rewrites a nested context already paid for.
  void RecordRewrites(int64_t n) { rewrites_ += n; }
  // Rewrites granted through this context.
  int64_t rewrites() const { return rewrites_; }
  Fuel* fuel() const { return fuel_; }

 private:
  Fuel* fuel_;
  int64_t rewrites_ = 0;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual absl::string_view name() const = 0;
  // Returns whether the function changed.
  virtual absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) = 0;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_PASS_H_
