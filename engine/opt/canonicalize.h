#ifndef MOREL_ENGINE_OPT_CANONICALIZE_H_
#define MOREL_ENGINE_OPT_CANONICALIZE_H_

// canonicalize: constant folding and algebraic simplification, to a fixed
// point. Rewrites (each one fuel unit):
//   - a pure instruction with constant operands folds to iconst/pconst
//     (semantics.h; undefined cases such as sdiv by 0 are left alone; f64
//     results are not folded), including iadd/isub/imul_overflows;
//   - constants move to the right of commutative operators; icmp with a
//     constant on the left swaps operands and condition;
//   - identities: x+0, x-0, x*1, x|0, x^0, x shifted by 0, x/1, x&-1,
//     x&x, x|x -> x; x*0, x&0 -> 0; x|-1 -> -1; x-x, x^x -> 0;
//     *_overflows(x, 0), imul_overflows(x, 1), isub_overflows(x, x) -> 0;
//     icmp c x, x -> 0/1; select on a constant or between equal values;
//     not(not x) -> x; ineg(ineg x) -> x; not(icmp c a, b) -> icmp !c a, b;
//     icmp eq|ne (zext x:i1), k -> x, not x, or 0/1 (guest booleans);
//   - br on a constant -> jump; br to the same block with the same
//     arguments -> jump; br on (not c) -> br on c with targets swapped;
//   - guard on constant 1 -> removed.
// Replaced instructions are removed; newly dead code is left to dce, and so
// are blocks made unreachable.

#include "engine/opt/pass.h"

namespace morel::opt {

class Canonicalize : public Pass {
 public:
  absl::string_view name() const override { return "canonicalize"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_CANONICALIZE_H_
