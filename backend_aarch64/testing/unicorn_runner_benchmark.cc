// What running AArch64 code under UnicornRunner costs (README.md "Costs"):
//   bazel run -c opt //backend_aarch64/testing:unicorn_runner_benchmark

#include <cstdint>
#include <memory>
#include <string>

#include "backend_aarch64/testing/unicorn_runner.h"
#include "benchmark/benchmark.h"
#include "engine/codegen/code_cache.h"

namespace morel::aarch64::testing {
namespace {

using codegen::ValuePair;

// x0 = a0 + a1, x1 = a0 - a1: the smallest useful call.
constexpr uint32_t kAdd[] = {
    0x8b010002,  // add x2, x0, x1
    0xcb010001,  // sub x1, x0, x1
    0xaa0203e0,  // mov x0, x2
    0xd65f03c0,  // ret
};

// x0 = 1 + ... + n: 6 + 4n instructions (n = 24: 102).
constexpr uint32_t kTriangle[] = {
    0xd2800001,  // mov x1, #0
    0xd2800002,  // mov x2, #0
    0xb40000a0,  // cbz x0, done
                 // loop:
    0x91000442,  // add x2, x2, #1
    0x8b020021,  // add x1, x1, x2
    0xeb00005f,  // cmp x2, x0
    0x54ffffa1,  // b.ne loop
                 // done:
    0xaa0103e0,  // mov x0, x1
    0xaa0203e1,  // mov x1, x2
    0xd65f03c0,  // ret
};
constexpr int64_t kHundredInstructions = 24;

// Calls a0(1, 2, 3, 4, 5, 6, 7, -8) through x16.
constexpr uint32_t kCallWith8[] = {
    0xa9bf7bfd,  // stp x29, x30, [sp, #-16]!
    0x910003fd,  // mov x29, sp
    0xaa0003f0,  // mov x16, x0
    0xd2800020,  // mov x0, #1
    0xd2800041,  // mov x1, #2
    0xd2800062,  // mov x2, #3
    0xd2800083,  // mov x3, #4
    0xd28000a4,  // mov x4, #5
    0xd28000c5,  // mov x5, #6
    0xd28000e6,  // mov x6, #7
    0x928000e7,  // mov x7, #-8
    0xd63f0200,  // blr x16
    0xa8c17bfd,  // ldp x29, x30, [sp], #16
    0xd65f03c0,  // ret
};

ValuePair Sum8(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g,
               int64_t h) {
  return {static_cast<uint64_t>(a + b + c + d + e + f + g + h), 0};
}

template <size_t N>
const void* Install(codegen::CodeCache& cache, const uint32_t (&words)[N]) {
  auto region = cache.InstallBytes(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(words), sizeof(words)));
  return region.ok() ? region->start : nullptr;
}

std::unique_ptr<UnicornRunner> NewRunner(codegen::CodeCache& cache,
                                         UnicornRunnerOptions options = {}) {
  auto runner = UnicornRunner::Create(cache, options);
  return runner.ok() ? std::move(*runner) : nullptr;
}

void Run(benchmark::State& state, UnicornRunner& runner, const void* entry, int64_t a0,
         int64_t a1) {
  const int64_t args[] = {a0, a1};
  for (auto _ : state) {
    auto r = runner.Call(entry, args);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(r->first);
  }
}

// Setup (registers, TPIDR_EL0, uc_emu_start) around 4 instructions.
void BM_CallSmall(benchmark::State& state) {
  codegen::CodeCache cache;
  auto runner = NewRunner(cache);
  Run(state, *runner, Install(cache, kAdd), 3, 4);
}
BENCHMARK(BM_CallSmall);

// A typical small Call: setup + ~100 instructions (a loop of 24).
void BM_Call100Instructions(benchmark::State& state) {
  codegen::CodeCache cache;
  auto runner = NewRunner(cache);
  Run(state, *runner, Install(cache, kTriangle), kHundredInstructions, 0);
}
BENCHMARK(BM_Call100Instructions);

// One call of a C++ function with 8 arguments from emulated code.
void BM_CallWithHostCall(benchmark::State& state) {
  codegen::CodeCache cache;
  auto runner = NewRunner(cache);
  const void* fn = reinterpret_cast<const void*>(&Sum8);
  if (!runner->AllowHostCall(fn).ok()) return;
  Run(state, *runner, Install(cache, kCallWith8),
      static_cast<int64_t>(reinterpret_cast<uintptr_t>(fn)), 0);
}
BENCHMARK(BM_CallWithHostCall);

// Emulated throughput: a loop of n = 10^6 (4 * 10^6 instructions).
void BM_LongLoop(benchmark::State& state) {
  codegen::CodeCache cache;
  auto runner = NewRunner(cache);
  Run(state, *runner, Install(cache, kTriangle), 1000000, 0);
  state.SetItemsProcessed(state.iterations() * 4000000);
}
BENCHMARK(BM_LongLoop)->Unit(benchmark::kMillisecond);

// The policy not chosen: every translation discarded before each Call.
void BM_Call100InstructionsInvalidatingEveryCall(benchmark::State& state) {
  codegen::CodeCache cache;
  UnicornRunnerOptions options;
  options.invalidate_every_call = true;
  auto runner = NewRunner(cache, options);
  Run(state, *runner, Install(cache, kTriangle), kHundredInstructions, 0);
}
BENCHMARK(BM_Call100InstructionsInvalidatingEveryCall);

// The policy chosen, at its worst: code replaced before every Call (free +
// install at the same address, then the Call retranslates it), with
// `state.range(0)` other regions the emulator has run (each one more
// uc_ctl_remove_cache per invalidation).
void BM_Call100InstructionsAfterReplacingCode(benchmark::State& state) {
  codegen::CodeCache cache;
  auto runner = NewRunner(cache);
  for (int64_t i = 0; i < state.range(0); ++i) {
    const int64_t args[] = {1, 2};
    if (!runner->Call(Install(cache, kAdd), args).ok()) return;
  }
  const void* f = Install(cache, kTriangle);
  const int64_t args[] = {kHundredInstructions};
  for (auto _ : state) {
    if (!cache.Free(static_cast<const uint8_t*>(f)).ok()) return;
    f = Install(cache, kTriangle);
    auto r = runner->Call(f, args);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(r->first);
  }
}
BENCHMARK(BM_Call100InstructionsAfterReplacingCode)->Arg(0)->Arg(100)->Arg(1000);

// The first Call on a thread: creating an emulator (uc_open, cpu model,
// stack, hooks) and translating the code.
void BM_FirstCall(benchmark::State& state) {
  codegen::CodeCache cache;
  const void* f = Install(cache, kTriangle);
  const int64_t args[] = {kHundredInstructions};
  for (auto _ : state) {
    auto runner = NewRunner(cache);
    auto r = runner->Call(f, args);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
  }
}
BENCHMARK(BM_FirstCall)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace morel::aarch64::testing
