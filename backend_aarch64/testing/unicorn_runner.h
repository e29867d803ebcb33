#ifndef MOREL_BACKEND_AARCH64_TESTING_UNICORN_RUNNER_H_
#define MOREL_BACKEND_AARCH64_TESTING_UNICORN_RUNNER_H_

// Runs AArch64 machine code inside this process on a host of another
// architecture (x86_64), under the Unicorn 2.0.1 emulator: the CodeRunner of
// backend "aarch64" for the shared lowering tests
// (engine/codegen/testing/ir_harness.h). Linking :unicorn_runner registers it
// (RegisterCodeRunner("aarch64", ...)) at start-up.
//
// The emulated code shares the host's address space: it reads and writes
// host memory at host addresses, so compiled code, its data and the C++ that
// inspects it agree on every pointer. Conventions (README.md has the why):
//   * Call(entry, args): AAPCS64. x0..x5 = args (x6, x7 = 0), x29 = 0,
//     x30 = a sentinel address, sp = the top of this thread's emulated stack
//     (16-byte aligned), TPIDR_EL0 = ThreadPointer(), x19..x28 = canaries.
//     The code returns by `ret` to the sentinel; the result is x0:x1. A
//     return with x19..x28, x29 or sp not as the caller set them is an
//     error (AAPCS64's callee-saved registers, which natively a C++ caller
//     would silently lose).
//   * Host memory is mapped into the emulator lazily, at the same address,
//     with the host's protection, the first time the code touches it; an
//     address the host has not mapped (or may not access that way) is an
//     error Status naming it and the pc. Code runs only from live regions of
//     the CodeCache given at creation.
//   * Calls of C++: a branch (blr/br) to an address announced with
//     AllowHostCall calls the function there as
//     ValuePair fn(int64_t x0, ..., int64_t x7), writes the result to x0:x1,
//     garbage (0xdeadc0de000000nn) to x2-x18, and returns to x30. Nothing
//     else of the host's own code is run.
//   * Each Call sees the code the cache holds when it starts (and after each
//     host call): translations of replaced code are discarded
//     (CodeCache::generation).
//   * A host function may Call again (nested, up to max_depth); threads each
//     get their own emulator instances.
//
// Not emulated: system calls, signals, threads started by emulated code.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/testing/ir_harness.h"

namespace morel::aarch64::testing {

struct UnicornRunnerOptions {
  // Bytes of each emulated stack (host memory, one per thread and nesting
  // depth, reserved lazily by the kernel), above a 64 KiB guard.
  size_t stack_bytes = size_t{8} << 20;
  // Bounds of one activation (a nested Call has its own): translated blocks
  // executed (a block is at most a few hundred instructions, typically 3-10)
  // and wall time. Exceeding either is an error, never a hang.
  int64_t max_blocks = int64_t{1} << 30;
  absl::Duration timeout = absl::Seconds(60);
  // Nested Calls (host functions calling Call) at most this deep.
  int max_depth = 8;
  // Measurement aid: discard every translation before each Call, as if all
  // code had been replaced (what not tracking installs would cost).
  bool invalidate_every_call = false;
};

// Counters over all threads, for tests and measurements.
struct UnicornRunnerStats {
  int64_t calls = 0;           // activations run, nested ones included
  int64_t host_calls = 0;      // C++ functions called from emulated code
  int64_t emulators = 0;       // Unicorn instances created (thread x depth)
  int64_t code_maps = 0;       // code-cache regions mapped for execution
  int64_t data_maps = 0;       // windows of other host memory mapped
  int64_t invalidations = 0;   // translation flushes after code changed
  int64_t code_evictions = 0;  // code regions unmapped to keep few mapped
};

class UnicornRunner final : public codegen::testing::CodeRunner {
 public:
  // Runs code installed in `cache`, which must outlive the runner.
  static absl::StatusOr<std::unique_ptr<UnicornRunner>> Create(const codegen::CodeCache& cache,
                                                               UnicornRunnerOptions options = {});
  // No Call may be running. Closes every thread's emulators.
  ~UnicornRunner() override;
  UnicornRunner(const UnicornRunner&) = delete;
  UnicornRunner& operator=(const UnicornRunner&) = delete;

  bool native() const override { return false; }
  // The address of a thread_local of this library on the calling thread:
  // `address - ThreadPointer()` is the same on every thread for any
  // thread_local of the static TLS block, which is all emulated code needs.
  uintptr_t ThreadPointer() const override;
  // `fn` must be host code (an executable host mapping) outside the cache.
  absl::Status AllowHostCall(const void* fn) override;
  // Thread-safe; reentrant from host functions the code calls.
  absl::StatusOr<codegen::ValuePair> Call(const void* entry,
                                          absl::Span<const int64_t> args) override;

  UnicornRunnerStats stats() const;

 private:
  class Emulator;
  struct ThreadState;

  UnicornRunner(const codegen::CodeCache& cache, UnicornRunnerOptions options);
  ThreadState& ThisThread();

  const codegen::CodeCache& cache_;
  const UnicornRunnerOptions options_;

  mutable std::mutex mu_;
  // Guarded by mu_:
  std::set<uintptr_t> allowed_;  // host functions
  std::map<std::thread::id, std::unique_ptr<ThreadState>> threads_;
  // Bumped (under mu_) whenever allowed_ grows; emulators copy the set
  // when it differs from what they last saw.
  std::atomic<uint64_t> allowed_version_{0};

  struct AtomicStats {
    std::atomic<int64_t> calls{0}, host_calls{0}, emulators{0}, code_maps{0}, data_maps{0},
        invalidations{0}, code_evictions{0};
  };
  AtomicStats stats_;
};

}  // namespace morel::aarch64::testing

#endif  // MOREL_BACKEND_AARCH64_TESTING_UNICORN_RUNNER_H_
