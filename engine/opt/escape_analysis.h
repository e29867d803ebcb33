#ifndef MOREL_ENGINE_OPT_ESCAPE_ANALYSIS_H_
#define MOREL_ENGINE_OPT_ESCAPE_ANALYSIS_H_

// partial_escape: partial escape analysis and scalar replacement (Stadler,
// Würthinger, Mössenböck, CGO 2014), on `alloc` and the loads and stores
// at constant offsets from its result. Language-independent: it knows
// allocation, field access by offset and width, and nothing of any
// language's objects.
//
// Walking the blocks in reverse postorder, each allocation becomes a
// virtual object whose fields (offset -> value, or -> another virtual
// object's address) the analysis tracks instead of memory:
//   - `alloc` is removed (one fuel unit per allocation; out of fuel, the
//     allocation stays real);
//   - a store into a field of a virtual object updates the field and is
//     removed; a load from one is replaced by the field's value (a field
//     never stored reads as zero, as `alloc` zero-fills);
//   - `bitcast` between ptr and i64 of an object's address is another name
//     for the object; `icmp eq|ne` of a virtual object's address with any
//     other value is decided (nothing else can hold its address);
//   - an eager frame state (guard, deopt, safepoint) names the object as a
//     virtual object with its current field values, so deoptimizing
//     allocates it (frame_state.h);
//   - any other use escapes: a store into other memory, a call argument, a
//     lazy frame state (a callee may walk the stack), a return, an access
//     the tracked layout does not fit. There, and only on that path, the
//     object is materialized (`alloc` + stores of its fields, and of the
//     virtual objects it references, cycles included) and from then on is
//     an ordinary pointer.
// At a merge, an object virtual in every predecessor stays virtual (fields
// that differ become block parameters); one materialized in some
// predecessor is materialized at the end of the others and merged. A block
// parameter that every predecessor passes the same object for becomes that
// object. At a loop header (one entry edge) the analysis speculates that the
// objects entering the loop stay virtual, with a block parameter per field;
// a back edge that contradicts it (the object escaped in the loop, or a
// field took a shape the header does not have) restarts the loop with the
// object materialized before it, or with the missing parameter. The IR is
// changed only when the whole function has been analysed.
//
// TODO(#13): a loop-header parameter that merges a non-object (an
// uninitialized local on entry) with a virtual object (the back edge)
// allocates the object on every back edge, even when the local is dead
// there; frame states need liveness of locals at resume points to drop it.
// Different virtual objects meeting at one parameter are each allocated
// (Graal merges them into a new virtual object).
//
// Runs after inlining has made objects local; canonicalize, simplify_cfg
// and dce afterwards fold the decided guards and drop trivial parameters.

#include "engine/opt/pass.h"

namespace morel::opt {

class PartialEscapeAnalysis : public Pass {
 public:
  absl::string_view name() const override { return "partial_escape"; }
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;
};

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_ESCAPE_ANALYSIS_H_
