// The interpreter with a caller-owned value table in collector-scanned
// memory (how Morel's IR tier runs it: engine/runtime/compiler.cc): guest
// objects that only the function's SSA values reference survive full
// collections that hooks trigger mid-function. The test links the guest
// heap (nodes/heap.h); the interpreter library itself does not.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/parser.h"
#include "engine/ir/verifier.h"
#include "gc.h"
#include "gtest/gtest.h"
#include "nodes/heap.h"

namespace morel::ir {
namespace {

constexpr int kObjects = 64;
constexpr int64_t kMagic = 0x5eed0000;

// Objects of this test (earlier tests' garbage is finalized too) that the
// collector found unreachable.
int generation = 0;
int finalized = 0;
void CountFinalized(void*, void* object_generation) {
  if (reinterpret_cast<intptr_t>(object_generation) == generation) ++finalized;
}

// v1..v64 = alloc(k); collect(); then the sum of check(v_k, k), which is
// kObjects when every object is intact. Argument 1 returns; others
// deoptimize, with the objects in the frame state's locals.
std::string Program() {
  std::string text =
      "declare @alloc(i64) -> (i64)\n"
      "declare @collect() -> ()\n"
      "declare @check(i64, i64) -> (i64)\n"
      "func @keep(i64) -> (i64) {\n";
  absl::StrAppend(&text, "  fs0 = eager interpreter target 1 resume 0 locals [");
  for (int k = 1; k <= kObjects; ++k) {
    absl::StrAppend(&text, k > 1 ? ", " : "", "v", kObjects + k, ":v0");
  }
  absl::StrAppend(&text, "] stack []\nblock0(v0: i64):\n");
  for (int k = 1; k <= kObjects; ++k) {
    absl::StrAppend(&text, "  v", k, " = iconst.i64 ", k, "\n");
  }
  // Values v(kObjects + k) are the objects.
  const int base = kObjects;
  for (int k = 1; k <= kObjects; ++k) {
    absl::StrAppend(&text, "  v", base + k, " = call_runtime @alloc(v", k, ") -> (i64)\n");
  }
  absl::StrAppend(&text, "  call_runtime @collect() -> ()\n");
  int sum = 0;
  for (int k = 1; k <= kObjects; ++k) {
    const int checked = 3 * kObjects + k;
    absl::StrAppend(&text, "  v", checked, " = call_runtime @check(v", base + k, ", v", k,
                    ") -> (i64)\n");
    if (k == 1) {
      sum = checked;
    } else {
      const int next = 5 * kObjects + k;
      absl::StrAppend(&text, "  v", next, " = iadd v", sum, ", v", checked, "\n");
      sum = next;
    }
  }
  absl::StrAppend(&text, "  v", 7 * kObjects, " = icmp eq v0, v1\n");
  absl::StrAppend(&text, "  guard v", 7 * kObjects, ", fs0, \"leave\"\n");
  absl::StrAppend(&text, "  return v", sum, "\n}\n");
  return text;
}

InterpreterOptions Hooks() {
  InterpreterOptions options;
  options.call_runtime = [](const RuntimeFunction& fn, absl::Span<const int64_t> args)
      -> absl::StatusOr<std::vector<int64_t>> {
    if (fn.name == "alloc") {
      auto* object = static_cast<int64_t*>(heap::AllocateTraced(4 * sizeof(int64_t)));
      object[0] = kMagic + args[0];
      GC_register_finalizer(object, CountFinalized, reinterpret_cast<void*>(generation),
                            nullptr, nullptr);
      return std::vector<int64_t>{reinterpret_cast<int64_t>(object)};
    }
    if (fn.name == "collect") {
      // Garbage to reuse freed memory, then full collections.
      for (int i = 0; i < 1000; ++i) heap::AllocateTraced(4 * sizeof(int64_t));
      heap::Collect();
      heap::Collect();
      GC_invoke_finalizers();
      return std::vector<int64_t>{};
    }
    const auto* object = reinterpret_cast<const int64_t*>(args[0]);
    return std::vector<int64_t>{object[0] == kMagic + args[1] ? 1 : 0};
  };
  return options;
}

class InterpreterGcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    heap::Initialize();
    absl::StatusOr<std::unique_ptr<Function>> f = ParseFunction(Program(), &registry_);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(Verify(**f).ok()) << Verify(**f);
    function_ = std::move(*f);
    ++generation;
    finalized = 0;
  }
  RuntimeRegistry registry_;
  std::unique_ptr<Function> function_;
};

TEST_F(InterpreterGcTest, ObjectsOnlyTheTableHoldsSurviveCollections) {
  heap::TracedVector<int64_t> table(ValueTableSize(*function_), 0);
  InterpreterOptions options = Hooks();
  options.value_table = absl::MakeSpan(table);
  auto r = Interpret(*function_, {1}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(DebugString(*r), absl::StrCat("returned (", kObjects, ")"));
  EXPECT_EQ(finalized, 0);
}

TEST_F(InterpreterGcTest, DeoptSlotsStayReachableThroughTheTable) {
  heap::TracedVector<int64_t> table(ValueTableSize(*function_), 0);
  InterpreterOptions options = Hooks();
  options.value_table = absl::MakeSpan(table);
  auto r = Interpret(*function_, {2}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->kind, ExecutionResult::Kind::kDeoptimized);
  ASSERT_EQ(r->frames.size(), 1u);
  ASSERT_EQ(r->frames[0].locals.size(), static_cast<size_t>(kObjects));
  // What a runtime does next (resume in its interpreter) allocates; the
  // objects the deopt slots name must still be there.
  for (int i = 0; i < 1000; ++i) heap::AllocateTraced(4 * sizeof(int64_t));
  heap::Collect();
  GC_invoke_finalizers();
  EXPECT_EQ(finalized, 0);
  for (int k = 1; k <= kObjects; ++k) {
    const auto* object = reinterpret_cast<const int64_t*>(r->frames[0].locals[k - 1].payload);
    EXPECT_EQ(object[0], kMagic + k) << "object " << k;
  }
}

}  // namespace
}  // namespace morel::ir
