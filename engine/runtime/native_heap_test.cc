// Compiled `alloc` on the guest heap (GuestHeapAllocation: Boehm, with the
// inline free lists of nodes/heap_inline.h): a loop builds a long list of
// two-object nodes, collecting now and then (and churning the heap, so that
// an object freed by mistake is reused and overwritten), then walks it.
// Every object must keep what was stored in it and read zero elsewhere;
// most allocations must take the fast path (few refills); two threads at
// once each pop their own lists.

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/codegen/backend_registry.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/compile.h"
#include "engine/ir/parser.h"
#include "engine/ir/verifier.h"
#include "engine/runtime/native_tier.h"
#include "gtest/gtest.h"
#include "nodes/heap.h"
#include "nodes/heap_inline.h"

namespace morel::runtime {
namespace {

void CollectAndChurn() {
  heap::Collect();
  for (int i = 0; i < 5000; ++i) {
    auto* junk = static_cast<int64_t*>(heap::AllocateTraced(i % 2 == 0 ? 32 : 48));
    junk[0] = junk[1] = junk[2] = junk[3] = -1;
  }
  heap::Collect();
}

// The guest heap's allocation function, counting the calls compiled code
// makes (when a free list is empty).
thread_local int64_t allocate_calls = 0;
void* CountingAllocate(int64_t bytes) {
  ++allocate_calls;
  return heap::AllocateTracedInline(bytes);
}

// list(n, every) -> (sum, count): n nodes [next, i, payload, 0] with
// payload [3i, 0, 0, 0, 0, 0]; collects after every `every` nodes; walks
// the list summing node[1] + payload[0] + node[3] + payload[5].
constexpr char kList[] = R"(func @list(i64, i64) -> (i64, i64) {
block0(v0: i64, v1: i64):
  v2 = iconst.i64 0
  v3 = pconst 0
  v4 = iconst.i64 1
  v5 = iconst.i64 3
  jump block1(v2, v3)
block1(v6: i64, v7: ptr):
  v8 = icmp slt v6, v0
  br v8, block2, block5(v2, v7, v2)
block2:
  v9 = alloc 32
  v10 = alloc 48
  store.ptr v7, v9, 0
  store.i64 v6, v9, 8
  store.ptr v10, v9, 16
  v11 = imul v6, v5
  store.i64 v11, v10, 0
  v12 = iadd v6, v4
  v13 = srem v12, v1
  v14 = icmp eq v13, v2
  br v14, block3, block4
block3:
  call_runtime @collect() -> ()
  jump block4
block4:
  jump block1(v12, v9)
block5(v15: i64, v16: ptr, v17: i64):
  v18 = icmp eq v16, v3
  br v18, block7, block6
block6:
  v19 = load.i64 v16, 8
  v20 = load.ptr v16, 16
  v21 = load.i64 v20, 0
  v22 = load.i64 v16, 24
  v23 = load.i64 v20, 40
  v24 = iadd v15, v19
  v25 = iadd v24, v21
  v26 = iadd v25, v22
  v27 = iadd v26, v23
  v28 = load.ptr v16, 0
  v29 = iadd v17, v4
  jump block5(v27, v28, v29)
block7:
  return v15, v17
}
)";

struct Pair {
  int64_t sum, count;
};
using ListFn = Pair (*)(int64_t, int64_t);

class NativeHeapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<codegen::Backend*> backend = codegen::FindBackend(HostArchitecture());
    if (!backend.ok()) GTEST_SKIP() << "no native backend for this host";
    heap::Initialize();
    ASSERT_TRUE(registry_
                    .Register({"collect", reinterpret_cast<const void*>(&CollectAndChurn),
                               {{}, {}}, ir::RuntimeEffects::kNoDeopt})
                    .ok());
    absl::StatusOr<std::unique_ptr<ir::Function>> f = ir::ParseFunction(kList, &registry_);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(ir::Verify(**f).ok()) << ir::Verify(**f);
    for (bool spill : {false, true}) {
      codegen::NativeCompileOptions options;
      options.lowering.heap = GuestHeapAllocation(**backend);
      ASSERT_TRUE(options.lowering.heap.free_list_head) << "no fast path on this host";
      options.lowering.heap.allocate = reinterpret_cast<const void*>(&CountingAllocate);
      options.codegen.allocation.spill_everything = spill;
      absl::StatusOr<codegen::CompiledFunction> compiled =
          codegen::CompileFunction(**f, **backend, cache_, options);
      ASSERT_TRUE(compiled.ok()) << compiled.status();
      functions_.push_back(reinterpret_cast<ListFn>(const_cast<void*>(compiled->entry)));
      compiled_.push_back(*std::move(compiled));
    }
  }

  ir::RuntimeRegistry registry_;
  codegen::CodeCache cache_;
  std::vector<codegen::CompiledFunction> compiled_;
  std::vector<ListFn> functions_;
};

// Runs `fn` on a thread the collector scans; counts its refills.
struct ListRun {
  ListFn fn;
  int64_t n, every;
  Pair result{0, 0};
  int64_t refills = 0;
  int64_t slow_calls = 0;
  static void Run(void* raw) {
    auto* run = static_cast<ListRun*>(raw);
    const int64_t before = heap::InlineRefillsOnThisThread();
    const int64_t calls_before = allocate_calls;  // this thread's
    run->result = run->fn(run->n, run->every);
    run->refills = heap::InlineRefillsOnThisThread() - before;
    run->slow_calls = allocate_calls - calls_before;
  }
};

TEST_F(NativeHeapTest, ObjectsSurviveCollectionsAndMostAllocationsArePopped) {
  constexpr int64_t n = 20000;
  for (ListFn fn : functions_) {
    ListRun run{fn, n, 2500};
    heap::RunOnLargeStack(size_t{8} << 20, &ListRun::Run, &run);
    EXPECT_EQ(run.result.count, n);
    EXPECT_EQ(run.result.sum, 4 * (n * (n - 1) / 2));
    // Two allocations per node; compiled code calls the runtime only on
    // an empty list, which it refills with a block's worth of objects.
    EXPECT_GT(run.refills, 0);
    EXPECT_EQ(run.slow_calls, run.refills);
    EXPECT_LT(run.slow_calls, 2 * n / 20) << "the fast path pops most objects";
  }
}

TEST_F(NativeHeapTest, EachThreadPopsItsOwnLists) {
  constexpr int64_t n = 20000;
  std::vector<ListRun> runs = {{functions_[0], n, 3000}, {functions_[1], n, 1700}};
  std::vector<std::thread> threads;
  for (ListRun& run : runs) {
    threads.emplace_back([&run] { heap::RunOnLargeStack(size_t{8} << 20, &ListRun::Run, &run); });
  }
  for (std::thread& t : threads) t.join();
  for (const ListRun& run : runs) {
    EXPECT_EQ(run.result.count, n);
    EXPECT_EQ(run.result.sum, 4 * (n * (n - 1) / 2));
    EXPECT_EQ(run.slow_calls, run.refills);
  }
}

}  // namespace
}  // namespace morel::runtime
