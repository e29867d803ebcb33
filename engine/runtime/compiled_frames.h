#ifndef MOREL_ENGINE_RUNTIME_COMPILED_FRAMES_H_
#define MOREL_ENGINE_RUNTIME_COMPILED_FRAMES_H_

// Materializing the frames of compiled (native) code for stack walks
// (nodes/frame_walk.h; SL's stacktrace()).
//
// Compiled activations have no interpreter Frame. Where control leaves a run
// of compiled frames for the runtime in a way that may run guest code, the
// runtime pushes a NativeSegment recording how to find those frames:
//  - Dispatch's slow path (a compiled caller calls a callee that is not
//    compiled; native_tier.cc), entered through the backend's
//    RuntimeSupport::call_with_captured_registers stub, which captures the
//    callee-saved registers as the compiled caller left them;
//  - DeoptHandler (a compiled activation deoptimizes and the interpreter
//    finishes it: its compiled callers stay compiled);
//  - the guest-call entry (Backend::CreateGuestCallEntry, calling
//    GuestCallFromCompiled below): compiled code's runtime calls that may
//    run guest code (PeContext::CallGuest, e.g. SL's indirect calls) go
//    through it with the call's lazy frame state, capturing the callee-saved
//    registers like the stub above.
// The compiled->compiled fast path (Dispatch tail-jumping into a compiled
// callee) pushes nothing. Every machine fact comes from the host backend's
// codegen::RuntimeSupport (HostRuntimeSupport(), set by NativeTier::Get);
// without one (no native backend, or one without runtime support) segments
// list nothing and the guest-call entry is GuestCallEntryWithoutCapture().
//
// Walking a segment (codegen::FrameLayout; x86_64: backend_x86_64/frame.h):
// every compiled frame keeps a frame pointer (its link: the caller's link
// and the return address at fixed offsets from it; x86_64: [rbp] and
// [rbp + 8]), and so does every C++ frame (-fno-omit-frame-pointer in every
// build configuration), so the chain of links is exact. A return address
// inside the code cache is a compiled caller suspended at that call; its
// locals are the call's lazy frame state (the partial evaluator attaches one
// to every call_target, engine/pe/pe_context.h), decoded like a
// deoptimization from the frame and the callee-saved registers. Those
// registers' values at the call are recovered outward: at the transition
// they are the captured ones; each compiled callee's prologue saved the ones
// it writes (CodeMetadata::saved_registers, at
// FrameLayout::saved_registers_offset). Between two compiled frames there is
// at most one C++ frame, Dispatch's, in builds where it does not tail-jump
// (it leaves the callee-saved registers alone: the captured values pass
// through it); a second C++ frame in a row ends the segment (the
// interpreter's entry into compiled code, or OSR's).
//
// Guest calls whose argument words do not fit the entry's registers pass
// them in span argument slots (pe::PackedGuestRuntimeCall) and push a
// segment like the others (guest_call_test).
//
// Not covered yet (TODO(#6)): the stack-overflow handler pushes no segment
// (it only raises the overflow unless CallTarget::Call finds room after
// all, and then compiled frames above it are not listed); frames are
// read-only (compiled code transfers to the interpreter before calling a
// root that writes its caller's frame: PeContext::CallDirect, SL's
// InvokeIndirect).

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "engine/codegen/backend.h"
#include "engine/ir/deopt_frame.h"
#include "engine/ir/frame_state.h"
#include "engine/pe/runtime_call.h"
#include "nodes/frame_walk.h"

namespace morel::runtime {

class NativeCode;

// At most this many registers (codegen::FrameLayout::register_count).
inline constexpr int kMaxCompiledRegisters = 64;

class NativeSegment : public CompiledSegment {
 public:
  // `layout`: the host backend's (null: the segment lists nothing). `link`
  // is a frame's link whose caller's link and return address lead to the
  // innermost compiled frame of the segment (possibly through one C++
  // frame); `registers` are the register values at the transition, indexed
  // by register number (layout->register_count of them; only the
  // callee-saved ones are read); `link_code` is the compiled code whose
  // frame `link` is (its saved registers hold its caller's values), or null
  // if `link` is C++'s.
  NativeSegment(const codegen::FrameLayout* layout, const uint8_t* link,
                const uint64_t* registers, const NativeCode* link_code);
  // The segment below a capture stub's `captured`
  // (codegen::CapturedRegistersFn).
  NativeSegment(const codegen::FrameLayout* layout, const uint64_t* captured);

  bool ForEachFrame(const FrameVisitor& visit) const override;

 private:
  const codegen::FrameLayout* layout_;
  const uint8_t* link_;
  // The callee-saved registers as captured by the stub (null: registers_).
  const uint64_t* captured_ = nullptr;
  // The transition's registers (DeoptHandler's saved_regs, alive as long as
  // the segment), or null.
  const uint64_t* registers_ = nullptr;
  const NativeCode* link_code_;
};

// The activation of IR-tier code (compiler.h's IrTierCode, run by the IR
// interpreter) during one of its calls: the call's evaluated lazy frame
// state (ir::InterpreterOptions::lazy_frames); null: nothing to list.
class InterpretedIrSegment : public CompiledSegment {
 public:
  explicit InterpretedIrSegment(const std::vector<ir::DeoptFrame>* frames) : frames_(frames) {}
  bool ForEachFrame(const FrameVisitor& visit) const override;

 private:
  const std::vector<ir::DeoptFrame>* frames_;
};

// The guest value of a deoptimization slot: Value::Illegal() for an illegal
// local and for a slot with the unassigned tag, whatever its payload
// (frame_state.h).
inline Value ValueOfSlot(const ir::DeoptFrame::Slot& slot) {
  static_assert(ir::kUnassignedTag == kIllegalTag);
  if (!slot.legal || slot.tag == ir::kUnassignedTag) return Value::Illegal();
  return Value{static_cast<uint64_t>(slot.payload), static_cast<ValueTag>(slot.tag)};
}

// Visits evaluated frame states (innermost first) as activations.
bool VisitDeoptFrames(absl::Span<const ir::DeoptFrame> frames, const FrameVisitor& visit);

// The host backend's runtime support: set by NativeTier::Get when it creates
// a tier whose backend has one (every tier runs on this host, so they agree);
// null until then.
const codegen::RuntimeSupport* HostRuntimeSupport();
void SetHostRuntimeSupport(const codegen::RuntimeSupport* support);

// What the backend's guest-call entry (engine/pe/runtime_call.h,
// pe::GuestCallEntry; Backend::CreateGuestCallEntry) calls: compiled code
// calls the entry for PeContext::CallGuest with F's invoker and argument
// words and the call's lazy frame state; the entry captures the
// callee-saved registers as the compiled caller left them and calls this,
// which pushes a NativeSegment for the compiled frames above while
// invoker(words, results) runs F. `captured`: as for
// codegen::CapturedRegistersFn, or null (no segment).
codegen::ValuePair GuestCallFromCompiled(const void* invoker, int64_t w0, int64_t w1, int64_t w2,
                                         int64_t w3, int64_t w4, const uint64_t* captured);
// The guest-call entry when no backend provides one: GuestCallFromCompiled
// without captured registers (stack walks do not list the compiled caller).
const void* GuestCallEntryWithoutCapture();

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_COMPILED_FRAMES_H_
