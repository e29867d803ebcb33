#include "engine/codegen/testing/ir_harness.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/codegen/backend_registry.h"
#include "engine/ir/semantics.h"

namespace morel::codegen::testing {
namespace {

using NativeFn = ValuePair (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);

// Installed functions by code start, for the deopt handler.
std::mutex registry_mu;
std::map<uintptr_t, const CompiledFunction*>& Registry() {
  static auto* registry = new std::map<uintptr_t, const CompiledFunction*>();
  return *registry;
}

struct DeoptRecord {
  const CompiledFunction* function = nullptr;  // what Run called
  bool deoptimized = false;
  absl::StatusOr<DecodedDeopt> decoded;
};
thread_local std::vector<DeoptRecord*> records;
thread_local int64_t inner_deopts = 0;

ValuePair Handler(uint64_t id, uint64_t* saved_regs, uint8_t* frame_pointer,
                  const void* return_pc) {
  const CompiledFunction* fn = nullptr;
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

namespace {

// ------------------------------------------------------------- runners


// Code for this host's processor: called as a C function.
class NativeRunner : public CodeRunner {
 public:
  explicit NativeRunner(const Backend& backend) : support_(backend.runtime_support()) {}
  bool native() const override { return true; }
  uintptr_t ThreadPointer() const override {
    return support_ != nullptr && support_->thread_pointer != nullptr ? support_->thread_pointer()
                                                                      : 0;
  }
  absl::Status AllowHostCall(const void*) override { return absl::OkStatus(); }
  absl::StatusOr<ValuePair> Call(const void* entry, absl::Span<const int64_t> args) override {
    if (args.size() > 6) return absl::InvalidArgumentError("at most 6 arguments");
    auto fn = reinterpret_cast<NativeFn>(const_cast<void*>(entry));
    return fn(Arg(args, 0), Arg(args, 1), Arg(args, 2), Arg(args, 3), Arg(args, 4), Arg(args, 5));
  }

 private:
  const RuntimeSupport* support_;
};

std::mutex runners_mu;
std::map<std::string, CodeRunnerFactory, std::less<>>& RunnerFactories() {
  static auto* factories = new std::map<std::string, CodeRunnerFactory, std::less<>>();
  return *factories;
}

bool IsHostBackend(absl::string_view name) { return name == BackendNameForOption("host"); }

absl::StatusOr<std::unique_ptr<CodeRunner>> CreateRunner(const Backend& backend, CodeCache& cache) {
  if (IsHostBackend(backend.name())) return std::make_unique<NativeRunner>(backend);
  CodeRunnerFactory factory;
  {
    std::lock_guard<std::mutex> lock(runners_mu);
    auto it = RunnerFactories().find(backend.name());
    if (it == RunnerFactories().end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "code of backend '", backend.name(), "' cannot run on this host (",
          BackendNameForOption("host"), ") and no emulator for it is linked"));
    }
    factory = it->second;
  }
  return factory(backend, cache);
}

}  // namespace

bool RegisterCodeRunner(absl::string_view backend_name, CodeRunnerFactory factory) {
  std::lock_guard<std::mutex> lock(runners_mu);
  return RunnerFactories().emplace(std::string(backend_name), std::move(factory)).second;
}

std::vector<std::string> RunnableBackends() {
  std::vector<std::string> out;
  for (const std::string& name : RegisteredBackendNames()) {
    bool runnable = IsHostBackend(name);
    if (!runnable) {
      std::lock_guard<std::mutex> lock(runners_mu);
      runnable = RunnerFactories().count(name) > 0;
    }
    if (runnable) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<ir::ExecutionResult> HarnessFunction::Run(absl::Span<const int64_t> args) const {
  if (args.size() > 6) return absl::InvalidArgumentError("at most 6 arguments");
  DeoptRecord rec;
  rec.function = &compiled_;
  records.push_back(&rec);
  absl::StatusOr<ValuePair> p = harness_->runner_->Call(compiled_.entry, args);
  records.pop_back();
  if (!p.ok()) return p.status();
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
  const int64_t raw[] = {static_cast<int64_t>(p->first), static_cast<int64_t>(p->second)};
  for (size_t i = 0; i < num_results_; ++i) result.values.push_back(raw[i]);
  return result;
}

IrHarness::IrHarness(absl::string_view backend_name) {
  absl::StatusOr<Backend*> backend = FindBackend(backend_name);
  if (!backend.ok()) {
    status_ = backend.status();
    return;
  }
  backend_ = *backend;
  absl::StatusOr<std::unique_ptr<CodeRunner>> runner = CreateRunner(*backend_, cache_);
  if (!runner.ok()) {
    status_ = runner.status();
    return;
  }
  runner_ = std::move(*runner);
  for (const void* fn : {reinterpret_cast<const void*>(&Handler),
                         reinterpret_cast<const void*>(&TestDispatch),
                         reinterpret_cast<const void*>(&TestAllocate)}) {
    status_.Update(runner_->AllowHostCall(fn));
  }
  absl::StatusOr<const void*> entry = backend_->CreateDeoptEntry(&Handler, cache_);
  if (entry.ok()) {
    deopt_entry_ = *entry;
  } else {
    status_.Update(entry.status());
  }
}

IrHarness::~IrHarness() {
  std::lock_guard<std::mutex> lock(registry_mu);
  for (uintptr_t start : registered_) Registry().erase(start);
}

intptr_t IrHarness::ThreadPointerOffset(const void* address) const {
  return static_cast<intptr_t>(reinterpret_cast<uintptr_t>(address) - runner_->ThreadPointer());
}

HeapAllocation IrHarness::TestHeap(bool fast_path) const {
  HeapAllocation heap;
  heap.allocate = reinterpret_cast<const void*>(&TestAllocate);
  if (fast_path && runner_->ThreadPointer() != 0) {
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

NativeCompileOptions IrHarness::DefaultOptions() const {
  NativeCompileOptions options;
  options.codegen.deopt_entry = deopt_entry_;
  options.lowering.call_target_dispatch = reinterpret_cast<const void*>(&TestDispatch);
  options.lowering.heap = TestHeap();
  return options;
}

absl::StatusOr<std::unique_ptr<HarnessFunction>> IrHarness::Compile(const ir::Function& f) {
  return Compile(f, DefaultOptions());
}

absl::StatusOr<std::unique_ptr<HarnessFunction>> IrHarness::Compile(
    const ir::Function& f, const NativeCompileOptions& options) {
  if (!status_.ok()) return status_;
  if (deopt_entry_ == nullptr) return absl::InternalError("no deopt entry");
  // Every C++ function the code may call.
  for (const void* fn : {options.codegen.stack_overflow_handler,
                         options.lowering.call_target_dispatch, options.lowering.heap.allocate}) {
    if (fn != nullptr) {
      absl::Status s = runner_->AllowHostCall(fn);
      if (!s.ok()) return s;
    }
  }
  for (const ir::Block* block : f.blocks()) {
    for (const ir::Instruction* inst : block->instructions()) {
      if (inst->opcode() != ir::Opcode::kCallRuntime || inst->callee() == nullptr ||
          inst->callee()->address == nullptr) {
        continue;
      }
      absl::Status s = runner_->AllowHostCall(inst->callee()->address);
      if (!s.ok()) return s;
    }
  }
  absl::StatusOr<CompiledFunction> compiled = CompileFunction(f, *backend_, cache_, options);
  if (!compiled.ok()) return compiled.status();
  auto out = std::make_unique<HarnessFunction>();
  out->harness_ = this;
  out->compiled_ = std::move(*compiled);
  out->num_results_ = f.result_types().size();
  std::lock_guard<std::mutex> lock(registry_mu);
  Registry()[reinterpret_cast<uintptr_t>(out->compiled_.entry)] = &out->compiled_;
  registered_.push_back(reinterpret_cast<uintptr_t>(out->compiled_.entry));
  return out;
}

}  // namespace morel::codegen::testing
