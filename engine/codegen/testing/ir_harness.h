#ifndef MOREL_ENGINE_CODEGEN_TESTING_IR_HARNESS_H_
#define MOREL_ENGINE_CODEGEN_TESTING_IR_HARNESS_H_

// Test support: compiles ir::Functions with any registered backend
// (engine/codegen/compile.h), runs them -- natively when the backend
// generates code for this host, under a registered emulator otherwise -- and
// reports the outcome as an ir::ExecutionResult, so tests compare it with
// ir::Interpret directly. The shared lowering tests in this directory are
// parameterized over RunnableBackends(): every backend the test binary links
// whose code it can run.
//
// Deopts go to a handler that decodes them with CompiledFunction::DecodeDeopt
// (nested activations are fine: each Run has its own record). Runtime calls
// in the interpreter go to the same C++ functions (RuntimeFunction::address),
// call_target to TestDispatch (compiled code) / the interpreter hook below.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/compile.h"
#include "engine/codegen/lower.h"
#include "engine/ir/interpreter.h"

namespace morel::codegen::testing {

// Runs generated code of one backend.
class CodeRunner {
 public:
  virtual ~CodeRunner() = default;
  // True when the code runs on this host's processor (tests that inspect
  // compiled frames from C++, or use host threads, need it).
  virtual bool native() const = 0;
  // The thread pointer compiled code sees on this thread (the base of
  // StackLimit::kThreadLocal and free-list offsets), or 0 if it has none.
  virtual uintptr_t ThreadPointer() const = 0;
  // Lets compiled code call `fn`, a C++ function taking up to 8 integer
  // arguments and returning a ValuePair (or one integer).
  virtual absl::Status AllowHostCall(const void* fn) = 0;
  // Calls compiled code at `entry` with up to 6 integer arguments.
  virtual absl::StatusOr<ValuePair> Call(const void* entry, absl::Span<const int64_t> args) = 0;
};

// Makes code of `backend_name` runnable on hosts of another architecture
// (an emulator's test library registers itself at start-up). `cache` is
// where the harness installs the code the runner will run.
using CodeRunnerFactory =
    std::function<absl::StatusOr<std::unique_ptr<CodeRunner>>(const Backend&, CodeCache& cache)>;
bool RegisterCodeRunner(absl::string_view backend_name, CodeRunnerFactory factory);

// The registered backends whose code this process can run: the host's
// natively, others through a registered CodeRunner. Sorted by name.
std::vector<std::string> RunnableBackends();

// The test call_target dispatcher (engine/codegen/lower.h convention:
// the call's operands in the caller's outgoing-argument area): ValuePair
// computed by DispatchSemantics. Like a real runtime, ids 1..3 have an
// arity and read only that many operands: id 1 reads 2, id 2 reads 3, id 3
// reads 5; id 4 hashes all operands and returns (hash, count); others read
// none and return {id, -1}.
ValuePair TestDispatch(int64_t id, const int64_t* operands, int64_t count);
std::vector<int64_t> DispatchSemantics(int64_t id, absl::Span<const int64_t> args,
                                       size_t num_results);

// A test heap for `alloc` (engine/codegen/lower.h HeapAllocation), as a
// runtime's looks to compiled code but small enough to empty often: free
// lists per 16-byte size class (objects up to kTestFreeListMaxBytes) in
// this thread's static TLS, refilled `kTestRefillObjects` at a time by
// TestAllocate, the slow path; larger objects come from TestAllocate
// directly. Objects are zero-filled, 16-byte aligned and never freed; a
// listed object's word 0 links to the next and, to catch a fast path that
// forgot to clear it, its other words are zero.
inline constexpr int64_t kTestFreeListMaxBytes = 112;
inline constexpr int kTestRefillObjects = 3;
void* TestAllocate(int64_t bytes);
struct TestHeapCounts {
  int64_t slow_calls = 0;  // TestAllocate calls (from compiled code)
  int64_t refills = 0;     // lists refilled
};
// This thread's counts since the last reset.
TestHeapCounts TestHeapCountsOnThisThread();
void ResetTestHeap();  // counts to zero and this thread's lists emptied

// Interpreter hooks matching the compiled conventions: call_runtime calls
// the function's address (integer arguments, the ValuePair result
// normalized to the result types); call_target calls DispatchSemantics;
// allocate gives zero-filled memory (not from the free lists).
ir::InterpreterOptions NativeEquivalentHooks();

// Deopts of compiled code called directly from the compiled code a Run
// executes (not through Run): each "finishes in the interpreter" returning
// (0, 0). Counted per thread.
int64_t InnerDeoptCount();

class IrHarness;

class HarnessFunction {
 public:
  const CompiledFunction& compiled() const { return compiled_; }
  // Runs with up to 6 integer arguments.
  absl::StatusOr<ir::ExecutionResult> Run(absl::Span<const int64_t> args) const;

 private:
  friend class IrHarness;
  IrHarness* harness_ = nullptr;
  CompiledFunction compiled_;
  size_t num_results_ = 0;
};

class IrHarness {
 public:
  // The backend registered as `backend_name`; check ok() (a backend whose
  // code cannot be run here, or a missing one, is an error).
  explicit IrHarness(absl::string_view backend_name);
  ~IrHarness();

  const absl::Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }

  Backend& backend() { return *backend_; }
  CodeCache& cache() { return cache_; }
  CodeRunner& runner() { return *runner_; }

  // The offset of `address`, a thread_local of the static TLS block, from
  // the thread pointer compiled code sees (StackLimit::kThreadLocal,
  // HeapAllocation::free_list_head); the same on every thread.
  intptr_t ThreadPointerOffset(const void* address) const;
  // The test heap's allocation options; `fast_path`: with the free lists
  // (else every alloc calls TestAllocate).
  HeapAllocation TestHeap(bool fast_path = true) const;

  // Options with the deopt entry, the test dispatcher and the test heap
  // (with its fast path) filled in.
  NativeCompileOptions DefaultOptions() const;

  // Lets compiled code call `fn` (runtime functions of call_runtime and the
  // options' handlers are allowed by Compile itself).
  absl::Status AllowHostCall(const void* fn) { return runner_->AllowHostCall(fn); }

  absl::StatusOr<std::unique_ptr<HarnessFunction>> Compile(const ir::Function& f);
  absl::StatusOr<std::unique_ptr<HarnessFunction>> Compile(const ir::Function& f,
                                                           const NativeCompileOptions& options);

 private:
  friend class HarnessFunction;
  absl::Status status_;
  Backend* backend_ = nullptr;
  CodeCache cache_;
  std::unique_ptr<CodeRunner> runner_;
  const void* deopt_entry_ = nullptr;
  std::vector<uintptr_t> registered_;  // code starts in the handler's registry
};

}  // namespace morel::codegen::testing

#endif  // MOREL_ENGINE_CODEGEN_TESTING_IR_HARNESS_H_
