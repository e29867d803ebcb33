#include "engine/runtime/compiled_frames.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/check.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/native_tier.h"
#include "nodes/call_target.h"
#include "nodes/root_node.h"

namespace morel::runtime {

#if defined(__x86_64__)
// Entry: rsp = 8 mod 16 (a call's return address on an aligned stack;
// Dispatch reaches the stub by a tail jump or a call). Frame:
//   [rbp + 8] return address, [rbp] saved rbp,
//   [rbp - 8 .. rbp - 40] r15, r14, r13, r12, rbx (rbx lowest),
// so `captured` = rbp - 40 lists rbx, r12, r13, r14, r15, saved rbp,
// return address at ascending addresses. The callee-saved registers are
// only read (the C++ callee preserves them).
asm(R"(
  .text
  .p2align 4
  .globl MorelCallWithCompiledCallerRegisters
  .hidden MorelCallWithCompiledCallerRegisters
  .type MorelCallWithCompiledCallerRegisters, @function
MorelCallWithCompiledCallerRegisters:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  pushq %r15
  pushq %r14
  pushq %r13
  pushq %r12
  pushq %rbx
  subq $8, %rsp
  movq %rcx, %r11
  leaq 8(%rsp), %rcx
  call *%r11
  leave
  .cfi_def_cfa %rsp, 8
  ret
  .cfi_endproc
  .size MorelCallWithCompiledCallerRegisters, .-MorelCallWithCompiledCallerRegisters
)");

// The guest-call entry (pe::GuestCallEntry): rdi = invoker, rsi, rdx, rcx,
// r8, r9 = the argument words. The same frame as above; `captured` goes to
// MorelGuestCallFromCompiled as its seventh argument, on the stack (entry
// rsp = 8 mod 16, six pushes, so the call is aligned).
asm(R"(
  .text
  .p2align 4
  .globl MorelCallGuestFromCompiled
  .hidden MorelCallGuestFromCompiled
  .type MorelCallGuestFromCompiled, @function
MorelCallGuestFromCompiled:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  pushq %r15
  pushq %r14
  pushq %r13
  pushq %r12
  pushq %rbx
  movq %rsp, %rax
  pushq %rax
  call MorelGuestCallFromCompiled
  leave
  .cfi_def_cfa %rsp, 8
  ret
  .cfi_endproc
  .size MorelCallGuestFromCompiled, .-MorelCallGuestFromCompiled
)");

namespace {
constexpr int kCapturedNumbers[kCapturedRegisterCount] = {3, 12, 13, 14, 15};  // rbx, r12-r15

const void* ReturnAddressOf(const uint8_t* link) {
  const void* pc;
  std::memcpy(&pc, link + 8, sizeof(pc));
  return pc;
}
const uint8_t* SavedLinkOf(const uint8_t* link) {
  const uint8_t* saved;
  std::memcpy(&saved, link, sizeof(saved));
  return saved;
}
}  // namespace

// Every guest call from compiled code pushes one of these, and few are ever
// walked: the captured registers are read where they are (the stub's frame,
// alive as long as the segment) when a walk needs them, not copied here.
NativeSegment::NativeSegment(const uint64_t* captured)
    : link_(reinterpret_cast<const uint8_t*>(captured + kCapturedRegisterCount)),
      captured_(captured),
      link_code_(nullptr) {}
#else
NativeSegment::NativeSegment(const uint64_t*) : link_(nullptr), link_code_(nullptr) {
  std::memset(registers_, 0, sizeof(registers_));
}
#endif

NativeSegment::NativeSegment(const uint8_t* link, const uint64_t* registers,
                             const NativeCode* link_code)
    : link_(link), link_code_(link_code) {
  std::memcpy(registers_, registers, sizeof(registers_));
}

bool NativeSegment::ForEachFrame(const FrameVisitor& visit) const {
#if defined(__x86_64__)
  uint64_t registers[kNumCompiledRegisters];
  if (captured_ != nullptr) {
    std::memset(registers, 0, sizeof(registers));
    for (int i = 0; i < kCapturedRegisterCount; ++i) {
      registers[kCapturedNumbers[i]] = captured_[i];
    }
  } else {
    std::memcpy(registers, registers_, sizeof(registers));
  }
  const uint8_t* link = link_;
  const NativeCode* link_code = link_code_;
  while (link != nullptr) {
    // The frame at `link` returns to its caller: restore the callee-saved
    // registers its prologue saved (the caller's values during the call).
    if (link_code != nullptr) {
      const std::vector<int>& saved = link_code->compiled().code.metadata.saved_registers;
      for (size_t k = 0; k < saved.size(); ++k) {
        std::memcpy(&registers[saved[k]], link - 8 * (k + 1), sizeof(uint64_t));
      }
    }
    const void* pc = ReturnAddressOf(link);
    const uint8_t* frame_pointer = SavedLinkOf(link);
    const NativeCode* code = NativeCode::Find(pc);
    if (code == nullptr) {
      // One C++ frame between compiled frames is Dispatch's (when it does
      // not tail-jump); its caller may be compiled. Two end the segment.
      if (frame_pointer == nullptr || frame_pointer <= link) break;
      pc = ReturnAddressOf(frame_pointer);
      link = frame_pointer;
      frame_pointer = SavedLinkOf(link);
      code = NativeCode::Find(pc);
      if (code == nullptr) break;
    }
    if (frame_pointer == nullptr || frame_pointer <= link) break;  // not a caller's frame
    // `code` runs at `frame_pointer`, suspended in the call returning to pc.
    const codegen::CompiledFunction& compiled = code->compiled();
    const uintptr_t offset = reinterpret_cast<uintptr_t>(pc) -
                             reinterpret_cast<uintptr_t>(compiled.code.region.start);
    int32_t deopt_id = -1;
    for (const codegen::CallSite& site : compiled.code.metadata.call_sites) {
      if (site.return_offset == offset) deopt_id = site.deopt_id;
    }
    // Calls without a lazy state: OSR code's (it keeps the interpreter's
    // frame current, which the walk lists) and calls that run no guest code.
    if (deopt_id >= 0) {
      absl::StatusOr<codegen::DecodedDeopt> decoded =
          compiled.DecodeDeopt(static_cast<uint64_t>(deopt_id), registers, frame_pointer);
      MOREL_CHECK_MSG(decoded.ok(),
                      absl::StrFormat("cannot decode the frame of compiled code at %p: %s", pc,
                                      decoded.status().message()));
      if (!VisitDeoptFrames(decoded->frames, visit)) return false;
    }
    link = frame_pointer;
    link_code = code;
  }
#endif
  return true;
}

extern "C" codegen::ValuePair MorelGuestCallFromCompiled(pe::RuntimeInvoker invoker, int64_t w0,
                                                         int64_t w1, int64_t w2, int64_t w3,
                                                         int64_t w4, const uint64_t* captured) {
  std::optional<NativeSegment> segment;
  if (captured != nullptr) segment.emplace(captured);
  // On the native stack, which the collector scans.
  const int64_t words[pe::kGuestCallMaxWords] = {w0, w1, w2, w3, w4};
  int64_t results[2] = {0, 0};
  invoker(absl::Span<const int64_t>(words, pe::kGuestCallMaxWords), results);
  return codegen::ValuePair{static_cast<uint64_t>(results[0]), static_cast<uint64_t>(results[1])};
}

#if !defined(__x86_64__)
// Other hosts: no captured registers (NativeSegment lists nothing there).
extern "C" codegen::ValuePair MorelCallGuestFromCompiled(pe::RuntimeInvoker invoker, int64_t w0,
                                                         int64_t w1, int64_t w2, int64_t w3,
                                                         int64_t w4) {
  return MorelGuestCallFromCompiled(invoker, w0, w1, w2, w3, w4, nullptr);
}
#endif

bool VisitDeoptFrames(absl::Span<const ir::DeoptFrame> frames, const FrameVisitor& visit) {
  for (const ir::DeoptFrame& frame : frames) {
    CallTarget* target = Engine::FindCallTargetInProcess(frame.call_target_id);
    RootNode* root = target->root_node();
    const FrameDescriptor& descriptor = root->frame_descriptor();
    // The values are still held by the compiled activation (its machine
    // frame, or the IR tier's traced value table), which the collector
    // scans, so a plain vector may hold them during the visit.
    std::vector<Value> slots(static_cast<size_t>(descriptor.size()), Value::Illegal());
    for (size_t i = 0; i < frame.locals.size() && i < slots.size(); ++i) {
      slots[i] = ValueOfSlot(frame.locals[i]);
    }
    FrameInstance instance{root, &descriptor, absl::Span<const Value>(slots), nullptr};
    if (!visit(instance)) return false;
  }
  return true;
}

bool InterpretedIrSegment::ForEachFrame(const FrameVisitor& visit) const {
  return frames_ == nullptr || VisitDeoptFrames(*frames_, visit);
}

}  // namespace morel::runtime
