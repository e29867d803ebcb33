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
// A local that a loop assigns a new record in each iteration, unassigned
// before the loop, reaches the header as a parameter that only frame
// states use, paired with a tag that is ir::kUnassignedTag on entry. The
// header names the previous iteration's record as a virtual object of its
// own whose fields are header parameters (zero on entry, where the tag
// makes the slot unassigned whatever object a deoptimization allocates);
// the back edge passes the iteration's record field by field. The record
// must not be named by another argument of the back edge, and must stay
// virtual through the loop; otherwise the loop restarts with the parameter
// as before (allocated on the back edge). A virtual object the record
// references (SL: an object's out-of-line property storage) is carried with
// it as a header object of its own if nothing else names it, it was
// allocated in the loop and it references no virtual object (one level).
//
// A local that held a value on entry (in OSR code, whatever the
// interpreter's frame held; in a function, a parameter's or a call's
// result) is handled the same way if its only uses in the loop are frame
// states and after the loop also stores of it (OSR code stores every local
// back when the loop exits): the header object then stands for the entry
// value until the loop assigns the local. Two more header parameters carry
// a condition (1 on entry, 0 on the back edge) and the entry value; frame
// states name them as the object's existing value (`vo1 = object 16 [...]
// existing v9 if v8`: a deoptimization there takes v9 itself, the same
// object), and materializing the object allocates it and selects v9 where
// the condition holds.
//
// TODO(#13): a loop-header parameter with real uses that merges a
// non-object (on entry) with a virtual object (the back edge) still
// allocates its record on every back edge, and so does a record whose
// records reference virtual objects in turn (one level is carried).
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
