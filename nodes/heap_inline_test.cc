// Inline allocation (heap_inline.h): the lists compiled code pops have the
// promised layout, their objects survive collections while they wait (the
// heads are a root: nothing else references them), popped objects are
// zero and never handed out twice, and each thread has its own lists.
// Compiled code's pop is done here in C++, as the backends emit it.

#include "nodes/heap_inline.h"

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "gc.h"
#include "gtest/gtest.h"
#include "nodes/heap.h"

namespace morel::heap {
namespace {

// What compiled code does (engine/codegen/lower.h HeapAllocation).
void* Pop(int64_t bytes) {
  const int list = InlineFreeList(static_cast<size_t>(bytes));
  if (list < 0) return AllocateTracedInline(bytes);
  void** head = const_cast<void**>(InlineFreeListHeads()) + list;
  void* object = *head;
  if (object == nullptr) return AllocateTracedInline(bytes);
  *head = *static_cast<void**>(object);
  *static_cast<void**>(object) = nullptr;
  return object;
}

bool AllZero(const void* object, int64_t bytes) {
  const auto* words = static_cast<const uint64_t*>(object);
  for (int64_t i = 0; i < bytes / 8; ++i) {
    if (words[i] != 0) return false;
  }
  return true;
}

// Allocates plenty of garbage of every list size through the collector's
// own paths, with collections in between: objects freed by mistake would
// be handed out again and overwritten.
[[gnu::noinline]] void ChurnHeap() {
  for (int round = 0; round < 3; ++round) {
    Collect();
    for (int i = 0; i < 20000; ++i) {
      auto* p = static_cast<uint64_t*>(AllocateTraced(16 + 16 * (i % 20)));
      p[0] = 0xdeadbeefdeadbeef;
      p[1] = 0xdeadbeefdeadbeef;
    }
  }
  Collect();
}

TEST(HeapInlineTest, SizeClassesMatchTheCollectors) {
  Initialize();
  for (int64_t bytes = 8; bytes <= 512; bytes += 8) {
    const int list = InlineFreeList(static_cast<size_t>(bytes));
    void* object = AllocateTracedInline(bytes);
    ASSERT_NE(object, nullptr);
    EXPECT_TRUE(AllZero(object, bytes)) << bytes;
    EXPECT_EQ(GC_base(object), object);
    if (list < 0) {
      EXPECT_GT(bytes, 16 * (kInlineFreeLists - 1) - 8) << bytes;
      continue;
    }
    // The size GC_MALLOC would give, which covers the request.
    EXPECT_EQ(GC_size(object), static_cast<size_t>(16 * list)) << bytes;
    EXPECT_EQ(GC_size(object), GC_size(AllocateTraced(static_cast<size_t>(bytes)))) << bytes;
    EXPECT_GE(GC_size(object), static_cast<size_t>(bytes));
  }
}

// The lists' layout: each listed object links to the next, is otherwise
// zero, and has its list's size.
TEST(HeapInlineTest, ListedObjectsAreLinkedAndZero) {
  Initialize();
  const int list = InlineFreeList(48);
  ASSERT_GT(list, 0);
  (void)AllocateTracedInline(48);  // refills if empty
  int listed = 0;
  for (void* o = InlineFreeListHeads()[list]; o != nullptr; o = *static_cast<void**>(o)) {
    EXPECT_EQ(GC_size(o), static_cast<size_t>(16 * list));
    EXPECT_TRUE(AllZero(static_cast<char*>(o) + 8, 16 * list - 8));
    ++listed;
  }
  EXPECT_GT(listed, 0);
}

// Many objects of a few sizes popped like compiled code does, kept alive
// only by a traced vector, with the heap churned and collected in
// between: every object keeps what was written into it (no object is
// handed out twice, none is freed while listed or in use), each was zero
// when popped, and most came from the lists without a call.
void PopAndKeep() {
  Initialize();
  const int64_t refills_before = InlineRefillsOnThisThread();
  constexpr int kObjects = 20000;
  TracedVector<uint64_t*> kept;
  kept.reserve(kObjects);
  int64_t slow = 0;
  for (int i = 0; i < kObjects; ++i) {
    const int64_t bytes = 16 + 8 * (i % 6);
    const int list = InlineFreeList(static_cast<size_t>(bytes));
    if (InlineFreeListHeads()[list] == nullptr) ++slow;
    auto* object = static_cast<uint64_t*>(Pop(bytes));
    ASSERT_TRUE(AllZero(object, bytes)) << i;
    for (int64_t w = 0; w < bytes / 8; ++w) object[w] = static_cast<uint64_t>(i) * 8 + w;
    kept.push_back(object);
    if (i % 5000 == 4999) ChurnHeap();
  }
  std::set<uint64_t*> distinct(kept.begin(), kept.end());
  EXPECT_EQ(distinct.size(), kept.size());
  for (int i = 0; i < kObjects; ++i) {
    const int64_t bytes = 16 + 8 * (i % 6);
    for (int64_t w = 0; w < bytes / 8; ++w) {
      ASSERT_EQ(kept[i][w], static_cast<uint64_t>(i) * 8 + w) << i << " word " << w;
    }
  }
  EXPECT_EQ(InlineRefillsOnThisThread() - refills_before, slow);
  EXPECT_LT(slow, kObjects / 10);
}

TEST(HeapInlineTest, PoppedObjectsSurviveCollections) { PopAndKeep(); }

// Objects waiting in a list are reachable from nothing but the list's
// head, in TLS: still they survive collections and are not handed out by
// the collector meanwhile (they would be overwritten by the churn).
TEST(HeapInlineTest, ListedObjectsSurviveCollections) {
  Initialize();
  const int list = InlineFreeList(32);
  (void)AllocateTracedInline(32);
  std::vector<uintptr_t> listed;  // hidden from the collector
  for (void* o = InlineFreeListHeads()[list]; o != nullptr; o = *static_cast<void**>(o)) {
    listed.push_back(~reinterpret_cast<uintptr_t>(o));
  }
  ASSERT_GT(listed.size(), 2u);
  ChurnHeap();
  size_t i = 0;
  for (void* o = InlineFreeListHeads()[list]; o != nullptr; o = *static_cast<void**>(o), ++i) {
    ASSERT_LT(i, listed.size());
    EXPECT_EQ(~reinterpret_cast<uintptr_t>(o), listed[i]);
    EXPECT_TRUE(AllZero(static_cast<char*>(o) + 8, 16 * list - 8)) << i;
  }
  EXPECT_EQ(i, listed.size());
}

// Each thread pops its own lists; a thread's lists go when it exits.
TEST(HeapInlineTest, EveryThreadHasItsOwnLists) {
  Initialize();
  (void)AllocateTracedInline(64);
  void* const* main_heads = InlineFreeListHeads();
  struct Seen {
    void* const* heads = nullptr;
    bool ok = false;
  } seen;
  RunOnLargeStack(
      size_t{8} << 20,
      [](void* raw) {
        auto* seen = static_cast<Seen*>(raw);
        seen->heads = InlineFreeListHeads();
        PopAndKeep();
        seen->ok = !::testing::Test::HasFailure();
      },
      &seen);
  EXPECT_NE(seen.heads, main_heads);
  EXPECT_TRUE(seen.ok);
  PopAndKeep();  // this thread's lists are intact
}

}  // namespace
}  // namespace morel::heap
