#include "engine/runtime/native_tier.h"

#include <sys/utsname.h>

#include <map>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/codegen/backend_registry.h"
#include "engine/runtime/compiler.h"
#include "engine/runtime/engine.h"
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

// call_target: (encoded id, argument words...) -> result.
codegen::ValuePair Dispatch(int64_t encoded, uint64_t w0, uint64_t w1, uint64_t w2,
                            uint64_t w3, uint64_t w4) {
  CallTarget* callee = pe::DecodeCallTarget(encoded);
  int count = pe::DecodeArgumentCount(encoded);
  Value args[2] = {Value{w0, w1}, Value{w2, w3}};
  (void)w4;
  // Compiled callee: call its machine code directly. Its result (or the
  // pending-exception marker) passes through unchanged.
  if (const void* entry = callee->native_entry(); entry != nullptr && !StackLimit::IsExceeded()) {
    callee->CountCall();
    return reinterpret_cast<codegen::ValuePair (*)(const Value*, int64_t)>(entry)(args, count);
  }
  return ToPair(CatchIntoMarker([&] {
    return callee->Call(absl::Span<const Value>(args, static_cast<size_t>(count)));
  }));
}

codegen::ValuePair DeoptHandler(uint64_t id, uint64_t* saved_regs, uint8_t* frame_pointer,
                                const void* return_pc) {
  return ToPair(CatchIntoMarker([&]() -> Value {
    absl::StatusOr<codegen::CodeRegion> region = Cache().Lookup(return_pc);
    NativeCode* code = nullptr;
    if (region.ok()) {
      std::lock_guard<std::mutex> guard(RegionsLock());
      auto it = Regions().find(region->start);
      if (it != Regions().end()) code = it->second;
    }
    if (code == nullptr) {
      std::fprintf(stderr, "morel: deoptimization from unknown code at %p\n", return_pc);
      std::abort();
    }
    absl::StatusOr<codegen::DecodedDeopt> decoded =
        code->compiled().DecodeDeopt(id, saved_regs, frame_pointer);
    if (!decoded.ok()) {
      std::fprintf(stderr, "morel: cannot decode deoptimization %llu: %s\n",
                   static_cast<unsigned long long>(id),
                   std::string(decoded.status().message()).c_str());
      std::abort();
    }
    const ir::DeoptFrame& frame = decoded->frames.front();
    CallTarget* target = Engine::FindCallTargetInProcess(frame.call_target_id);
    return ResumeInInterpreter(code->engine(), *target, code->compilation(), frame,
                               decoded->reason, {});
  }));
}

}  // namespace

std::string HostArchitecture() {
  struct utsname name;
  if (uname(&name) != 0) return "";
  std::string machine = name.machine;
  if (machine == "arm64") return "aarch64";
  return machine;
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
  auto* tier = new NativeTier(*backend, *entry);
  (*tiers)[backend_name] = tier;
  return tier;
}

absl::StatusOr<std::unique_ptr<NativeCode>> NativeTier::Compile(
    Engine& engine, std::unique_ptr<pe::Compilation> compilation) {
  codegen::NativeCompileOptions options;
  options.codegen.deopt_entry = deopt_entry_;
  options.lowering.call_target_dispatch = reinterpret_cast<const void*>(&Dispatch);
  absl::StatusOr<codegen::CompiledFunction> compiled =
      codegen::CompileFunction(*compilation->function, *backend_, Cache(), options);
  if (!compiled.ok()) return compiled.status();
  auto code = std::make_unique<NativeCode>(engine, std::move(compilation), *std::move(compiled));
  std::lock_guard<std::mutex> guard(RegionsLock());
  Regions()[code->compiled().code.region.start] = code.get();
  return code;
}

Value NativeCode::Invoke(CallTarget&, absl::Span<const Value> arguments) {
  auto entry = reinterpret_cast<Value (*)(const Value*, int64_t)>(compiled_.entry);
  Value result = entry(arguments.data(), static_cast<int64_t>(arguments.size()));
  if (result.tag == kPendingExceptionTag) RethrowPendingException();
  return result;
}

}  // namespace morel::runtime
