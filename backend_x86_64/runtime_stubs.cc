#include "backend_x86_64/runtime_stubs.h"

#include <cstdint>

#include "backend_x86_64/regs.h"
#include "base/check.h"

namespace morel::x86_64 {

#if defined(__x86_64__)

// The target of the guest-call entry below (GuestCallEntry sets it before
// returning the entry, so before any code calls it).
extern "C" {
[[gnu::visibility("hidden")]] codegen::GuestCallTarget morel_x86_64_guest_call_target = nullptr;

codegen::ValuePair MorelCallWithCompiledCallerRegisters(void* a0, const void* a1, int64_t a2,
                                                        codegen::CapturedRegistersFn fn);
codegen::ValuePair MorelCallGuestFromCompiled(const void* invoker, int64_t w0, int64_t w1,
                                              int64_t w2, int64_t w3, int64_t w4);
}

// Two stubs with one frame, in one asm statement (so the macros precede
// their uses). Entry: rsp = 8 mod 16 (a call's return address on an
// aligned stack; the runtime's Dispatch reaches the first stub by a tail
// jump or a call). MOREL_CAPTURE_FRAME makes the frame
//   [rbp + 8] return address, [rbp] saved rbp,
//   [rbp - 8 .. rbp - 40] r15, r14, r13, r12, rbx (rbx lowest),
// so `captured` = rbp - 40 lists rbx, r12, r13, r14, r15, saved rbp,
// return address at ascending addresses (Support() below). The callee-saved
// registers are only read (the C++ callee preserves them).
//
// MorelCallWithCompiledCallerRegisters(a0, a1, a2, fn) calls
// fn(a0, a1, a2, captured).
//
// MorelCallGuestFromCompiled, the guest-call entry (pe::GuestCallEntry):
// rdi = invoker, rsi, rdx, rcx, r8, r9 = the argument words; `captured`
// goes to morel_x86_64_guest_call_target as its seventh argument, on the
// stack (six pushes after entry, so the call is aligned).
asm(R"(
  .macro MOREL_CAPTURE_FRAME name
  .text
  .p2align 4
  .globl \name
  .hidden \name
  .type \name, @function
\name:
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
  .endm

  .macro MOREL_END_CAPTURE_FRAME name
  leave
  .cfi_def_cfa %rsp, 8
  .cfi_restore %rbp
  ret
  .cfi_endproc
  .size \name, .-\name
  .endm

  MOREL_CAPTURE_FRAME MorelCallWithCompiledCallerRegisters
  subq $8, %rsp
  movq %rcx, %r11
  leaq 8(%rsp), %rcx
  call *%r11
  MOREL_END_CAPTURE_FRAME MorelCallWithCompiledCallerRegisters

  MOREL_CAPTURE_FRAME MorelCallGuestFromCompiled
  movq %rsp, %rax
  pushq %rax
  call *morel_x86_64_guest_call_target(%rip)
  MOREL_END_CAPTURE_FRAME MorelCallGuestFromCompiled
)");

namespace {

uintptr_t ThreadPointer() {
  uintptr_t tp;
  asm("mov %%fs:0, %0" : "=r"(tp));  // the TCB's self pointer (x86_64 glibc)
  return tp;
}

const codegen::RuntimeSupport& Support() {
  static const auto* support = [] {
    auto* s = new codegen::RuntimeSupport();
    // Every frame keeps rbp as its frame pointer: [rbp] = caller's rbp,
    // [rbp + 8] = return address; the prologue saves the callee-saved
    // registers it writes below rbp (frame.h).
    s->frame.return_address_offset = 8;
    s->frame.caller_link_offset = 0;
    s->frame.saved_registers_offset = -8;
    s->frame.register_count = kNumGprs;
    s->frame.captured_registers = {kRbx, kR12, kR13, kR14, kR15};
    s->thread_pointer = &ThreadPointer;
    // The prologue checks a %fs-relative limit (frame.cc).
    s->prologue_stack_check = true;
    s->call_with_captured_registers = &MorelCallWithCompiledCallerRegisters;
    return s;
  }();
  return *support;
}

}  // namespace

const codegen::RuntimeSupport* X86_64RuntimeSupport() { return &Support(); }

const void* GuestCallEntry(codegen::GuestCallTarget target) {
  codegen::GuestCallTarget expected = nullptr;
  if (!__atomic_compare_exchange_n(&morel_x86_64_guest_call_target, &expected, target,
                                   /*weak=*/false, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
    MOREL_CHECK_MSG(expected == target, "the x86_64 guest-call entry has another target");
  }
  return reinterpret_cast<const void*>(&MorelCallGuestFromCompiled);
}

#else  // !defined(__x86_64__): generates code that this host cannot run.

const codegen::RuntimeSupport* X86_64RuntimeSupport() { return nullptr; }
const void* GuestCallEntry(codegen::GuestCallTarget) { return nullptr; }

#endif

}  // namespace morel::x86_64
