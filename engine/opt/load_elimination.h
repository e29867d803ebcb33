#ifndef MOREL_ENGINE_OPT_LOAD_ELIMINATION_H_
#define MOREL_ENGINE_OPT_LOAD_ELIMINATION_H_

// load_elim: conservative redundant-load elimination and store-to-load
// forwarding over extended basic blocks (a block inherits what its
// dominator-tree parent knows at its end only if that parent is its single
// predecessor). Known memory is a table (base value, offset, type) -> value:
//   - `load.T b, o` with a known (b, o, T) is removed and its uses take the
//     known value (one fuel unit); otherwise it becomes known;
//   - `store.T v, b, o` forgets every entry that may overlap: all entries
//     with another base value (two SSA pointers may be equal) and those of
//     the same base whose byte ranges overlap; then (b, o, T) -> v;
//   - calls (call_runtime, call_target) and safepoints forget everything:
//     they may write any memory. So the validity-cell load after each call
//     (engine/pe README, lazy invalidation) is never merged across a call;
//   - guards read no memory and keep the table.
// Bases are compared as SSA values, so run gvn first (equal bitcasts of the
// same receiver become one value). A removed load never adds a fault: the
// same address was accessed before on every path to it.
//
// TODO(#6): loads/stores carry no alias class, so a store into an object's
// property storage forgets its (different-base) shape and storage-pointer
// loads; alias classes on load/store (engine/ir) would keep them.

#include "engine/opt/pass.h"

namespace morel::opt {

class LoadElimination : public Pass {
 public:
  absl::string_view name() const override { return "load_elim"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_LOAD_ELIMINATION_H_
