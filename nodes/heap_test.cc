// The heap invariant: guest objects referenced only from root-allocated
// memory (nodes, TracedVector) or from a registered thread's stack survive
// collections; RunOnLargeStack gives guest code a deep, scanned stack.

#include "nodes/heap.h"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gc.h"
#include "gtest/gtest.h"
#include "nodes/assumption.h"
#include "testing/test_language/builders.h"

namespace morel {
namespace {

using test_language::BlockNode;
using test_language::ConstantNode;
using test_language::MakeString;
using test_language::StringOf;

constexpr int kStrings = 500;
constexpr int kPaddedLength = 96;

std::string Payload(int i) {
  std::string text = absl::StrCat("payload-", i, "-");
  text.resize(kPaddedLength, static_cast<char>('a' + i % 26));
  return text;
}

// Allocates plenty of same-sized garbage so that freed strings would be
// reused and overwritten, with collections in between.
[[gnu::noinline]] void ChurnHeap() {
  heap::Collect();
  std::string junk(kPaddedLength, '#');
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 20000; ++i) MakeString(junk);
    heap::Collect();
  }
}

// Overwrites dead stack below the caller, so stale copies of pointers left
// there by the builders do not keep the strings alive by accident.
[[gnu::noinline]] void ClobberStack() {
  volatile char buffer[64 * 1024];
  for (size_t i = 0; i < sizeof buffer; ++i) buffer[i] = 0;
}

// A block of constants holding the only references to the strings.
[[gnu::noinline]] std::unique_ptr<BlockNode> BuildConstants() {
  test_language::ExpressionList constants;
  for (int i = 0; i < kStrings; ++i) {
    constants.push_back(std::make_unique<ConstantNode>(MakeString(Payload(i))));
  }
  return std::make_unique<BlockNode>(std::move(constants));
}

TEST(HeapTest, ValuesHeldOnlyByNodesSurviveCollections) {
  heap::Initialize();
  std::unique_ptr<BlockNode> block = BuildConstants();
  ClobberStack();
  ChurnHeap();
  int index = 0;
  block->ForEachChild([&](ChildSlot& slot) {
    Value value = static_cast<ConstantNode*>(slot.get())->value();
    ASSERT_TRUE(value.Is(test_language::kStringTag));
    EXPECT_EQ(std::string(StringOf(value)), Payload(index)) << "string " << index;
    ++index;
  });
  EXPECT_EQ(index, kStrings);
  EXPECT_GT(heap::HeapSize(), 0u);
}

[[gnu::noinline]] void FillTraced(heap::TracedVector<Value>& values) {
  for (int i = 0; i < kStrings; ++i) values.push_back(MakeString(Payload(i)));
}

TEST(HeapTest, ValuesHeldOnlyByATracedVectorSurviveCollections) {
  heap::Initialize();
  auto values = std::make_unique<heap::TracedVector<Value>>();
  FillTraced(*values);
  ClobberStack();
  ChurnHeap();
  ASSERT_EQ(values->size(), static_cast<size_t>(kStrings));
  for (int i = 0; i < kStrings; ++i) {
    EXPECT_EQ(std::string(StringOf((*values)[i])), Payload(i)) << "string " << i;
  }
}

[[gnu::noinline]] void FillKeptAlive(CodeDependencies& code) {
  for (int i = 0; i < kStrings; ++i) code.KeepAlive(MakeString(Payload(i)));
}

// What compiled code embeds as constants (folded calls, pe_context.h) lives
// as long as the code's dependencies, though no node refers to it.
TEST(HeapTest, ValuesACompilationKeepsAliveSurviveCollections) {
  heap::Initialize();
  auto code = std::make_unique<CodeDependencies>();
  FillKeptAlive(*code);
  ClobberStack();
  ChurnHeap();
  ASSERT_EQ(code->kept_alive().size(), static_cast<size_t>(kStrings));
  for (int i = 0; i < kStrings; ++i) {
    EXPECT_EQ(std::string(StringOf(code->kept_alive()[i])), Payload(i)) << "string " << i;
  }
}

TEST(HeapTest, RootAllocationsAreFreedExplicitly) {
  void* root = heap::AllocateRoot(128);
  ASSERT_NE(root, nullptr);
  std::memset(root, 0xab, 128);
  heap::Collect();
  EXPECT_EQ(static_cast<unsigned char*>(root)[127], 0xab);
  heap::FreeRoot(root);
}

struct LargeStackProbe {
  size_t stack_size = 0;
  pthread_t thread{};
  bool strings_intact = false;
  int depth_reached = 0;
};

[[gnu::noinline]] int Recurse(int depth) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(depth);
  if (depth == 0) return frame[0];
  return Recurse(depth - 1) + frame[0] - static_cast<char>(depth) + 1;
}

void ProbeLargeStack(void* raw) {
  auto* probe = static_cast<LargeStackProbe*>(raw);
  probe->thread = pthread_self();
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    void* low;
    pthread_attr_getstack(&attributes, &low, &probe->stack_size);
    pthread_attr_destroy(&attributes);
  }
  // 6000 frames of 4 KiB: ~24 MiB, more than a default 8 MiB stack.
  probe->depth_reached = Recurse(6000);

  // Strings referenced only from this thread's stack survive collections.
  Value strings[16];
  for (int i = 0; i < 16; ++i) strings[i] = MakeString(Payload(i));
  ChurnHeap();
  probe->strings_intact = true;
  for (int i = 0; i < 16; ++i) {
    if (std::string(StringOf(strings[i])) != Payload(i)) probe->strings_intact = false;
  }
}

TEST(HeapTest, RunOnLargeStackRunsOnADeepScannedStack) {
  constexpr size_t kStackBytes = 256u << 20;
  LargeStackProbe probe;
  heap::RunOnLargeStack(kStackBytes, ProbeLargeStack, &probe);
  EXPECT_FALSE(pthread_equal(probe.thread, pthread_self()));
  EXPECT_GE(probe.stack_size, kStackBytes);
  EXPECT_EQ(probe.depth_reached, 6000);
  EXPECT_TRUE(probe.strings_intact);
}

// A thread blocked in WhileBlocked (here: waiting for the collections of
// another thread to end) is not stopped by them, and what its caller's
// frames hold survives them.
struct BlockedProbe {
  std::mutex lock;
  std::condition_variable done_collecting;
  bool collected = false;
  bool ran = false;
  bool strings_intact = false;
};

void CollectThenSignal(BlockedProbe* probe) {
  heap::ScopedThreadRegistration registration;
  ChurnHeap();
  std::lock_guard<std::mutex> guard(probe->lock);
  probe->collected = true;
  probe->done_collecting.notify_all();
}

void WaitBlockedOnLargeStack(void* raw) {
  auto* probe = static_cast<BlockedProbe*>(raw);
  Value strings[16];
  for (int i = 0; i < 16; ++i) strings[i] = MakeString(Payload(i));
  std::thread collector(CollectThenSignal, probe);
  heap::WhileBlocked([&] {
    std::unique_lock<std::mutex> guard(probe->lock);
    probe->done_collecting.wait(guard, [&] { return probe->collected; });
    probe->ran = true;
  });
  collector.join();
  probe->strings_intact = true;
  for (int i = 0; i < 16; ++i) {
    if (std::string(StringOf(strings[i])) != Payload(i)) probe->strings_intact = false;
  }
}

TEST(HeapTest, WhileBlockedLetsOtherThreadsCollect) {
  BlockedProbe probe;
  heap::RunOnLargeStack(size_t{8} << 20, WaitBlockedOnLargeStack, &probe);
  EXPECT_TRUE(probe.ran);
  EXPECT_TRUE(probe.strings_intact);
}

TEST(HeapTest, WhileBlockedOnAnUnregisteredThreadJustRuns) {
  bool ran = false;
  std::thread([&] { heap::WhileBlocked([&] { ran = true; }); }).join();
  EXPECT_TRUE(ran);
}

// How often collections stopped one thread (Boehm reports each suspension
// it signals as GC_EVENT_THREAD_SUSPENDED with the thread's pthread_t).
std::atomic<uintptr_t> watched_thread{0};
std::atomic<int> watched_suspensions{0};

void CountSuspensions(GC_EventType event, void* thread) {
  if (event == GC_EVENT_THREAD_SUSPENDED &&
      reinterpret_cast<uintptr_t>(thread) == watched_thread.load()) {
    watched_suspensions.fetch_add(1);
  }
}

// Suspensions of a registered thread waiting on a condition variable while
// this thread collects `collections` times, the wait inside WhileBlocked
// or not.
int SuspensionsOfAWaitingThread(bool blocked, int collections) {
  std::mutex lock;
  std::condition_variable changed;
  bool waiting = false, done = false;
  std::thread waiter([&] {
    heap::ScopedThreadRegistration registration;
    watched_thread = static_cast<uintptr_t>(pthread_self());
    auto wait = [&] {
      std::unique_lock<std::mutex> guard(lock);
      waiting = true;
      changed.notify_all();
      changed.wait(guard, [&] { return done; });
    };
    if (blocked) {
      heap::WhileBlocked(wait);
    } else {
      wait();
    }
  });
  {
    std::unique_lock<std::mutex> guard(lock);
    changed.wait(guard, [&] { return waiting; });
  }
  watched_suspensions = 0;
  GC_set_on_thread_event(CountSuspensions);
  for (int i = 0; i < collections; ++i) heap::Collect();
  GC_set_on_thread_event(nullptr);
  {
    std::lock_guard<std::mutex> guard(lock);
    done = true;
    changed.notify_all();
  }
  waiter.join();
  return watched_suspensions.load();
}

// What WhileBlocked is for: collections stop a waiting thread, unless it
// waits inside WhileBlocked.
TEST(HeapTest, CollectionsDoNotStopAThreadWhileBlocked) {
  heap::Initialize();
  EXPECT_GE(SuspensionsOfAWaitingThread(/*blocked=*/false, 3), 3);
  EXPECT_EQ(SuspensionsOfAWaitingThread(/*blocked=*/true, 3), 0);
}

// The statistics are measured: allocation and collections move them by
// what happened, not by a constant.
TEST(HeapTest, StatisticsCountAllocatedBytesCollectionsAndTheirTime) {
  heap::Initialize();
  heap::Statistics before = heap::GetStatistics();
  constexpr size_t kBlocks = 2000;
  constexpr size_t kBlockBytes = 1024;
  void* volatile sink = nullptr;
  for (size_t i = 0; i < kBlocks; ++i) sink = heap::AllocateAtomic(kBlockBytes);
  (void)sink;
  heap::Statistics allocated = heap::GetStatistics();
  heap::Collect();
  heap::Collect();
  heap::Statistics after = heap::GetStatistics();

  uint64_t bytes = allocated.allocated_bytes - before.allocated_bytes;
  EXPECT_GE(bytes, kBlocks * kBlockBytes);
  EXPECT_LT(bytes, 2 * kBlocks * kBlockBytes + (size_t{1} << 20));
  EXPECT_GE(after.collections, allocated.collections + 2);
  EXPECT_GT(after.gc_nanoseconds, allocated.gc_nanoseconds);
  EXPECT_GT(after.elapsed_nanoseconds, before.elapsed_nanoseconds);
  EXPECT_LE(after.gc_nanoseconds, after.elapsed_nanoseconds);
  EXPECT_GE(after.heap_bytes, after.free_bytes);
  EXPECT_GE(after.heap_bytes, size_t{4} << 20);
  EXPECT_GE(after.markers, 1);
}

TEST(HeapTest, FormatsStatisticsOnOneLine) {
  heap::Statistics statistics;
  statistics.allocated_bytes = 123456789;
  statistics.collections = 42;
  statistics.gc_nanoseconds = 12345678;
  statistics.elapsed_nanoseconds = 98765432;
  statistics.heap_bytes = 8 << 20;
  statistics.free_bytes = 1 << 20;
  statistics.markers = 2;
  statistics.incremental = false;
  EXPECT_EQ(heap::FormatStatistics(statistics),
            "allocated_bytes=123456789 collections=42 gc_ms=12.346 total_ms=98.765 "
            "gc_percent=12.50 heap_bytes=8388608 free_bytes=1048576 markers=2 incremental=0");
}

}  // namespace
}  // namespace morel
