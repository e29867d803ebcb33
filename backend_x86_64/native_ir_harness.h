#ifndef MOREL_BACKEND_X86_64_NATIVE_IR_HARNESS_H_
#define MOREL_BACKEND_X86_64_NATIVE_IR_HARNESS_H_

// Test support: compiles ir::Functions with the x86_64 backend
// (engine/codegen/compile.h), runs them natively and reports the outcome as
// an ir::ExecutionResult, so tests compare it with ir::Interpret directly.
// Deopts go to a handler that decodes them with CompiledFunction::DecodeDeopt
// (nested activations are fine: each Run has its own record). Runtime calls
// in the interpreter go to the same C++ functions (RuntimeFunction::address),
// call_target to TestDispatch (native) / the interpreter hook below.

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/compile.h"
#include "engine/codegen/lower.h"
#include "engine/ir/interpreter.h"

namespace morel::x86_64::testing {

// The test call_target dispatcher (engine/codegen/lower.h convention:
// the call's operands in the caller's outgoing-argument area): ValuePair
// computed by DispatchSemantics. Like a real runtime, ids 1..3 have an
// arity and read only that many operands: id 1 reads 2, id 2 reads 3, id 3
// reads 5; id 4 hashes all operands and returns (hash, count); others read
// none and return {id, -1}.
codegen::ValuePair TestDispatch(int64_t id, const int64_t* operands, int64_t count);
std::vector<int64_t> DispatchSemantics(int64_t id, absl::Span<const int64_t> args,
                                       size_t num_results);

// The offset of `address`, a thread_local of the static TLS block, from
// this thread's thread pointer (x86_64: %fs:0), as compiled code reaches it
// (codegen::StackLimit::kThreadLocal, HeapAllocation::free_list_head).
// Meaningless on other hosts, where the tests that execute code skip.
intptr_t ThreadPointerOffset(const void* address);

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
// `fast_path`: with the free lists (else every alloc calls TestAllocate).
codegen::HeapAllocation TestHeap(bool fast_path = true);
struct TestHeapCounts {
  int64_t slow_calls = 0;  // TestAllocate calls (from compiled code)
  int64_t refills = 0;     // lists refilled
};
// This thread's counts since the last reset.
TestHeapCounts TestHeapCountsOnThisThread();
void ResetTestHeap();  // counts to zero and this thread's lists emptied

// Interpreter hooks matching the native conventions: call_runtime calls the
// function's address (integer arguments, results in rax:rdx, normalized to
// the result types); call_target calls DispatchSemantics; allocate gives
// zero-filled memory (not from the free lists).
ir::InterpreterOptions NativeEquivalentHooks();

// Deopts of compiled code called directly from the compiled code a Run
// executes (not through Run): each "finishes in the interpreter" returning
// (0, 0). Counted per thread.
int64_t InnerDeoptCount();

class NativeFunction {
 public:
  const codegen::CompiledFunction& compiled() const { return compiled_; }
  // Runs with up to 6 integer arguments.
  absl::StatusOr<ir::ExecutionResult> Run(absl::Span<const int64_t> args) const;

 private:
  friend class NativeHarness;
  codegen::CompiledFunction compiled_;
  size_t num_results_ = 0;
};

class NativeHarness {
 public:
  NativeHarness();
  ~NativeHarness();

  codegen::Backend& backend() { return *backend_; }
  codegen::CodeCache& cache() { return cache_; }
  // Options with the deopt entry, the test dispatcher and the test heap
  // (with its fast path) filled in.
  codegen::NativeCompileOptions DefaultOptions() const;

  absl::StatusOr<std::unique_ptr<NativeFunction>> Compile(const ir::Function& f);
  absl::StatusOr<std::unique_ptr<NativeFunction>> Compile(
      const ir::Function& f, const codegen::NativeCompileOptions& options);

 private:
  std::unique_ptr<codegen::Backend> backend_;
  codegen::CodeCache cache_;
  const void* deopt_entry_ = nullptr;
  std::vector<uintptr_t> registered_;  // code starts in the handler's registry
};

}  // namespace morel::x86_64::testing

#endif  // MOREL_BACKEND_X86_64_NATIVE_IR_HARNESS_H_
