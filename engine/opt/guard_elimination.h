#ifndef MOREL_ENGINE_OPT_GUARD_ELIMINATION_H_
#define MOREL_ENGINE_OPT_GUARD_ELIMINATION_H_

// guard_elim: removes guards (and decides branches) whose condition is
// already known on every path reaching them. Walks the dominator tree
// keeping a scoped set of facts "condition c is true/false":
//   - after `guard c` (rest of the block, dominated blocks): c is true;
//   - on entry to a block whose only incoming edge is an arm of `br c`
//     (the two arms going to different blocks): c is true on the first
//     arm, false on the second.
// A fact about c also decides `not c`, and a fact about `icmp cond a, b`
// decides every icmp of the same operands with the inverse or swapped
// condition (so a type check `icmp eq tag, K` is known after a guard on it,
// even before gvn merged the two icmps). `and a, b` known true makes a and b
// true; `or a, b` known false makes both false.
// Rewrites (one fuel unit each): a guard whose condition is known true is
// removed; a br whose condition is known becomes a jump. A guard known to
// fail is left alone (it deoptimizes as it should).

#include "engine/opt/pass.h"

namespace morel::opt {

class GuardElimination : public Pass {
 public:
  absl::string_view name() const override { return "guard_elim"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_GUARD_ELIMINATION_H_
