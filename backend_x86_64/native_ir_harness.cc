#include "backend_x86_64/native_ir_harness.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "backend_x86_64/runtime_stubs.h"
#include "backend_x86_64/x86_64_backend.h"
#include "engine/ir/semantics.h"

namespace morel::x86_64::testing {
namespace {

using codegen::ValuePair;
using NativeFn = ValuePair (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

// Installed functions by code start, for the deopt handler.
std::mutex registry_mu;
std::map<uintptr_t, const codegen::CompiledFunction*>& Registry() {
  static auto* registry = new std::map<uintptr_t, const codegen::CompiledFunction*>();
  return *registry;
}

struct DeoptRecord {
  const codegen::CompiledFunction* function = nullptr;  // what Run called
  bool deoptimized = false;
  absl::StatusOr<codegen::DecodedDeopt> decoded;
};
thread_local std::vector<DeoptRecord*> records;
thread_local int64_t inner_deopts = 0;

ValuePair Handler(uint64_t id, uint64_t* saved_regs, uint8_t* frame_pointer,
                  const void* return_pc) {
  const codegen::CompiledFunction* fn = nullptr;
  {
    std::lock_guard<std::mutex> lock(registry_mu);
    auto& reg = Registry();
    auto it = reg.upper_bound(reinterpret_cast<uintptr_t>(return_pc));
    if (it != reg.begin()) {
      --it;
      if (reinterpret_cast<uintptr_t>(return_pc) < it->first + it->second->code_size) {
        fn = it->second;
      }
    }
  }
  if (records.empty()) return {0xdead, 0xdead};
  DeoptRecord* rec = records.back();
  if (fn != rec->function) {
    // A callee compiled code called directly: it "finished in the
    // interpreter" with (0, 0); the activation Run watches goes on.
    ++inner_deopts;
    return {0, 0};
  }
  rec->deoptimized = true;
  if (fn == nullptr) {
    rec->decoded = absl::InternalError("deopt from unknown code");
  } else {
    rec->decoded = fn->DecodeDeopt(id, saved_regs, frame_pointer);
  }
  return {0, 0};
}

int64_t Arg(absl::Span<const int64_t> a, size_t i) { return i < a.size() ? a[i] : 0; }

// ------------------------------------------------------------- test heap

// Zero-filled, 16-byte aligned, kept for the life of the process (objects
// may be reachable from anywhere a test looks).
void* ZeroedObject(int64_t bytes) {
  static std::mutex mu;
  static auto* chunks = new std::vector<std::unique_ptr<uint64_t[]>>();
  const size_t words = static_cast<size_t>((bytes + 15) / 16 * 2);
  std::lock_guard<std::mutex> lock(mu);
  chunks->push_back(std::make_unique<uint64_t[]>(words == 0 ? 2 : words));  // zeroed
  return chunks->back().get();
}

constexpr int kTestFreeLists = static_cast<int>(kTestFreeListMaxBytes / 16) + 1;  // index 0 unused
// In the static TLS block (this library is linked in, never dlopen'ed): at
// the same offset from the thread pointer on every thread.
thread_local void* test_heads[kTestFreeLists];
thread_local TestHeapCounts test_counts;

int FreeListIndex(int64_t bytes) {
  const int64_t k = (bytes + 15) / 16;
  return k > 0 && k < kTestFreeLists ? static_cast<int>(k) : -1;
}

}  // namespace

intptr_t ThreadPointerOffset(const void* address) {
  const codegen::RuntimeSupport* support = X86_64RuntimeSupport();
  const uintptr_t tp = support != nullptr ? support->thread_pointer() : 0;
  return static_cast<intptr_t>(reinterpret_cast<uintptr_t>(address) - tp);
}

void* TestAllocate(int64_t bytes) {
  ++test_counts.slow_calls;
  const int k = FreeListIndex(bytes);
  if (k < 0) return ZeroedObject(bytes);
  if (test_heads[k] == nullptr) {
    ++test_counts.refills;
    for (int i = 0; i < kTestRefillObjects; ++i) {
      void* object = ZeroedObject(16 * k);
      *static_cast<void**>(object) = test_heads[k];
      test_heads[k] = object;
    }
  }
  void* object = test_heads[k];
  test_heads[k] = *static_cast<void**>(object);
  *static_cast<void**>(object) = nullptr;
  return object;
}

codegen::HeapAllocation TestHeap(bool fast_path) {
  codegen::HeapAllocation heap;
  heap.allocate = reinterpret_cast<const void*>(&TestAllocate);
  if (fast_path) {
    // Taken on the compiling thread; the same on every thread (static TLS).
    const intptr_t base = ThreadPointerOffset(&test_heads[0]);
    heap.free_list_head = [base](int64_t bytes) -> std::optional<int32_t> {
      const int k = FreeListIndex(bytes);
      if (k < 0) return std::nullopt;
      return static_cast<int32_t>(base + 8 * k);
    };
  }
  return heap;
}

TestHeapCounts TestHeapCountsOnThisThread() { return test_counts; }

void ResetTestHeap() {
  test_counts = {};
  for (void*& head : test_heads) head = nullptr;
}

std::vector<int64_t> DispatchSemantics(int64_t id, absl::Span<const int64_t> a,
                                       size_t num_results) {
  static constexpr size_t kArity[] = {0, 2, 3, 5};
  if (id >= 1 && id <= 3) a = a.subspan(0, std::min(kArity[id], a.size()));
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  std::vector<int64_t> r;
  switch (id) {
    case 1: r = {static_cast<int64_t>(u(Arg(a, 0)) + u(Arg(a, 1))), Arg(a, 1) ^ 7}; break;
    case 2: r = {static_cast<int64_t>(u(Arg(a, 0)) * 3 - u(Arg(a, 2))), 5}; break;
    case 3: {
      uint64_t h = 14695981039346656037ull;
      for (size_t i = 0; i < 5; ++i) h = (h ^ u(Arg(a, i))) * 1099511628211ull;
      r = {static_cast<int64_t>(h), static_cast<int64_t>(h >> 7)};
      break;
    }
    case 4: {  // every operand, and how many there are
      uint64_t h = 1469598103934665603ull ^ a.size();
      for (int64_t v : a) h = (h ^ u(v)) * 1099511628211ull;
      r = {static_cast<int64_t>(h), static_cast<int64_t>(a.size())};
      break;
    }
    default: r = {id, -1}; break;
  }
  r.resize(num_results);
  return r;
}

ValuePair TestDispatch(int64_t id, const int64_t* operands, int64_t count) {
  std::vector<int64_t> r =
      DispatchSemantics(id, absl::Span<const int64_t>(operands, static_cast<size_t>(count)), 2);
  return {static_cast<uint64_t>(r[0]), static_cast<uint64_t>(r[1])};
}

int64_t InnerDeoptCount() { return inner_deopts; }

ir::InterpreterOptions NativeEquivalentHooks() {
  ir::InterpreterOptions options;
  options.call_runtime = [](const ir::RuntimeFunction& f, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    if (f.address == nullptr || args.size() > 6) {
      return absl::FailedPreconditionError(absl::StrCat("cannot call @", f.name));
    }
    auto fn = reinterpret_cast<NativeFn>(const_cast<void*>(f.address));
    ValuePair p = fn(Arg(args, 0), Arg(args, 1), Arg(args, 2), Arg(args, 3), Arg(args, 4),
                     Arg(args, 5));
    std::vector<int64_t> out;
    const int64_t raw[] = {static_cast<int64_t>(p.first), static_cast<int64_t>(p.second)};
    for (size_t i = 0; i < f.signature.results.size(); ++i) {
      out.push_back(ir::Normalize(f.signature.results[i], raw[i]));
    }
    return out;
  };
  options.call_target = [](int64_t target, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> { return DispatchSemantics(target, args, 2); };
  options.allocate = [](int64_t bytes) { return ZeroedObject(bytes); };
  return options;
}

absl::StatusOr<ir::ExecutionResult> NativeFunction::Run(absl::Span<const int64_t> args) const {
  if (args.size() > 6) return absl::InvalidArgumentError("at most 6 arguments");
  DeoptRecord rec;
  rec.function = &compiled_;
  records.push_back(&rec);
  auto fn = reinterpret_cast<NativeFn>(const_cast<void*>(compiled_.entry));
  ValuePair p = fn(Arg(args, 0), Arg(args, 1), Arg(args, 2), Arg(args, 3), Arg(args, 4),
                   Arg(args, 5));
  records.pop_back();
  ir::ExecutionResult result;
  if (rec.deoptimized) {
    if (!rec.decoded.ok()) return rec.decoded.status();
    result.kind = ir::ExecutionResult::Kind::kDeoptimized;
    result.reason = rec.decoded->reason;
    result.action = rec.decoded->action;
    result.frames = rec.decoded->frames;
    result.objects = rec.decoded->objects;
    return result;
  }
  const int64_t raw[] = {static_cast<int64_t>(p.first), static_cast<int64_t>(p.second)};
  for (size_t i = 0; i < num_results_; ++i) result.values.push_back(raw[i]);
  return result;
}

NativeHarness::NativeHarness() : backend_(CreateX86_64Backend()) {
  absl::StatusOr<const void*> entry = backend_->CreateDeoptEntry(&Handler, cache_);
  if (entry.ok()) deopt_entry_ = *entry;
}

NativeHarness::~NativeHarness() {
  std::lock_guard<std::mutex> lock(registry_mu);
  for (uintptr_t start : registered_) Registry().erase(start);
}

codegen::NativeCompileOptions NativeHarness::DefaultOptions() const {
  codegen::NativeCompileOptions options;
  options.codegen.deopt_entry = deopt_entry_;
  options.lowering.call_target_dispatch = reinterpret_cast<const void*>(&TestDispatch);
  options.lowering.heap = TestHeap();
  return options;
}

absl::StatusOr<std::unique_ptr<NativeFunction>> NativeHarness::Compile(const ir::Function& f) {
  return Compile(f, DefaultOptions());
}

absl::StatusOr<std::unique_ptr<NativeFunction>> NativeHarness::Compile(
    const ir::Function& f, const codegen::NativeCompileOptions& options) {
  if (deopt_entry_ == nullptr) return absl::InternalError("no deopt entry");
  absl::StatusOr<codegen::CompiledFunction> compiled =
      codegen::CompileFunction(f, *backend_, cache_, options);
  if (!compiled.ok()) return compiled.status();
  auto out = std::make_unique<NativeFunction>();
  out->compiled_ = std::move(*compiled);
  out->num_results_ = f.result_types().size();
  std::lock_guard<std::mutex> lock(registry_mu);
  Registry()[reinterpret_cast<uintptr_t>(out->compiled_.entry)] = &out->compiled_;
  registered_.push_back(reinterpret_cast<uintptr_t>(out->compiled_.entry));
  return out;
}

}  // namespace morel::x86_64::testing
