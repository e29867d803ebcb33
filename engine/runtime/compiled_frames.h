#ifndef MOREL_ENGINE_RUNTIME_COMPILED_FRAMES_H_
#define MOREL_ENGINE_RUNTIME_COMPILED_FRAMES_H_

// Materializing the frames of compiled (native) code for stack walks
// (nodes/frame_walk.h; SL's stacktrace()).
//
// Compiled activations have no interpreter Frame. Where control leaves a run
// of compiled frames for the runtime in a way that may run guest code, the
// runtime pushes a NativeSegment recording how to find those frames:
//  - Dispatch's slow path (a compiled caller calls a callee that is not
//    compiled; native_tier.cc), entered through
//    `CallWithCompiledCallerRegisters`, which captures the callee-saved
//    registers as the compiled caller left them;
//  - DeoptHandler (a compiled activation deoptimizes and the interpreter
//    finishes it: its compiled callers stay compiled);
//  - the guest-call entry (MorelCallGuestFromCompiled below): compiled
//    code's runtime calls that may run guest code (PeContext::CallGuest,
//    e.g. SL's indirect calls) go through it with the call's lazy frame
//    state, capturing the callee-saved registers like the stub above.
// The compiled->compiled fast path (Dispatch tail-jumping into a compiled
// callee) pushes nothing.
//
// Walking a segment (x86_64, backend_x86_64/frame.h): every compiled frame
// keeps rbp as its frame pointer ([rbp] = caller's rbp, [rbp + 8] = return
// address), and so does every C++ frame (-fno-omit-frame-pointer in every
// build configuration), so the rbp chain is exact. A return address inside
// the code cache is a compiled caller suspended at that call; its locals are
// the call's lazy frame state (the partial evaluator attaches one to every
// call_target, engine/pe/pe_context.h), decoded like a deoptimization from
// the frame and the callee-saved registers. Those registers' values at the
// call are recovered outward: at the transition they are the captured
// ones; each compiled callee's prologue saved the ones it writes
// (CodeMetadata::saved_registers, at [rbp - 8 * (k + 1)]). Between two
// compiled frames there is at most one C++ frame, Dispatch's, in builds
// where it does not tail-jump (it leaves the callee-saved registers alone:
// the captured values pass through it); a second C++ frame in a row ends the
// segment (the interpreter's entry into compiled code, or OSR's).
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
#include "engine/pe/runtime_call.h"
#include "nodes/frame_walk.h"

namespace morel::runtime {

class NativeCode;

// Number of general registers the decoding indexes (x86_64 PReg numbers).
inline constexpr int kNumCompiledRegisters = 16;

class NativeSegment : public CompiledSegment {
 public:
  // `link` is a frame pointer (rbp value) whose saved rbp and return address
  // lead to the innermost compiled frame of the segment (possibly through
  // one C++ frame); `registers` are the register values at the transition,
  // indexed by register number (only the callee-saved ones are read);
  // `link_code` is the compiled code whose frame `link` is (its saved
  // registers hold its caller's values), or null if `link` is C++'s.
  NativeSegment(const uint8_t* link, const uint64_t* registers, const NativeCode* link_code);
  // The segment below MorelCallWithCompiledCallerRegisters's `captured`.
  explicit NativeSegment(const uint64_t* captured);

  bool ForEachFrame(const FrameVisitor& visit) const override;

 private:
  const uint8_t* link_;
  // The callee-saved registers as captured by the stub (null: registers_).
  const uint64_t* captured_ = nullptr;
  uint64_t registers_[kNumCompiledRegisters];
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

// The guest value of a deoptimization slot (Value::Illegal() for an illegal
// local).
inline Value ValueOfSlot(const ir::DeoptFrame::Slot& slot) {
  return slot.legal ? Value{static_cast<uint64_t>(slot.payload), static_cast<ValueTag>(slot.tag)}
                    : Value::Illegal();
}

// Visits evaluated frame states (innermost first) as activations.
bool VisitDeoptFrames(absl::Span<const ir::DeoptFrame> frames, const FrameVisitor& visit);

// MorelCallWithCompiledCallerRegisters(a0, a1, a2, fn), an assembly stub
// (x86_64) that compiled code reaches by a call or a tail jump, calls
// fn(a0, a1, a2, captured): `captured` holds rbx, r12, r13, r14, r15 as they
// were at the stub's entry (the compiled caller's values), followed by the
// stub's frame link (saved rbp, return address).
inline constexpr int kCapturedRegisterCount = 5;
using CapturedRegistersFn = codegen::ValuePair (*)(void* a0, const void* a1, int64_t a2,
                                                   const uint64_t* captured);
extern "C" codegen::ValuePair MorelCallWithCompiledCallerRegisters(void* a0, const void* a1,
                                                                   int64_t a2,
                                                                   CapturedRegistersFn fn);

// The guest-call entry (engine/pe/runtime_call.h, pe::GuestCallEntry; the
// engine sets it): compiled code calls it for PeContext::CallGuest with F's
// invoker and argument words and the call's lazy frame state. An assembly
// stub on x86_64 that captures the callee-saved registers as the compiled
// caller left them (as MorelCallWithCompiledCallerRegisters does) and calls
// MorelGuestCallFromCompiled, which pushes a NativeSegment for the compiled
// frames above while invoker(words, results) runs F.
extern "C" codegen::ValuePair MorelCallGuestFromCompiled(pe::RuntimeInvoker invoker, int64_t w0,
                                                         int64_t w1, int64_t w2, int64_t w3,
                                                         int64_t w4);
// `captured`: as for CapturedRegistersFn, or null (no segment).
extern "C" [[gnu::visibility("hidden")]] codegen::ValuePair MorelGuestCallFromCompiled(
    pe::RuntimeInvoker invoker, int64_t w0, int64_t w1, int64_t w2, int64_t w3, int64_t w4,
    const uint64_t* captured);

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_COMPILED_FRAMES_H_
