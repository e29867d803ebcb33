#ifndef MOREL_ENGINE_OPT_DCE_H_
#define MOREL_ENGINE_OPT_DCE_H_

// dce: dead code elimination.
//   1. Blocks unreachable from the entry are removed (all of them together
//      are one rewrite: their values may only be used by each other).
//   2. Liveness is marked from the roots (effectful instructions and
//      terminators, with their operands and frame-state inputs; the entry
//      block's parameters); a live block parameter makes the matching
//      argument of every incoming edge live.
//   3. Dead pure instructions and dead block parameters (with their
//      incoming arguments) are removed, users before definitions, one fuel
//      unit each; a dead cycle through block parameters (e.g. an unused
//      loop counter) is removed as one rewrite.
//   4. Frame states no remaining instruction references are dropped (not
//      a rewrite: bookkeeping).

#include "engine/opt/pass.h"

namespace morel::opt {

// Step 1 alone (simplify_cfg runs it first too): removes the blocks
// unreachable from the entry, one fuel unit for all; whether any went.
bool RemoveUnreachableBlocks(ir::Function& f, PassContext& ctx);

class DeadCodeElimination : public Pass {
 public:
  absl::string_view name() const override { return "dce"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_DCE_H_
