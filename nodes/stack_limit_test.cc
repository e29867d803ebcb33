// StackLimit: the guest's stack guard, on the main thread and on the large
// stacks of heap::RunOnLargeStack.

#include "nodes/stack_limit.h"

#include <sys/resource.h>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/guest_error.h"
#include "nodes/heap.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Arg;
using test_language::DefineFunction;
using test_language::FunctionValue;
using test_language::Invoke;
using test_language::TestRuntime;

TEST(StackLimitTest, ShallowStackIsNotExceeded) { EXPECT_FALSE(StackLimit::IsExceeded()); }

// Recurses `depth` frames of 4 KiB and says whether the limit was exceeded
// at the deepest point.
[[gnu::noinline]] bool ExceededAtDepth(int depth) {
  volatile char frame[4096];
  frame[0] = 1;
  if (depth == 0) return StackLimit::IsExceeded();
  bool exceeded = ExceededAtDepth(depth - 1);
  return exceeded && frame[0] == 1;
}

struct DepthProbe {
  int depth;
  bool exceeded;
};

TEST(StackLimitTest, LargeStackThreadsMayUseTheirWholeStack) {
  // 24 MiB deep on a 256 MiB stack: within the limit whatever the process's
  // RLIMIT_STACK, which bounds only the main thread's stack.
  DepthProbe probe{6000, true};
  heap::RunOnLargeStack(
      256u << 20,
      [](void* raw) {
        auto* p = static_cast<DepthProbe*>(raw);
        p->exceeded = ExceededAtDepth(p->depth);
      },
      &probe);
  EXPECT_FALSE(probe.exceeded);
}

struct RecursionProbe {
  CallTarget* target;
  bool overflowed = false;
  int calls = 0;
};

void RecurseUntilOverflow(void* raw) {
  auto* probe = static_cast<RecursionProbe*>(raw);
  int before = probe->target->call_count();
  try {
    probe->target->Call({FunctionValue(probe->target)});
  } catch (const StackOverflowError&) {
    probe->overflowed = true;
  }
  probe->calls = probe->target->call_count() - before;
}

TEST(StackLimitTest, GuestRecursionGoesDeeperOnALargerStack) {
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer's shadow call stack holds 64Ki frames; this recursion
  // goes deeper on purpose.
  GTEST_SKIP() << "too deep for ThreadSanitizer";
#endif
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Invoke(Arg(0), Arg(0)));
  RecursionProbe small{f};
  heap::RunOnLargeStack(8u << 20, RecurseUntilOverflow, &small);
  RecursionProbe large{f};
  heap::RunOnLargeStack(64u << 20, RecurseUntilOverflow, &large);
  ASSERT_TRUE(small.overflowed);
  ASSERT_TRUE(large.overflowed);
  EXPECT_GT(large.calls, 4 * small.calls);
}

}  // namespace
}  // namespace morel
