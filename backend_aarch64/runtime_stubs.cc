#include "backend_aarch64/runtime_stubs.h"

#include <cstdint>

#include "backend_aarch64/regs.h"
#include "base/check.h"

namespace morel::aarch64 {

#if defined(__aarch64__)

// The target of the guest-call entry below (GuestCallEntry sets it before
// returning the entry, so before any code calls it).
extern "C" {
[[gnu::visibility("hidden")]] codegen::GuestCallTarget morel_aarch64_guest_call_target = nullptr;

codegen::ValuePair MorelCallWithCompiledCallerRegisters(void* a0, const void* a1, int64_t a2,
                                                        codegen::CapturedRegistersFn fn);
codegen::ValuePair MorelCallGuestFromCompiled(const void* invoker, int64_t w0, int64_t w1,
                                              int64_t w2, int64_t w3, int64_t w4);
}

// Two stubs with one frame, in one asm statement (so the macros precede
// their uses). MOREL_CAPTURE_FRAME makes the frame
//   [x29 + 8] return address, [x29] caller's x29,
//   [x29 - 80 .. x29 - 8] x19, x20, ..., x28 (x19 lowest),
// so `captured` = sp = x29 - 80 lists x19..x28, the saved x29 and the return
// address at ascending addresses (Support() below). The callee-saved
// registers are only read (the C++ callee preserves them).
//
// MorelCallWithCompiledCallerRegisters(a0, a1, a2, fn) calls
// fn(a0, a1, a2, captured): fn arrives in x3, captured leaves in x3.
//
// MorelCallGuestFromCompiled, the guest-call entry (pe::GuestCallEntry):
// x0 = invoker, x1..x5 = the argument words; `captured` goes to
// morel_aarch64_guest_call_target as its seventh argument (x6).
asm(R"(
  .macro MOREL_CAPTURE_FRAME name
  .text
  .p2align 4
  .globl \name
  .hidden \name
  .type \name, %function
\name:
  .cfi_startproc
  stp x29, x30, [sp, #-16]!
  .cfi_def_cfa_offset 16
  .cfi_offset x29, -16
  .cfi_offset x30, -8
  mov x29, sp
  .cfi_def_cfa x29, 16
  sub sp, sp, #80
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  .endm

  .macro MOREL_END_CAPTURE_FRAME name
  mov sp, x29
  ldp x29, x30, [sp], #16
  .cfi_def_cfa sp, 0
  .cfi_restore x29
  .cfi_restore x30
  ret
  .cfi_endproc
  .size \name, .-\name
  .endm

  MOREL_CAPTURE_FRAME MorelCallWithCompiledCallerRegisters
  mov x16, x3
  mov x3, sp
  blr x16
  MOREL_END_CAPTURE_FRAME MorelCallWithCompiledCallerRegisters

  MOREL_CAPTURE_FRAME MorelCallGuestFromCompiled
  mov x6, sp
  adrp x16, morel_aarch64_guest_call_target
  ldr x16, [x16, :lo12:morel_aarch64_guest_call_target]
  blr x16
  MOREL_END_CAPTURE_FRAME MorelCallGuestFromCompiled
)");

namespace {

uintptr_t ThreadPointer() {
  uintptr_t tp;
  asm("mrs %0, tpidr_el0" : "=r"(tp));
  return tp;
}

const codegen::RuntimeSupport& Support() {
  static const auto* support = [] {
    auto* s = new codegen::RuntimeSupport();
    // Every frame keeps x29 as its frame pointer: [x29] = caller's x29,
    // [x29 + 8] = return address; the prologue saves the callee-saved
    // registers it writes below x29 (frame.h).
    s->frame.return_address_offset = 8;
    s->frame.caller_link_offset = 0;
    s->frame.saved_registers_offset = -8;
    s->frame.register_count = kNumGprs;
    s->frame.captured_registers = {kX19, kX20, kX21, kX22, kX23, kX24, kX25, kX26, kX27, kX28};
    s->thread_pointer = &ThreadPointer;
    // The prologue checks a TPIDR_EL0-relative limit (frame.cc).
    s->prologue_stack_check = true;
    s->call_with_captured_registers = &MorelCallWithCompiledCallerRegisters;
    return s;
  }();
  return *support;
}

}  // namespace

const codegen::RuntimeSupport* Aarch64RuntimeSupport() { return &Support(); }

const void* GuestCallEntry(codegen::GuestCallTarget target) {
  codegen::GuestCallTarget expected = nullptr;
  if (!__atomic_compare_exchange_n(&morel_aarch64_guest_call_target, &expected, target,
                                   /*weak=*/false, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
    MOREL_CHECK_MSG(expected == target, "the AArch64 guest-call entry has another target");
  }
  return reinterpret_cast<const void*>(&MorelCallGuestFromCompiled);
}

#else  // !defined(__aarch64__): generates code that this host cannot run.

const codegen::RuntimeSupport* Aarch64RuntimeSupport() { return nullptr; }
const void* GuestCallEntry(codegen::GuestCallTarget) { return nullptr; }

#endif

}  // namespace morel::aarch64
