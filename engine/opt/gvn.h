#ifndef MOREL_ENGINE_OPT_GVN_H_
#define MOREL_ENGINE_OPT_GVN_H_

// gvn: dominator-based global value numbering of pure instructions. Walks
// the dominator tree with a scoped table of (opcode, type suffix, immediate,
// condition, operands) -> value; an instruction equal to one in a
// dominating position is removed and its uses take the earlier value (one
// fuel unit each). Commutative operands are ordered by value id in the key.
// Effectful instructions (loads included, for now) are never numbered.

#include "engine/opt/pass.h"

namespace morel::opt {

class GlobalValueNumbering : public Pass {
 public:
  absl::string_view name() const override { return "gvn"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_GVN_H_
