#ifndef MOREL_ENGINE_OPT_GUARD_HOISTING_H_
#define MOREL_ENGINE_OPT_GUARD_HOISTING_H_

// guard_hoist: splits a guard on a short-circuit `and` into two guards.
// The PE emits `guard (a && b)` (an AndThen: b, e.g. a load through a
// receiver, may only run where a holds) as a diamond feeding a parameter:
//
//   D:  ...                         D:  ...
//       br a, X, B(0)                   guard a, fs, "r"
//   X:  ...; b = ...                    jump X
//       jump B(b)            ==>    X:  ...; b = ...
//   B(p: i1):                           jump B(b)
//       <pure instructions>         B(p: i1):
//       guard p, fs, "r"                <pure instructions>
//                                       guard p, fs, "r"
//
// (one fuel unit). When a is false the original reaches `guard p` with
// p = 0 through pure instructions only, so it deoptimizes to fs with the
// same frame values: the hoisted guard deoptimizes at the same resume point
// with the same state, nothing observable happening in between. Required:
// B's only predecessors are D (its br's false edge, passing constant 0 for
// p) and X (jump), X's only predecessor is D (the br's true edge), every
// instruction of B before the guard is pure, and every value the frame
// state (and its parents) references dominates D's terminator. simplify_cfg
// then gives B the single predecessor X (p becomes b), and guard_elim
// removes later branches and guards on a, so a repeated tag check of the
// same receiver costs one guard.

#include "engine/opt/pass.h"

namespace morel::opt {

class GuardHoisting : public Pass {
 public:
  absl::string_view name() const override { return "guard_hoist"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_GUARD_HOISTING_H_
