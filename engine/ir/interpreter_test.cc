#include "engine/ir/interpreter.h"

#include <algorithm>
#include <vector>

#include "engine/ir/parser.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::ir {
namespace {

std::unique_ptr<Function> Parse(const char* text, RuntimeRegistry* registry) {
  auto f = ParseFunction(text, registry);
  EXPECT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(Verify(**f).ok()) << Verify(**f);
  return std::move(*f);
}

TEST(InterpreterTest, LoopsAndBlockArgumentsAreParallelCopies) {
  RuntimeRegistry registry;
  // Fibonacci by iteration; the back edge swaps two parameters.
  auto f = Parse(R"(func @fib(i64) -> (i64) {
block0(v0: i64):
  v1 = iconst.i64 0
  v2 = iconst.i64 1
  jump block1(v1, v2, v0)
block1(v3: i64, v4: i64, v5: i64):
  v6 = icmp sgt v5, v1
  br v6, block2, block3
block2:
  v7 = iadd v3, v4
  v8 = isub v5, v2
  jump block1(v4, v7, v8)
block3:
  return v3
}
)",
                 &registry);
  auto r = Interpret(*f, {10});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DebugString(*r), "returned (55)");
}

TEST(InterpreterTest, AllocReturnsZeroFilledMemoryFromTheHook) {
  RuntimeRegistry registry;
  auto f = Parse(R"(func @a(i64) -> (i64) {
block0(v0: i64):
  v1 = alloc 24
  store.i64 v0, v1, 8
  v2 = load.i64 v1, 8
  v3 = load.i64 v1, 16
  v4 = iadd v2, v3
  return v4
}
)",
                 &registry);
  std::vector<std::vector<int64_t>> heap;
  InterpreterOptions options;
  options.allocate = [&](int64_t bytes) {
    heap.emplace_back(bytes / 8, 0);
    return static_cast<void*>(heap.back().data());
  };
  auto r = Interpret(*f, {5}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DebugString(*r), "returned (5)");
  EXPECT_EQ(heap.size(), 1u);
  // Without the hook, `alloc` is undefined.
  EXPECT_FALSE(Interpret(*f, {5}).ok());
}

TEST(InterpreterTest, DeoptReportsVirtualObjectsOnceAndMaterializesThemWithIdentity) {
  RuntimeRegistry registry;
  // vo0 is named by a local of the inner frame, a stack entry of the outer
  // frame and (cyclically) by vo1's field: one object, allocated once.
  auto f = Parse(R"(func @v(i64, i64) -> (i64) {
  vo0 = object 24 [0: i64 v0, 16: ptr vo1]
  vo1 = object 16 [8: ptr vo0]
  fs0 = eager interpreter target 1 resume 2 locals [vo0:v1] stack [] parent fs1
  fs1 = eager interpreter target 9 resume 3 locals [] stack [vo0:v1, v0:v1]
block0(v0: i64, v1: i64):
  v2 = iconst.i1 0
  guard v2, fs0, "always"
  return v0
}
)",
                 &registry);
  auto r = Interpret(*f, {7, 3});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DebugString(*r),
            "deoptimized \"always\" [target 1 resume 2 locals (o0:3) stack ()] [target 9 "
            "resume 3 locals () stack (o0:3, 7:3)] o0 = object 24 [0: i64 7, 16: ptr o1] o1 = "
            "object 16 [8: ptr o0]");
  std::vector<std::vector<int64_t>> heap;
  heap.reserve(2);
  std::vector<void*> addresses(r->objects.size());
  MaterializeDeoptObjects(
      r->objects,
      [&](int64_t bytes) {
        heap.emplace_back(bytes / 8, 0);
        return static_cast<void*>(heap.back().data());
      },
      absl::MakeSpan(addresses), r->frames);
  ASSERT_EQ(heap.size(), 2u);
  const int64_t o0 = reinterpret_cast<int64_t>(heap[0].data());
  const int64_t o1 = reinterpret_cast<int64_t>(heap[1].data());
  EXPECT_EQ(r->frames[0].locals[0].payload, o0);
  EXPECT_EQ(r->frames[1].stack[0].payload, o0);
  EXPECT_EQ(r->frames[1].stack[1].payload, 7);
  EXPECT_EQ(heap[0], (std::vector<int64_t>{7, 0, o1}));
  EXPECT_EQ(heap[1], (std::vector<int64_t>{0, o0}));
}

TEST(InterpreterTest, AnExistingValueStandsForAVirtualObjectWhereItsConditionHolds) {
  RuntimeRegistry registry;
  // vo0 is the existing object v2 where v3 is nonzero: then nothing is
  // allocated, and slots and fields naming vo0 get v2 (identity).
  auto f = Parse(R"(func @e(i64, i64, i64, i64) -> (i64) {
  vo0 = object 16 [0: i64 v0] existing v2 if v3
  vo1 = object 16 [8: ptr vo0]
  fs0 = eager interpreter target 1 resume 2 locals [vo0:v1, vo1:v1] stack []
block0(v0: i64, v1: i64, v2: i64, v3: i64):
  v4 = iconst.i1 0
  guard v4, fs0, "always"
  return v0
}
)",
                 &registry);
  std::vector<std::vector<int64_t>> heap;
  heap.reserve(4);
  auto allocate = [&](int64_t bytes) {
    heap.emplace_back(bytes / 8, 0);
    return static_cast<void*>(heap.back().data());
  };
  std::vector<int64_t> existing(2, 0);
  const int64_t address = reinterpret_cast<int64_t>(existing.data());
  auto r = Interpret(*f, {7, 3, address, 1});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DebugString(*r), absl::StrCat("deoptimized \"always\" [target 1 resume 2 locals "
                                          "(o0:3, o1:3) stack ()] o0 = object 16 [0: i64 7] "
                                          "existing ",
                                          address, " o1 = object 16 [8: ptr o0]"));
  std::vector<void*> addresses(r->objects.size());
  MaterializeDeoptObjects(r->objects, allocate, absl::MakeSpan(addresses), r->frames);
  ASSERT_EQ(heap.size(), 1u);  // vo1 only
  EXPECT_EQ(r->frames[0].locals[0].payload, address);
  EXPECT_EQ(heap[0], (std::vector<int64_t>{0, address}));
  EXPECT_EQ(existing, (std::vector<int64_t>{0, 0}));  // not written

  // Where the condition is zero the object is allocated as any other.
  r = Interpret(*f, {7, 3, address, 0});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DebugString(*r),
            "deoptimized \"always\" [target 1 resume 2 locals (o0:3, o1:3) stack ()] o0 = "
            "object 16 [0: i64 7] o1 = object 16 [8: ptr o0]");
  addresses.assign(r->objects.size(), nullptr);
  MaterializeDeoptObjects(r->objects, allocate, absl::MakeSpan(addresses), r->frames);
  ASSERT_EQ(heap.size(), 3u);
  EXPECT_EQ(heap[1], (std::vector<int64_t>{7, 0}));
  EXPECT_EQ(r->frames[0].locals[0].payload, reinterpret_cast<int64_t>(heap[1].data()));
}

TEST(InterpreterTest, GuardsDeoptimizeWithEvaluatedFrameStates) {
  RuntimeRegistry registry;
  auto f = Parse(R"(func @g(i64, i64) -> (i64) {
  fs0 = eager interpreter target 1 resume 2 locals [v0:v1, illegal] stack [v2:v1] parent fs1
  fs1 = eager interpreter target 9 resume 3 locals [] stack []
block0(v0: i64, v1: i64):
  v2 = iadd v0, v0
  v3 = iconst.i64 1
  v4 = icmp eq v1, v3
  guard v4, fs0, "not a long"
  return v2
}
)",
                 &registry);
  auto ok = Interpret(*f, {4, 1});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(DebugString(*ok), "returned (8)");
  auto deopt = Interpret(*f, {4, 2});
  ASSERT_TRUE(deopt.ok());
  EXPECT_EQ(DebugString(*deopt),
            "deoptimized \"not a long\" [target 1 resume 2 locals (4:2, illegal) stack (8:2)]"
            " [target 9 resume 3 locals () stack ()]");
  EXPECT_EQ(deopt->action, DeoptAction::kInvalidate);
}

TEST(InterpreterTest, DeoptsReportTheirAction) {
  RuntimeRegistry registry;
  auto f = Parse(R"(func @h(i64) -> (i64) {
  fs0 = eager interpreter target 1 resume 0 locals [v0:v0] stack []
block0(v0: i64):
  v1 = iconst.i64 0
  v2 = icmp sge v0, v1
  guard v2, fs0, "negative", keep_code
  v3 = icmp ne v0, v1
  br v3, block1, block2
block1:
  return v0
block2:
  deopt fs0, "zero"
}
)",
                 &registry);
  auto negative = Interpret(*f, {-1});
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(negative->action, DeoptAction::kKeepCode);
  EXPECT_EQ(DebugString(*negative),
            "deoptimized \"negative\" keep_code [target 1 resume 0 locals (-1:-1) stack ()]");
  auto zero = Interpret(*f, {0});
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->action, DeoptAction::kInvalidate);
  EXPECT_EQ(DebugString(*zero), "deoptimized \"zero\" [target 1 resume 0 locals (0:0) stack ()]");
}

TEST(InterpreterTest, CallsMemoryAndUndefinedBehavior) {
  RuntimeRegistry registry;
  auto f = Parse(R"(declare @twice(i64) -> (i64, i64)
func @m(ptr, i64) -> (i64) {
block0(v0: ptr, v1: i64):
  v2, v3 = call_runtime @twice(v1) -> (i64, i64)
  store.i64 v2, v0, 8
  v4 = load.i64 v0, 8
  v5 = sdiv v4, v3
  return v5
}
)",
                 &registry);
  int64_t memory[2] = {0, 0};
  InterpreterOptions options;
  options.call_runtime = [](const RuntimeFunction& fn, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    EXPECT_EQ(fn.name, "twice");
    return std::vector<int64_t>{args[0] * 2, args[0]};
  };
  auto r = Interpret(*f, {reinterpret_cast<int64_t>(memory), 21}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DebugString(*r), "returned (2)");
  EXPECT_EQ(memory[1], 42);
  auto ub = Interpret(*f, {reinterpret_cast<int64_t>(memory), 0}, options);
  EXPECT_EQ(ub.status().code(), absl::StatusCode::kFailedPrecondition);
  auto no_hook = Interpret(*f, {reinterpret_cast<int64_t>(memory), 1});
  EXPECT_EQ(no_hook.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(InterpreterTest, StepLimit) {
  RuntimeRegistry registry;
  auto f = Parse(R"(func @spin() -> () {
block0:
  jump block1
block1:
  jump block1
}
)",
                 &registry);
  InterpreterOptions options;
  options.max_steps = 100;
  EXPECT_EQ(Interpret(*f, {}, options).status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(InterpreterTest, CallerValueTableHoldsValuesCallArgumentsAndDeoptSlots) {
  RuntimeRegistry registry;
  auto f = Parse(R"(declare @probe(i64, i64) -> (i64)
func @t(i64) -> (i64) {
  fs0 = eager interpreter target 1 resume 0 locals [v3:v4] stack []
block0(v0: i64):
  v1 = iconst.i64 7
  v2 = call_runtime @probe(v0, v1) -> (i64)
  jump block1(v2, v0)
block1(v3: i64, v4: i64):
  v5 = icmp eq v4, v1
  guard v5, fs0, "not seven"
  return v3
}
)",
                 &registry);
  const size_t size = ValueTableSize(*f);
  EXPECT_EQ(size, f->value_id_bound() + 2);  // two call arguments, two block arguments
  std::vector<int64_t> table(size, -1);
  InterpreterOptions options;
  options.value_table = absl::MakeSpan(table);
  // The call's arguments are words of the caller's table (a collector that
  // scans the table sees them while the hook runs).
  options.call_runtime = [&table](const RuntimeFunction&, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    EXPECT_GE(args.data(), table.data());
    EXPECT_LE(args.data() + args.size(), table.data() + table.size());
    return std::vector<int64_t>{args[0] * 100 + args[1]};
  };
  auto returned = Interpret(*f, {7}, options);
  ASSERT_TRUE(returned.ok()) << returned.status();
  EXPECT_EQ(DebugString(*returned), "returned (707)");
  // After the call the table still holds every value, the returned one too.
  EXPECT_EQ(std::count(table.begin(), table.end(), 707), 2);  // v2 and v3
  EXPECT_EQ(std::count(table.begin(), table.end(), -1), 0);   // cleared first

  auto deopt = Interpret(*f, {3}, options);
  ASSERT_TRUE(deopt.ok()) << deopt.status();
  EXPECT_EQ(DebugString(*deopt),
            "deoptimized \"not seven\" [target 1 resume 0 locals (307:3) stack ()]");
  // The deopt slots are values of the table, which outlives Interpret.
  EXPECT_NE(std::find(table.begin(), table.end(), 307), table.end());

  std::vector<int64_t> small(size - 1);
  options.value_table = absl::MakeSpan(small);
  EXPECT_EQ(Interpret(*f, {7}, options).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace morel::ir
