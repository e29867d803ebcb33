#ifndef MOREL_ENGINE_RUNTIME_NATIVE_TIER_H_
#define MOREL_ENGINE_RUNTIME_NATIVE_TIER_H_

// The native tier: optimized IR -> machine code through a Backend plugin
// (engine/codegen: lowering, register allocation, encoding, code cache),
// installed as a call target's code.
//
// Conventions between compiled code and the runtime:
//  - entry: Value (*)(const Value* args, int64_t count), result in the first
//    two integer return registers (x86_64: RAX:RDX);
//  - `call_target` goes through Dispatch(encoded id, const Value* args,
//    int64_t words): compiled code stores the (payload, tag) operands of any
//    number of arguments in its outgoing-argument area (engine/codegen/
//    lower.h), which is the callee's argument array as is. A compiled callee
//    is entered directly (a tail jump); else its CallTarget::Call runs;
//  - the guest stack limit: every compiled function (OSR code excepted: the
//    interpreter enters it inside a checked activation) checks StackLimit's
//    per-thread limit in its prologue when the backend's RuntimeSupport
//    says prologue_stack_check (thread-pointer-relative, static TLS; x86_64:
//    %fs); below it, StackOverflowHandler completes the call through
//    CallTarget::Call, which raises the interpreter's StackOverflowError.
//    So Dispatch does not check the stack itself then (else it does);
//  - `alloc` allocates from the guest heap (GuestHeapAllocation): compiled
//    code pops this thread's inline free lists (nodes/heap_inline.h;
//    thread-pointer-relative, static TLS, when the backend has a
//    RuntimeSupport::thread_pointer) and calls heap::AllocateTracedInline
//    when one is empty;
//  - a deoptimization calls DeoptHandler, which finds the code by its
//    return address, decodes the frame state, allocates the virtual objects
//    it names and finishes the activation in the interpreter
//    (ResumeInInterpreter);
//  - guest errors cross every boundary as the pending-exception marker
//    (nodes/pending_exception.h); NativeCode::Invoke rethrows it.
//
// One tier (code cache, deopt entry) per backend per process. Every machine
// fact (frame layout, capture stubs, guest-call entry, thread pointer,
// whether prologues check the stack) comes from the backend
// (codegen::RuntimeSupport, Backend::CreateGuestCallEntry).

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/compile.h"
#include "engine/pe/partial_evaluator.h"
#include "nodes/call_target.h"

namespace morel::runtime {

class Engine;

class NativeCode : public InstalledCode {
 public:
  NativeCode(Engine& engine, std::unique_ptr<pe::Compilation> compilation,
             codegen::CompiledFunction compiled)
      : engine_(engine), compilation_(std::move(compilation)), compiled_(std::move(compiled)) {}
  // Unregisters the code and frees its region in the code cache. The
  // owner (Engine) destroys code only when no activation of it can exist:
  // with the engine, or after a stack scan (Engine::ReclaimDroppedCode).
  ~NativeCode() override;
  Value Invoke(CallTarget& target, absl::Span<const Value> arguments) override;
  // The installed code containing `pc` (e.g. a return address), or null.
  static NativeCode* Find(const void* pc);

  Engine& engine() const { return engine_; }
  const pe::Compilation& compilation() const { return *compilation_; }
  const codegen::CompiledFunction& compiled() const { return compiled_; }

 private:
  Engine& engine_;
  std::unique_ptr<pe::Compilation> compilation_;
  codegen::CompiledFunction compiled_;
};

class NativeTier {
 public:
  // The process-wide tier of backend `name` (found through the backend
  // registry; "host" is the machine's architecture).
  static absl::StatusOr<NativeTier*> Get(const std::string& name);

  // Compiles optimized IR to installed native code.
  absl::StatusOr<std::unique_ptr<NativeCode>> Compile(
      Engine& engine, std::unique_ptr<pe::Compilation> compilation);

  codegen::Backend& backend() { return *backend_; }

 private:
  NativeTier(codegen::Backend* backend, const void* deopt_entry)
      : backend_(backend), deopt_entry_(deopt_entry) {}

  codegen::Backend* backend_;
  const void* deopt_entry_;
};

// The architecture Morel runs on, as a backend name ("x86_64", "aarch64").
std::string HostArchitecture();

// How code compiled by `backend` allocates guest objects:
// heap::AllocateTracedInline, and when the backend reaches the thread
// pointer (codegen::RuntimeSupport::thread_pointer; x86_64) the inline free
// lists of nodes/heap_inline.h at their offset from it.
codegen::HeapAllocation GuestHeapAllocation(const codegen::Backend& backend);

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_NATIVE_TIER_H_
