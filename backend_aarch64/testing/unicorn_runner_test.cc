#include "backend_aarch64/testing/unicorn_runner.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/testing/ir_harness.h"
#include "gtest/gtest.h"

// The snippets are hand-assembled: the words come from
//   llvm-mc -triple=aarch64-linux-gnu -mattr=+lse -filetype=obj
// and llvm-objdump -d, the assembly beside each word.

namespace morel::aarch64::testing {
namespace {

using codegen::ValuePair;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

// x0 = a0 + a1 + a2 + a3 + a4 + a5, x1 = a0 - a5.
constexpr uint32_t kSumArgs[] = {
    0x8b010006,  // add x6, x0, x1
    0x8b0200c6,  // add x6, x6, x2
    0x8b0300c6,  // add x6, x6, x3
    0x8b0400c6,  // add x6, x6, x4
    0x8b0500c6,  // add x6, x6, x5
    0xcb050001,  // sub x1, x0, x5
    0xaa0603e0,  // mov x0, x6
    0xd65f03c0,  // ret
};

// x0 = 1 + 2 + ... + n, x1 = n (n = a0).
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

// p = a0: p[2] = p[0] + p[1]; returns (p[2], p[3]).
constexpr uint32_t kAddPair[] = {
    0xa9400c02,  // ldp x2, x3, [x0]
    0x8b030042,  // add x2, x2, x3
    0xf9000802,  // str x2, [x0, #16]
    0xf9400c01,  // ldr x1, [x0, #24]
    0xaa0203e0,  // mov x0, x2
    0xd65f03c0,  // ret
};

// p = a0, n = a1: p[i] = 3 * i for i < n, read back; returns (sum, n).
constexpr uint32_t kFill[] = {
    0xd2800002,  // mov x2, #0
    0xd2800003,  // mov x3, #0
    0xb4000101,  // cbz x1, done
                 // loop:
    0x8b020444,  // add x4, x2, x2, lsl #1
    0xf8227804,  // str x4, [x0, x2, lsl #3]
    0xf8627805,  // ldr x5, [x0, x2, lsl #3]
    0x8b050063,  // add x3, x3, x5
    0x91000442,  // add x2, x2, #1
    0xeb01005f,  // cmp x2, x1
    0x54ffff41,  // b.ne loop
                 // done:
    0xaa0303e0,  // mov x0, x3
    0xaa0203e1,  // mov x1, x2
    0xd65f03c0,  // ret
};

// A frame with sp-relative stores and loads: returns (2 * (a0 + a1), sp & 15).
constexpr uint32_t kStackFrame[] = {
    0xa9bd7bfd,  // stp x29, x30, [sp, #-48]!
    0x910003fd,  // mov x29, sp
    0xf9000be0,  // str x0, [sp, #16]
    0xf9000fe1,  // str x1, [sp, #24]
    0xa90207e0,  // stp x0, x1, [sp, #32]
    0xf9400be2,  // ldr x2, [sp, #16]
    0xf9400fe3,  // ldr x3, [sp, #24]
    0xa94217e4,  // ldp x4, x5, [sp, #32]
    0x8b030040,  // add x0, x2, x3
    0x8b040000,  // add x0, x0, x4
    0x8b050000,  // add x0, x0, x5
    0x910003e1,  // mov x1, sp
    0x92400c21,  // and x1, x1, #0xf
    0xa8c37bfd,  // ldp x29, x30, [sp], #48
    0xd65f03c0,  // ret
};

// Stores a0, a1 in its frame and calls a2(x29): C++ reads the frame.
constexpr uint32_t kPassFrame[] = {
    0xa9be7bfd,  // stp x29, x30, [sp, #-32]!
    0x910003fd,  // mov x29, sp
    0xa90107e0,  // stp x0, x1, [sp, #16]
    0xaa1d03e0,  // mov x0, x29
    0xd63f0040,  // blr x2
    0xa8c27bfd,  // ldp x29, x30, [sp], #32
    0xd65f03c0,  // ret
};

// Calls a0(1, 2, 3, 4, 5, 6, 7, -8) through x16, returns its pair.
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

// n = a0, f = a1: acc = 0; for i < n: acc = f(acc, i).first; returns (acc, n).
// Keeps n, f, i in callee-saved x19-x21 across the calls.
constexpr uint32_t kCallInLoop[] = {
    0xa9bd7bfd,  // stp x29, x30, [sp, #-48]!
    0x910003fd,  // mov x29, sp
    0xa90153f3,  // stp x19, x20, [sp, #16]
    0xf90013f5,  // str x21, [sp, #32]
    0xaa0003f3,  // mov x19, x0
    0xaa0103f4,  // mov x20, x1
    0xd2800015,  // mov x21, #0
    0xd2800000,  // mov x0, #0
    0xb40000d3,  // cbz x19, done
                 // loop:
    0xaa1503e1,  // mov x1, x21
    0xd63f0280,  // blr x20
    0x910006b5,  // add x21, x21, #1
    0xeb1302bf,  // cmp x21, x19
    0x54ffff81,  // b.ne loop
                 // done:
    0xaa1503e1,  // mov x1, x21
    0xa94153f3,  // ldp x19, x20, [sp, #16]
    0xf94013f5,  // ldr x21, [sp, #32]
    0xa8c37bfd,  // ldp x29, x30, [sp], #48
    0xd65f03c0,  // ret
};

// Calls a1(a0, a1) and returns its pair.
constexpr uint32_t kCallX1[] = {
    0xa9bf7bfd,  // stp x29, x30, [sp, #-16]!
    0x910003fd,  // mov x29, sp
    0xd63f0020,  // blr x1
    0xa8c17bfd,  // ldp x29, x30, [sp], #16
    0xd65f03c0,  // ret
};

// Returns the thread-local at thread pointer + a0 and increments it.
constexpr uint32_t kThreadLocalIncrement[] = {
    0xd53bd041,  // mrs x1, tpidr_el0
    0xf8606822,  // ldr x2, [x1, x0]
    0x91000443,  // add x3, x2, #1
    0xf8206823,  // str x3, [x1, x0]
    0xaa0203e0,  // mov x0, x2
    0xd65f03c0,  // ret
};

constexpr uint32_t kReturn1[] = {
    0xd2800020,  // mov x0, #1
    0xd65f03c0,  // ret
};
constexpr uint32_t kReturn2[] = {
    0xd2800040,  // mov x0, #2
    0xd65f03c0,  // ret
};

// t = a0, h = a1: h(); then t() -- h replaces the code at t in between.
constexpr uint32_t kCallHostThenTarget[] = {
    0xa9be7bfd,  // stp x29, x30, [sp, #-32]!
    0x910003fd,  // mov x29, sp
    0xf9000be0,  // str x0, [sp, #16]
    0xd63f0020,  // blr x1
    0xf9400be0,  // ldr x0, [sp, #16]
    0xd63f0000,  // blr x0
    0xa8c27bfd,  // ldp x29, x30, [sp], #32
    0xd65f03c0,  // ret
};

constexpr uint32_t kLoad[] = {
    0xf9400000,  // ldr x0, [x0]
    0xd65f03c0,  // ret
};
constexpr uint32_t kStore[] = {
    0xf9000001,  // str x1, [x0]
    0xd65f03c0,  // ret
};
// Jumps to a0 (a tail call when a0 is a function).
constexpr uint32_t kJump[] = {
    0xd61f0000,  // br x0
};

// LSE (needs the "max" cpu model): returns the old [a0] and adds a1 to it.
constexpr uint32_t kAtomicAdd[] = {
    0xf8e10002,  // ldaddal x1, x2, [x0]
    0xaa0203e0,  // mov x0, x2
    0xd65f03c0,  // ret
};

constexpr uint32_t kUndefined[] = {0x00000000};   // udf #0
constexpr uint32_t kBreakpoint[] = {0xd4200020};  // brk #0x1
constexpr uint32_t kSystemCall[] = {0xd4000001};  // svc #0
constexpr uint32_t kSpin[] = {0x14000000};        // loop: b loop
constexpr uint32_t kPushForever[] = {
    0xa9bf7bfd,  // loop: stp x29, x30, [sp, #-16]!
    0x17ffffff,  // b loop
};

// ------------------------------------------------------------ host functions

ValuePair Weigh8(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f, int64_t g,
                 int64_t h) {
  const int64_t sum =
      a + 10 * b + 100 * c + 1000 * d + 10000 * e + 100000 * f + 1000000 * g + 10000000 * h;
  return {static_cast<uint64_t>(sum), static_cast<uint64_t>(a - h)};
}

std::atomic<int64_t> accumulate_calls{0};
ValuePair Accumulate(int64_t acc, int64_t i) {
  accumulate_calls.fetch_add(1);
  return {static_cast<uint64_t>(acc + i * i), 99};
}

// Reads the frame kPassFrame built: [fp] = its caller's x29 (0 at a
// Call's entry), [fp + 8] = its return address, then a0 and a1.
ValuePair ReadFrame(const int64_t* fp) {
  return {static_cast<uint64_t>(fp[2] + fp[3]), static_cast<uint64_t>(fp[0])};
}

ValuePair NeverAllowed(int64_t x) { return {static_cast<uint64_t>(x), 0}; }

class UnicornRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override { runner_ = NewRunner({}); }

  std::unique_ptr<UnicornRunner> NewRunner(const UnicornRunnerOptions& options) {
    absl::StatusOr<std::unique_ptr<UnicornRunner>> runner = UnicornRunner::Create(cache_, options);
    EXPECT_TRUE(runner.ok()) << runner.status();
    return runner.ok() ? std::move(*runner) : nullptr;
  }

  template <size_t N>
  const void* Install(const uint32_t (&words)[N]) {
    absl::StatusOr<codegen::CodeRegion> region = cache_.InstallBytes(
        absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(words), sizeof(words)));
    EXPECT_TRUE(region.ok()) << region.status();
    return region.ok() ? region->start : nullptr;
  }

  absl::StatusOr<ValuePair> Call(const void* entry, std::initializer_list<int64_t> args) {
    return runner_->Call(entry, absl::Span<const int64_t>(args.begin(), args.size()));
  }

  static int64_t Address(const void* p) {
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(p));
  }

  codegen::CodeCache cache_;  // outlives the runner (declared first)
  std::unique_ptr<UnicornRunner> runner_;
};

TEST_F(UnicornRunnerTest, IsNotNative) { EXPECT_FALSE(runner_->native()); }

TEST_F(UnicornRunnerTest, RegistersItselfForAarch64) {
  // Linking the library registered a factory already: a second one is refused.
  EXPECT_FALSE(codegen::testing::RegisterCodeRunner(
      "aarch64",
      [](const codegen::Backend&,
         codegen::CodeCache&) -> absl::StatusOr<std::unique_ptr<codegen::testing::CodeRunner>> {
        return absl::UnimplementedError("never used");
      }));
}

TEST_F(UnicornRunnerTest, ArgumentsInX0ToX5AndAPairResult) {
  const void* f = Install(kSumArgs);
  auto r = Call(f, {1, 20, 300, 4000, 50000, -600000});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(static_cast<int64_t>(r->first), 1 + 20 + 300 + 4000 + 50000 - 600000);
  EXPECT_EQ(static_cast<int64_t>(r->second), 1 + 600000);
  // Missing arguments are 0.
  r = Call(f, {7});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 7u);
  EXPECT_EQ(r->second, 7u);
  EXPECT_EQ(Call(f, {1, 2, 3, 4, 5, 6, 7}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(UnicornRunnerTest, Loop) {
  const void* f = Install(kTriangle);
  for (int64_t n : {0, 1, 2, 10, 1000, 1000000}) {
    auto r = Call(f, {n});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(static_cast<int64_t>(r->first), n * (n + 1) / 2) << n;
    EXPECT_EQ(static_cast<int64_t>(r->second), n);
  }
}

int64_t global_pair[4] = {5, 6, 0, 77};

TEST_F(UnicornRunnerTest, LoadsAndStoresHostMemory) {
  const void* f = Install(kAddPair);
  int64_t local[4] = {30, 12, 0, -1};  // on this thread's host stack
  auto r = Call(f, {Address(local)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 42u);
  EXPECT_EQ(static_cast<int64_t>(r->second), -1);
  EXPECT_EQ(local[2], 42);  // the host sees the store
  r = Call(f, {Address(global_pair)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 11u);
  EXPECT_EQ(r->second, 77u);
  EXPECT_EQ(global_pair[2], 11);
  // Host writes are seen by the next Call (no copy in between).
  global_pair[0] = 100;
  r = Call(f, {Address(global_pair)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 106u);
}

TEST_F(UnicornRunnerTest, AHeapArrayAcrossSeveralWindows) {
  const void* f = Install(kFill);
  const int64_t n = 400000;  // 3.2 MB: several 1 MiB windows
  std::vector<int64_t> a(n, -1);
  auto r = Call(f, {Address(a.data()), n});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(static_cast<int64_t>(r->first), 3 * (n * (n - 1) / 2));
  EXPECT_EQ(static_cast<int64_t>(r->second), n);
  for (int64_t i = 0; i < n; i += 9973) EXPECT_EQ(a[i], 3 * i) << i;
  EXPECT_EQ(a[n - 1], 3 * (n - 1));
  EXPECT_GE(runner_->stats().data_maps, 3);
}

TEST_F(UnicornRunnerTest, StackFramesAreAlignedHostMemory) {
  const void* f = Install(kStackFrame);
  auto r = Call(f, {5, 8});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 26u);
  EXPECT_EQ(r->second, 0u);  // sp % 16 inside the frame
  // C++ called from the code reads its frame through x29.
  ASSERT_TRUE(runner_->AllowHostCall(reinterpret_cast<const void*>(&ReadFrame)).ok());
  const void* g = Install(kPassFrame);
  r = Call(g, {1000, 234, Address(reinterpret_cast<const void*>(&ReadFrame))});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 1234u);
  EXPECT_EQ(r->second, 0u);  // the caller's x29 the frame saved: 0 at entry
}

TEST_F(UnicornRunnerTest, HostCallWithEightArgumentsAndAPair) {
  const void* weigh = reinterpret_cast<const void*>(&Weigh8);
  ASSERT_TRUE(runner_->AllowHostCall(weigh).ok());
  const void* f = Install(kCallWith8);
  auto r = Call(f, {Address(weigh)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(static_cast<int64_t>(r->first), 7654321 - 80000000);
  EXPECT_EQ(static_cast<int64_t>(r->second), 1 - (-8));
  EXPECT_EQ(runner_->stats().host_calls, 1);
  // A tail call (br): the function returns to the caller's caller.
  const void* jump = Install(kJump);
  r = Call(jump, {Address(weigh), 2});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(static_cast<int64_t>(r->first), Address(weigh) + 20);
  EXPECT_EQ(static_cast<int64_t>(r->second), Address(weigh));
}

TEST_F(UnicornRunnerTest, HostCallsFromALoop) {
  const void* acc = reinterpret_cast<const void*>(&Accumulate);
  ASSERT_TRUE(runner_->AllowHostCall(acc).ok());
  const void* f = Install(kCallInLoop);
  accumulate_calls = 0;
  const int64_t n = 1000;
  auto r = Call(f, {n, Address(acc)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(static_cast<int64_t>(r->first), (n - 1) * n * (2 * n - 1) / 6);
  EXPECT_EQ(static_cast<int64_t>(r->second), n);
  EXPECT_EQ(accumulate_calls.load(), n);
}

// x9 = 5, x19 = 7, calls a0(), returns (x9, x19).
constexpr uint32_t kKeepAcrossCall[] = {
    0xa9be7bfd,  // stp x29, x30, [sp, #-32]!
    0x910003fd,  // mov x29, sp
    0xf9000bf3,  // str x19, [sp, #16]
    0xd28000a9,  // mov x9, #5
    0xd28000f3,  // mov x19, #7
    0xd63f0000,  // blr x0
    0xaa0903e0,  // mov x0, x9
    0xaa1303e1,  // mov x1, x19
    0xf9400bf3,  // ldr x19, [sp, #16]
    0xa8c27bfd,  // ldp x29, x30, [sp], #32
    0xd65f03c0,  // ret
};

ValuePair Nothing() { return {0, 0}; }

TEST_F(UnicornRunnerTest, HostCallsClobberCallerSavedRegisters) {
  const void* nothing = reinterpret_cast<const void*>(&Nothing);
  ASSERT_TRUE(runner_->AllowHostCall(nothing).ok());
  auto r = Call(Install(kKeepAcrossCall), {Address(nothing)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 0xdeadc0de00000009u);  // x9: caller-saved
  EXPECT_EQ(r->second, 7u);                  // x19: callee-saved, kept
}

TEST_F(UnicornRunnerTest, ABranchToHostCodeNotAllowedIsAnError) {
  const void* f = Install(kCallX1);
  auto r = Call(f, {1, Address(reinterpret_cast<const void*>(&NeverAllowed))});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "AllowHostCall")) << r.status();
  // The runner goes on.
  const void* g = Install(kReturn1);
  auto ok = Call(g, {});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->first, 1u);
}

TEST_F(UnicornRunnerTest, AllowHostCallTakesOnlyHostCode) {
  EXPECT_EQ(runner_->AllowHostCall(nullptr).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(runner_->AllowHostCall(&global_pair).code(), absl::StatusCode::kInvalidArgument);
  const void* code = Install(kReturn1);
  EXPECT_EQ(runner_->AllowHostCall(code).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(runner_->AllowHostCall(reinterpret_cast<const void*>(&Weigh8)).ok());
  EXPECT_TRUE(runner_->AllowHostCall(reinterpret_cast<const void*>(&Weigh8)).ok());  // again
}

thread_local int64_t tls_counter = 0;

TEST_F(UnicornRunnerTest, ThreadPointerReachesThreadLocalsOnEveryThread) {
  const void* f = Install(kThreadLocalIncrement);
  const intptr_t offset =
      static_cast<intptr_t>(reinterpret_cast<uintptr_t>(&tls_counter) - runner_->ThreadPointer());
  tls_counter = 40;
  auto r = Call(f, {offset});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 40u);
  EXPECT_EQ(tls_counter, 41);
  const uintptr_t main_tp = runner_->ThreadPointer();
  std::thread other([&] {
    EXPECT_NE(runner_->ThreadPointer(), main_tp);
    EXPECT_EQ(
        static_cast<intptr_t>(reinterpret_cast<uintptr_t>(&tls_counter) - runner_->ThreadPointer()),
        offset);
    tls_counter = 7;
    auto r = Call(f, {offset});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->first, 7u);
    EXPECT_EQ(tls_counter, 8);
  });
  other.join();
  EXPECT_EQ(tls_counter, 41);
}

TEST_F(UnicornRunnerTest, InstalledFunctionsCallEachOther) {
  // kCallX1 calls a1(a0, a1): here kSumArgs, in a region of its own that
  // the emulator maps on the way.
  const void* sum = Install(kSumArgs);
  const void* f = Install(kCallX1);
  auto r = Call(f, {5, Address(sum)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(static_cast<int64_t>(r->first), 5 + Address(sum));
  EXPECT_EQ(r->second, 5u);
  EXPECT_EQ(runner_->stats().code_maps, 2);
}

TEST_F(UnicornRunnerTest, ManyFunctionsStayRunnable) {
  // More regions than an emulator keeps mapped: the first ones are
  // unmapped on the way and mapped again when they run again.
  std::vector<const void*> functions;
  for (int i = 0; i < 150; ++i) functions.push_back(Install(kSumArgs));
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 150; ++i) {
      auto r = Call(functions[i], {i, round});
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(static_cast<int64_t>(r->first), i + round);
    }
  }
  EXPECT_GT(runner_->stats().code_evictions, 0);
  // Replacing one of them is still seen, mapped or not.
  ASSERT_TRUE(cache_.Free(static_cast<const uint8_t*>(functions[0])).ok());
  ASSERT_TRUE(cache_.Free(static_cast<const uint8_t*>(functions[149])).ok());
  const void* a = Install(kReturn2);
  const void* b = Install(kReturn2);
  for (const void* f : {a, b}) {
    auto r = Call(f, {});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->first, 2u);
  }
}

TEST_F(UnicornRunnerTest, CodeReadAsDataRunsAfterwards) {
  // A literal pool is read from code; here the read comes first.
  const void* load = Install(kLoad);
  const void* one = Install(kReturn1);
  auto r = Call(load, {Address(one)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, uint64_t{kReturn1[0]} | uint64_t{kReturn1[1]} << 32);
  r = Call(one, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 1u);
  // ... and its translation is dropped like any other.
  ASSERT_TRUE(cache_.Free(static_cast<const uint8_t*>(one)).ok());
  ASSERT_EQ(Install(kReturn2), one);
  r = Call(one, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 2u);
}

TEST_F(UnicornRunnerTest, CodeReplacedAtTheSameAddressRunsTheNewCode) {
  const void* one = Install(kReturn1);
  auto r = Call(one, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 1u);  // translated and cached by the emulator now
  ASSERT_TRUE(cache_.Free(static_cast<const uint8_t*>(one)).ok());
  const void* two = Install(kReturn2);
  ASSERT_EQ(two, one) << "the cache reuses the freed region";
  r = Call(two, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 2u);
  EXPECT_GE(runner_->stats().invalidations, 1);
}

TEST_F(UnicornRunnerTest, FreedCodeIsNotRun) {
  const void* one = Install(kReturn1);
  ASSERT_TRUE(Call(one, {}).ok());
  ASSERT_TRUE(cache_.Free(static_cast<const uint8_t*>(one)).ok());
  auto r = Call(one, {});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "not code installed")) << r.status();
  EXPECT_TRUE(absl::StrContains(Message(r.status()), absl::StrCat(absl::Hex(Address(one)))))
      << r.status();
}

// For CodeReplacedDuringACallRunsTheNewCode: frees `replace_target` and
// installs kReturn2 in its place, as a nested compile could.
codegen::CodeCache* replace_cache = nullptr;
const void* replace_target = nullptr;
const void* replace_result = nullptr;
ValuePair ReplaceTarget() {
  if (!replace_cache->Free(static_cast<const uint8_t*>(replace_target)).ok()) return {0, 0};
  absl::StatusOr<codegen::CodeRegion> region = replace_cache->InstallBytes(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(kReturn2), sizeof(kReturn2)));
  if (region.ok()) replace_result = region->start;
  return {0, 0};
}

ValuePair DoNothing() { return {0, 0}; }

TEST_F(UnicornRunnerTest, CodeReplacedDuringACallRunsTheNewCode) {
  const void* host = reinterpret_cast<const void*>(&ReplaceTarget);
  const void* nothing = reinterpret_cast<const void*>(&DoNothing);
  ASSERT_TRUE(runner_->AllowHostCall(host).ok());
  ASSERT_TRUE(runner_->AllowHostCall(nothing).ok());
  const void* target = Install(kReturn1);
  const void* f = Install(kCallHostThenTarget);
  // Everything mapped and translated (mapping code may drop translations).
  auto r = Call(f, {Address(target), Address(nothing)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 1u);
  replace_cache = &cache_;
  replace_target = target;
  replace_result = nullptr;
  r = Call(f, {Address(target), Address(host)});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(replace_result, target) << "the cache reuses the freed region";
  EXPECT_EQ(r->first, 2u);
}

TEST_F(UnicornRunnerTest, UnmappedAddressesAreErrorsNamingAddressAndPc) {
  const void* load = Install(kLoad);
  auto r = Call(load, {0x10});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "read of 0x10 ")) << r.status();
  EXPECT_TRUE(
      absl::StrContains(Message(r.status()), absl::StrCat("pc 0x", absl::Hex(Address(load)))))
      << r.status();
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "not mapped in the host")) << r.status();
  // A host page that was mapped once and is not any more.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* gone = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(gone, MAP_FAILED);
  ASSERT_EQ(munmap(gone, page), 0);
  r = Call(load, {Address(gone)});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), absl::StrCat(absl::Hex(Address(gone)))))
      << r.status();
  // Writes to read-only host memory and to installed code.
  void* read_only = mmap(nullptr, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(read_only, MAP_FAILED);
  const void* store = Install(kStore);
  r = Call(store, {Address(read_only), 5});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "write to")) << r.status();
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "r--p")) << r.status();
  // ... but reading it is fine.
  r = Call(load, {Address(read_only)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 0u);
  munmap(read_only, page);
  r = Call(store, {Address(load), 5});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "write to")) << r.status();
  // Branches to data.
  const void* jump = Install(kJump);
  r = Call(jump, {Address(global_pair)});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "instruction fetch from")) << r.status();
}

TEST_F(UnicornRunnerTest, ExceptionsAreErrorsNamingThePc) {
  struct Case {
    const void* code;
    const char* what;
  };
  const Case cases[] = {{Install(kUndefined), "undefined instruction"},
                        {Install(kBreakpoint), "brk"},
                        {Install(kSystemCall), "svc"}};
  for (const Case& c : cases) {
    auto r = Call(c.code, {});
    ASSERT_FALSE(r.ok()) << c.what;
    EXPECT_TRUE(absl::StrContains(Message(r.status()), c.what)) << r.status();
    EXPECT_TRUE(
        absl::StrContains(Message(r.status()), absl::StrCat("pc 0x", absl::Hex(Address(c.code)))))
        << r.status();
  }
}

TEST_F(UnicornRunnerTest, LseAtomics) {
  const void* f = Install(kAtomicAdd);
  int64_t word = 40;
  auto r = Call(f, {Address(&word), 2});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 40u);
  EXPECT_EQ(word, 42);
}

TEST_F(UnicornRunnerTest, RunawayCodeIsStoppedByTheBlockBound) {
  UnicornRunnerOptions options;
  options.max_blocks = 100000;
  std::unique_ptr<UnicornRunner> runner = NewRunner(options);
  const void* f = Install(kSpin);
  auto r = runner->Call(f, {});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted) << r.status();
  EXPECT_TRUE(absl::StrContains(Message(r.status()), absl::StrCat(absl::Hex(Address(f)))))
      << r.status();
}

TEST_F(UnicornRunnerTest, RunawayCodeIsStoppedByTheTimeout) {
  UnicornRunnerOptions options;
  options.timeout = absl::Milliseconds(100);
  std::unique_ptr<UnicornRunner> runner = NewRunner(options);
  const void* f = Install(kSpin);
  const absl::Time start = absl::Now();
  auto r = runner->Call(f, {});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDeadlineExceeded) << r.status();
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
}

TEST_F(UnicornRunnerTest, StackOverflowIsAnError) {
  UnicornRunnerOptions options;
  options.stack_bytes = 64 << 10;
  std::unique_ptr<UnicornRunner> runner = NewRunner(options);
  const void* f = Install(kPushForever);
  auto r = runner->Call(f, {});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(Message(r.status()), "stack overflow")) << r.status();
}

// Nested activations: host functions that Call again.
UnicornRunner* nested_runner = nullptr;
const void* nested_code = nullptr;  // kSumArgs, then kCallX1
absl::Status nested_status;

ValuePair CallSumArgs(int64_t x) {
  auto r = nested_runner->Call(nested_code, {x, 1000});
  if (!r.ok()) {
    nested_status = r.status();
    return {0, 0};
  }
  return {r->first * 2, r->second};
}

// n levels of Call -> code -> Recurse -> Call ...; returns n, or -1000
// (nested_status says why) where a Call failed.
ValuePair Recurse(int64_t n, int64_t self) {
  if (n == 0) return {0, 0};
  const int64_t args[] = {n - 1, self};
  auto r = nested_runner->Call(nested_code, args);
  if (!r.ok()) {
    nested_status = r.status();
    return {static_cast<uint64_t>(-1000), 0};
  }
  return {r->first + 1, 0};
}

TEST_F(UnicornRunnerTest, NestedCallsFromHostFunctions) {
  nested_runner = runner_.get();
  nested_status = absl::OkStatus();
  const void* call = reinterpret_cast<const void*>(&CallSumArgs);
  ASSERT_TRUE(runner_->AllowHostCall(call).ok());
  nested_code = Install(kSumArgs);
  const void* f = Install(kCallX1);
  auto r = Call(f, {5, Address(call)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(nested_status.ok()) << nested_status;
  EXPECT_EQ(r->first, 2010u);
  EXPECT_EQ(r->second, 5u);

  const void* recurse = reinterpret_cast<const void*>(&Recurse);
  ASSERT_TRUE(runner_->AllowHostCall(recurse).ok());
  nested_code = f;
  r = Call(f, {5, Address(recurse)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(nested_status.ok()) << nested_status;
  EXPECT_EQ(r->first, 5u);
  // Deeper than max_depth (8): the innermost Call fails, cleanly.
  r = Call(f, {20, Address(recurse)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(nested_status.code(), absl::StatusCode::kResourceExhausted) << nested_status;
  // ... and the runner goes on at depth 0.
  nested_status = absl::OkStatus();
  r = Call(f, {3, Address(recurse)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, 3u);
}

TEST_F(UnicornRunnerTest, TwoThreadsAtOnce) {
  const void* triangle = Install(kTriangle);
  const void* loop = Install(kCallInLoop);
  const void* acc = reinterpret_cast<const void*>(&Accumulate);
  ASSERT_TRUE(runner_->AllowHostCall(acc).ok());
  auto work = [&](int64_t seed) {
    for (int64_t i = 0; i < 500; ++i) {
      const int64_t n = seed + i;
      auto r = Call(triangle, {n});
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(static_cast<int64_t>(r->first), n * (n + 1) / 2);
      if (i % 10 == 0) {
        auto s = Call(loop, {i, Address(acc)});
        ASSERT_TRUE(s.ok()) << s.status();
        EXPECT_EQ(static_cast<int64_t>(s->first), (i - 1) * i * (2 * i - 1) / 6);
      }
    }
  };
  std::thread a(work, 1), b(work, 1000);
  a.join();
  b.join();
  EXPECT_EQ(runner_->stats().emulators, 2);
}

}  // namespace
}  // namespace morel::aarch64::testing
