#include "engine/runtime/native_tier.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/check.h"
#include "engine/codegen/backend_registry.h"
#include "engine/runtime/compiled_frames.h"
#include "engine/runtime/compiler.h"
#include "engine/runtime/engine.h"
#include "nodes/heap_inline.h"
#include "nodes/pending_exception.h"
#include "nodes/stack_limit.h"

namespace morel::runtime {
namespace {

// Process-wide: the code cache, and which code lives where (the deopt
// handler finds its code by return address).
codegen::CodeCache& Cache() {
  static auto* cache = new codegen::CodeCache();
  return *cache;
}
std::mutex& RegionsLock() {
  static auto* lock = new std::mutex();
  return *lock;
}
std::map<const void*, NativeCode*>& Regions() {
  static auto* regions = new std::map<const void*, NativeCode*>();
  return *regions;
}

codegen::ValuePair ToPair(Value v) { return codegen::ValuePair{v.bits, v.tag}; }

using NativeEntry = codegen::ValuePair (*)(const Value* args, int64_t count);

// The lowering stores a call's operands -- (payload, tag) per guest
// argument -- in the caller's outgoing-argument area, so the area has
// exactly the layout of a Value array: it is the callee's argument array.
static_assert(sizeof(Value) == 2 * sizeof(uint64_t) && offsetof(Value, bits) == 0 &&
              offsetof(Value, tag) == sizeof(uint64_t));

// Where this thread's StackLimit lies relative to the thread pointer
// (RuntimeSupport::thread_pointer). The same on every thread for the static
// TLS block (nodes/ is linked into the program, never dlopen'ed);
// NativeCode::Invoke verifies it once per thread.
intptr_t LimitOffsetOnThisThread(uintptr_t (*thread_pointer)()) {
  return static_cast<intptr_t>(reinterpret_cast<uintptr_t>(StackLimit::LimitAddress()) -
                               thread_pointer());
}
std::atomic<intptr_t> compiled_limit_offset{0};
// Likewise the heads of this thread's inline free lists (compiled `alloc`).
intptr_t FreeListsOffsetOnThisThread(uintptr_t (*thread_pointer)()) {
  return static_cast<intptr_t>(reinterpret_cast<uintptr_t>(heap::InlineFreeListHeads()) -
                               thread_pointer());
}
std::atomic<intptr_t> compiled_free_lists_offset{0};
// The thread pointer the offsets above were computed with (null: none).
std::atomic<uintptr_t (*)()> compiled_thread_pointer{nullptr};

// Dispatch's slow path: the callee runs through CallTarget::Call
// (interpreter, compilation threshold, stack check). Out of line, so that
// the fast path needs no frame of its own and tail-jumps.
[[gnu::noinline]] codegen::ValuePair DispatchToCallTarget(CallTarget* callee, const Value* args,
                                                          int64_t count) {
  return ToPair(CatchIntoMarker([&] {
    return callee->Call(absl::Span<const Value>(args, static_cast<size_t>(count)));
  }));
}

// Dispatch's slow path under RuntimeSupport::call_with_captured_registers:
// the compiled frames above stay visible to stack walks while the callee
// runs.
codegen::ValuePair DispatchFromCompiled(void* callee, const void* args, int64_t count,
                                        const uint64_t* captured) {
  NativeSegment segment(&HostRuntimeSupport()->frame, captured);
  return DispatchToCallTarget(static_cast<CallTarget*>(callee), static_cast<const Value*>(args),
                              count);
}

// The host backend's capture stub (RuntimeSupport), or null.
std::atomic<codegen::CallWithCapturedRegistersFn> call_with_captured_registers{nullptr};

// call_target (engine/codegen/lower.h): dispatch(id, operands, count).
// kPrologueStackCheck: compiled callees check the guest stack in their
// prologues (RuntimeSupport::prologue_stack_check); else Dispatch does.
//
// Stack walks rely on the compiled caller's callee-saved registers being
// intact when its callee runs or the stub captures them (compiled_frames.h).
// Both exits are therefore tail jumps, taken after Dispatch's epilogue has
// restored whatever callee-saved registers its body used; GCC makes sibling
// calls only from -O2 on, so this function asks for them. Without it, under
// --config=ubsan (-O1), the checks' calls made Dispatch keep its values in
// rbx and r12-r15 and call the stub from its own frame: stacktrace() printed
// garbage locals of compiled callers (sl_conformance_test's
// InlinedStacktrace, StacktraceCompiledCallers, ...).
template <bool kPrologueStackCheck>
__attribute__((optimize("optimize-sibling-calls")))
codegen::ValuePair Dispatch(int64_t encoded, const Value* args, int64_t num_words) {
  CallTarget* callee = pe::DecodeCallTarget(encoded);
  const int64_t count = num_words / 2;
  // Compiled callee: call its machine code directly (its prologue checks the
  // guest stack, and first-tier code's counts the call). Its result (or the
  // pending-exception marker) passes through unchanged.
  // A requested safepoint or a MaxStackFrames limit takes the slow path:
  // CallTarget::Call polls the safepoint and counts the frame.
  const NodeRuntime* runtime = callee->runtime();
  if (const void* entry = callee->native_entry();
      entry != nullptr && (kPrologueStackCheck || !StackLimit::IsExceeded()) &&
      !runtime->SafepointRequested() && runtime->max_stack_frames() == 0) [[likely]] {
    return reinterpret_cast<NativeEntry>(const_cast<void*>(entry))(args, count);
  }
  // Through the stub that captures the compiled caller's callee-saved
  // registers: the callee may walk the stack and materialize this caller's
  // frame (compiled_frames.h). Only the slow path pays for it.
  if (codegen::CallWithCapturedRegistersFn stub =
          call_with_captured_registers.load(std::memory_order_relaxed);
      stub != nullptr) {
    return stub(callee, args, count, &DispatchFromCompiled);
  }
  return DispatchToCallTarget(callee, args, count);
}

// The code that contains `pc` (a return address into it).
NativeCode* FindCode(const void* pc) {
  absl::StatusOr<codegen::CodeRegion> region = Cache().Lookup(pc);
  NativeCode* code = nullptr;
  if (region.ok()) {
    std::lock_guard<std::mutex> guard(RegionsLock());
    auto it = Regions().find(region->start);
    if (it != Regions().end()) code = it->second;
  }
  MOREL_CHECK_MSG(code != nullptr, absl::StrFormat("no compiled code at %p", pc));
  return code;
}

// The prologue found the guest stack exhausted: it calls this with its own
// arguments untouched and returns what this returns. The call completes the
// slow way, through CallTarget::Call, which checks the same limit and raises
// the interpreter's StackOverflowError (the message names the function);
// should its frame still be above the limit (the compiled frame was the
// larger), the call runs and the check repeats deeper, so it terminates.
codegen::ValuePair StackOverflowHandler(const Value* args, int64_t count) {
  NativeCode* code = FindCode(__builtin_return_address(0));
  CallTarget& target = *code->compilation().target;
  return ToPair(CatchIntoMarker([&] {
    return target.Call(absl::Span<const Value>(args, static_cast<size_t>(count)));
  }));
}

codegen::ValuePair DeoptHandler(uint64_t id, uint64_t* saved_regs, uint8_t* frame_pointer,
                                const void* return_pc) {
  return ToPair(CatchIntoMarker([&]() -> Value {
    NativeCode* code = FindCode(return_pc);
    absl::StatusOr<codegen::DecodedDeopt> decoded =
        code->compiled().DecodeDeopt(id, saved_regs, frame_pointer);
    MOREL_CHECK_MSG(decoded.ok(), absl::StrCat("cannot decode deoptimization ", id, ": ",
                                               decoded.status().message()));
    // The compilation's own frame is the outermost (inlined callees'
    // frames come first).
    CallTarget* target = code->compilation().target;
    // The compiled callers of the deoptimized activation stay compiled:
    // stack walks from the resumed activation materialize them.
    const codegen::RuntimeSupport* support = HostRuntimeSupport();
    NativeSegment segment(support != nullptr ? &support->frame : nullptr, frame_pointer,
                          saved_regs, code);
    return ResumeInInterpreter(code->engine(), *target, code->compilation(), decoded->frames,
                               decoded->objects, decoded->reason, decoded->action, {});
  }));
}

}  // namespace

NativeCode* NativeCode::Find(const void* pc) {
  absl::StatusOr<codegen::CodeRegion> region = Cache().Lookup(pc);
  if (!region.ok()) return nullptr;
  std::lock_guard<std::mutex> guard(RegionsLock());
  auto it = Regions().find(region->start);
  return it != Regions().end() ? it->second : nullptr;
}

std::string HostArchitecture() {
  struct utsname name;
  if (uname(&name) != 0) return "";
  std::string machine = name.machine;
  if (machine == "arm64") return "aarch64";
  return machine;
}

codegen::HeapAllocation GuestHeapAllocation(const codegen::Backend& backend) {
  codegen::HeapAllocation heap;
  heap.allocate = reinterpret_cast<const void*>(&heap::AllocateTracedInline);
  const codegen::RuntimeSupport* support = backend.runtime_support();
  if (support == nullptr || support->thread_pointer == nullptr) return heap;
  // The same on every thread (static TLS); NativeCode::Invoke checks it
  // once per thread.
  const intptr_t offset = FreeListsOffsetOnThisThread(support->thread_pointer);
  const intptr_t end = offset + 8 * heap::kInlineFreeLists;
  if (offset != 0 && offset >= INT32_MIN && end <= INT32_MAX) {
    compiled_thread_pointer.store(support->thread_pointer, std::memory_order_relaxed);
    compiled_free_lists_offset.store(offset, std::memory_order_relaxed);
    heap.free_list_head = [offset](int64_t bytes) -> std::optional<int32_t> {
      const int list = heap::InlineFreeList(static_cast<size_t>(bytes));
      if (list < 0) return std::nullopt;
      return static_cast<int32_t>(offset + 8 * list);
    };
  }
  return heap;
}

absl::StatusOr<NativeTier*> NativeTier::Get(const std::string& name) {
  static std::mutex lock;
  static auto* tiers = new std::map<std::string, NativeTier*>();
  std::string backend_name = name == "host" ? HostArchitecture() : name;
  std::lock_guard<std::mutex> guard(lock);
  auto it = tiers->find(backend_name);
  if (it != tiers->end()) return it->second;
  absl::StatusOr<codegen::Backend*> backend = codegen::FindBackend(backend_name);
  if (!backend.ok()) return backend.status();
  absl::StatusOr<const void*> entry = (*backend)->CreateDeoptEntry(&DeoptHandler, Cache());
  if (!entry.ok()) return entry.status();
  // The machine facts the runtime needs (compiled_frames.h): every tier runs
  // on this host, so a later tier's agree with an earlier one's.
  const codegen::RuntimeSupport* support = (*backend)->runtime_support();
  if (support != nullptr) {
    MOREL_CHECK_MSG(support->thread_pointer != nullptr || !support->prologue_stack_check,
                    "a prologue stack check needs the thread pointer");
    SetHostRuntimeSupport(support);
    call_with_captured_registers.store(support->call_with_captured_registers,
                                       std::memory_order_relaxed);
  }
  // Compiled code's guest runtime calls go through the backend's entry,
  // which keeps their compiled callers visible to stack walks (set before
  // the first compilation: Engine::Create gets the tier).
  absl::StatusOr<const void*> guest_call_entry =
      (*backend)->CreateGuestCallEntry(&GuestCallFromCompiled, Cache());
  if (!guest_call_entry.ok()) return guest_call_entry.status();
  if (*guest_call_entry != nullptr) pe::SetGuestCallEntry(*guest_call_entry);
  auto* tier = new NativeTier(*backend, *entry);
  (*tiers)[backend_name] = tier;
  return tier;
}

namespace {

// --engine.PerfMap: perf's JIT symbol file, one "<hex start> <hex size>
// <name>" line per code region, appended as code is installed.
void WritePerfMapEntry(const codegen::CodeRegion& region, const std::string& name) {
  static std::mutex lock;
  static std::FILE* file = nullptr;
  std::lock_guard<std::mutex> guard(lock);
  if (file == nullptr) {
    file = std::fopen(absl::StrCat("/tmp/perf-", getpid(), ".map").c_str(), "a");
    if (file == nullptr) return;
  }
  std::fprintf(file, "%lx %zx %s\n", reinterpret_cast<unsigned long>(region.start),
               region.size, name.c_str());
  std::fflush(file);
}

}  // namespace

absl::StatusOr<std::unique_ptr<NativeCode>> NativeTier::Compile(
    Engine& engine, std::unique_ptr<pe::Compilation> compilation) {
  codegen::NativeCompileOptions options;
  options.codegen.deopt_entry = deopt_entry_;
  const codegen::RuntimeSupport* support = backend_->runtime_support();
  const bool prologue_stack_check = support != nullptr && support->prologue_stack_check;
  options.lowering.call_target_dispatch =
      prologue_stack_check ? reinterpret_cast<const void*>(&Dispatch<true>)
                           : reinterpret_cast<const void*>(&Dispatch<false>);
  options.lowering.heap = GuestHeapAllocation(*backend_);
  options.lowering.safepoint_word = engine.safepoint_word();
  RootNode* root = compilation->target->root_node();
  const bool osr_code = root->CompiledTreeRoot() != root;
  if (prologue_stack_check) {
    // The backend's prologues check a thread-local limit (Dispatch<true>
    // relies on it). The offset of this thread's limit from the thread
    // pointer is the same on every thread (static TLS: nodes/ is linked in,
    // not dlopen'ed).
    const intptr_t offset = LimitOffsetOnThisThread(support->thread_pointer);
    if (offset == 0 || offset < INT32_MIN || offset > INT32_MAX) {
      return absl::InternalError("the guest stack limit is not in the static TLS block");
    }
    compiled_thread_pointer.store(support->thread_pointer, std::memory_order_relaxed);
    compiled_limit_offset.store(offset, std::memory_order_relaxed);
    // Not for OSR code: only the interpreter's poll enters it, inside an activation
    // the interpreter checked, and every call it makes is checked by the
    // callee (prologue or CallTarget::Call). Its one frame stays within
    // StackLimit::kReserve (checked below: inlined callees make it larger),
    // and an OSR target cannot complete a call the slow way (it never runs
    // in the interpreter).
    if (!osr_code) {
      options.codegen.stack_limit.kind = codegen::StackLimit::Kind::kThreadLocal;
      options.codegen.stack_limit.offset = static_cast<int32_t>(offset);
      options.codegen.stack_overflow_handler =
          reinterpret_cast<const void*>(&StackOverflowHandler);
    }
  }
  absl::StatusOr<codegen::CompiledFunction> compiled =
      codegen::CompileFunction(*compilation->function, *backend_, Cache(), options);
  if (!compiled.ok()) return compiled.status();
  // OSR code has no stack check (above): its one frame, which holds the
  // callees inlined into it too, must fit well within the reserve.
  constexpr uint32_t kMaxOsrFrame = StackLimit::kReserve / 4;
  if (osr_code && compiled->code.metadata.frame_size > kMaxOsrFrame) {
    return absl::ResourceExhaustedError(
        absl::StrCat("OSR code's frame is ", compiled->code.metadata.frame_size,
                     " bytes; OSR code has no stack check, so at most ", kMaxOsrFrame));
  }
  const std::string name = compilation->target->name();
  if (engine.config().perf_map()) WritePerfMapEntry(compiled->code.region, name);
  if (engine.pipeline_options().ShouldDump("asm")) {  // --engine.DumpIR=asm (or all)
    absl::StatusOr<std::string> text = backend_->Disassemble(
        absl::MakeConstSpan(compiled->code.region.start, compiled->code.region.size),
        reinterpret_cast<uint64_t>(compiled->code.region.start));
    std::cerr << ";; machine code of " << name << "\n"
              << (text.ok() ? *text : std::string(text.status().message())) << "\n";
  }
  auto code = std::make_unique<NativeCode>(engine, std::move(compilation), *std::move(compiled));
  std::lock_guard<std::mutex> guard(RegionsLock());
  Regions()[code->compiled().code.region.start] = code.get();
  return code;
}

NativeCode::~NativeCode() {
  const uint8_t* start = compiled_.code.region.start;
  if (start == nullptr) return;
  {
    std::lock_guard<std::mutex> guard(RegionsLock());
    auto it = Regions().find(start);
    if (it != Regions().end() && it->second == this) Regions().erase(it);
  }
  // PROT_NONE at once (a stale jump faults), then reused or unmapped.
  (void)Cache().Free(start);
}

Value NativeCode::Invoke(CallTarget&, absl::Span<const Value> arguments) {
  // Entries into compiled code from C++ (the interpreter, OSR, deopt
  // resumption) tell the engine which thread runs its code.
  engine_.NoteThreadRunningCode();
  thread_local bool limit_offset_verified = false;
  if (!limit_offset_verified) {
    const auto thread_pointer = compiled_thread_pointer.load(std::memory_order_relaxed);
    const intptr_t limit = compiled_limit_offset.load(std::memory_order_relaxed);
    MOREL_CHECK_MSG(
        limit == 0 || LimitOffsetOnThisThread(thread_pointer) == limit,
        "the guest stack limit is not at the same TLS offset on every thread; compiled code "
        "cannot check the stack");
    const intptr_t lists = compiled_free_lists_offset.load(std::memory_order_relaxed);
    MOREL_CHECK_MSG(lists == 0 || FreeListsOffsetOnThisThread(thread_pointer) == lists,
                    "the inline free lists are not at the same TLS offset on every thread; "
                    "compiled code cannot allocate");
    limit_offset_verified = true;
  }
  auto entry =
      reinterpret_cast<Value (*)(const Value*, int64_t)>(const_cast<void*>(compiled_.entry));
  Value result = entry(arguments.data(), static_cast<int64_t>(arguments.size()));
  if (result.tag == kPendingExceptionTag) RethrowPendingException();
  return result;
}

}  // namespace morel::runtime
