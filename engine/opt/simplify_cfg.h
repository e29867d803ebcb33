#ifndef MOREL_ENGINE_OPT_SIMPLIFY_CFG_H_
#define MOREL_ENGINE_OPT_SIMPLIFY_CFG_H_

// simplify_cfg: straightens the CFG the PE and guard_elim leave behind.
// Rewrites (each one fuel unit): unreachable blocks are removed (one unit
// for all; otherwise their edges would keep the merges below from
// happening), then
//   - a parameter of a block (not the entry) whose incoming edges all pass
//     the same value v (or the parameter itself, around a loop), v not
//     another parameter of the block, is replaced by v and removed: a block
//     with one incoming edge takes that edge's arguments. Equal constants
//     count as the same value when one of them is defined in a block that
//     strictly dominates the parameter's (a loop entered and continued with
//     the same constant): that one replaces the parameter;
//   - a block ending in `jump B`, where B (not the entry, not itself) has no
//     other incoming edge and no parameters, absorbs B's instructions; B
//     leaves the layout.
// Merging turns jump chains (block5 -> block6 -> block7 after a hoisted
// guard) into one block, so block-local passes (load_elim) see more, and
// the backend lays out fewer jumps; no reachable instruction is reordered,
// duplicated or dropped.

#include "engine/opt/pass.h"

namespace morel::opt {

class SimplifyCfg : public Pass {
 public:
  absl::string_view name() const override { return "simplify_cfg"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_SIMPLIFY_CFG_H_
