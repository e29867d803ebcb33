#ifndef MOREL_ENGINE_OPT_LOAD_ELIMINATION_H_
#define MOREL_ENGINE_OPT_LOAD_ELIMINATION_H_

// load_elim: conservative redundant-load elimination and store-to-load
// forwarding, block by block in reverse postorder: a block with one
// predecessor starts with what that one knew at its end, a join with what
// all its predecessors knew alike (the same value at the same location),
// a loop header (a back edge comes in) with nothing. Known memory is a
// table (base value, offset, type) ->
// (value, alias class of the access that made it known):
//   - `load.T b, o` with a known (b, o, T) is removed and its uses take the
//     known value (one fuel unit); otherwise it becomes known;
//   - `store.T v, b, o` of alias class A (engine/ir/alias_class.h) forgets
//     every entry that may overlap: those of the same base whose byte
//     ranges overlap, and those with another base value (two SSA pointers
//     may be equal) whose class may alias A -- unknown aliases everything,
//     a class aliases itself, two different named classes never alias (so
//     a store into a `value slots` array keeps the object's shape and
//     storage-pointer loads, `SLObject+0`/`SLObject+8`); then
//     (b, o, T) -> (v, A);
//   - calls (call_runtime, call_target) and safepoints forget everything:
//     they may write any memory. So the validity-cell load after each call
//     (engine/pe README, lazy invalidation) is never merged across a call;
//   - guards read no memory and keep the table.
// Bases are compared as SSA values, so run gvn first (equal bitcasts of the
// same receiver become one value). A removed load never adds a fault: the
// same address was accessed before on every path to it.
// A load with a known (b, o, T) takes the known value whatever the two
// classes: the same address is the same memory.

#include "engine/opt/pass.h"

namespace morel::opt {

class LoadElimination : public Pass {
 public:
  absl::string_view name() const override { return "load_elim"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_LOAD_ELIMINATION_H_
