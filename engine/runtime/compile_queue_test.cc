#include "engine/runtime/compile_queue.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/root_node.h"
#include "testing/test_language/test_runtime.h"

namespace morel::runtime {
namespace {

class ConstantRoot : public RootNode {
 public:
  MOREL_NODE_KIND(ConstantRoot)
  explicit ConstantRoot(std::string name)
      : RootNode({}, std::move(name), std::make_unique<FrameDescriptor>()) {}
  Value Execute(Frame&) override { return Value::Long(1); }
};

class CompileQueueTest : public ::testing::Test {
 protected:
  CallTarget* NewTarget(const std::string& name) {
    return runtime_.CreateCallTarget(std::make_unique<ConstantRoot>(name));
  }
  test_language::TestRuntime runtime_;
};

TEST(CompileQueueThreadsTest, FollowsTruffleRule) {
  // -1: min(cpus/4 + log2(max(log2(cpus), 1)), 16), at least 1.
  EXPECT_EQ(CompileQueue::ThreadCount(-1, 1), 1);
  EXPECT_EQ(CompileQueue::ThreadCount(-1, 2), 1);
  EXPECT_EQ(CompileQueue::ThreadCount(-1, 4), 2);
  EXPECT_EQ(CompileQueue::ThreadCount(-1, 16), 6);
  EXPECT_EQ(CompileQueue::ThreadCount(-1, 1024), 16);
  // 0: 1, or 2 with 4 or more cpus.
  EXPECT_EQ(CompileQueue::ThreadCount(0, 2), 1);
  EXPECT_EQ(CompileQueue::ThreadCount(0, 8), 2);
  EXPECT_EQ(CompileQueue::ThreadCount(3, 2), 3);
}

TEST_F(CompileQueueTest, CompilesEachSubmissionOnceOnACompilerThread) {
  std::mutex lock;
  std::vector<std::string> compiled;
  std::atomic<bool> on_other_thread{true};
  std::thread::id main_thread = std::this_thread::get_id();
  CompileQueue queue(2, [&](const CompileQueue::Start& start) {
    if (std::this_thread::get_id() == main_thread) on_other_thread = false;
    std::lock_guard<std::mutex> guard(lock);
    compiled.push_back(start.target->name());
  });
  CallTarget* a = NewTarget("a");
  CallTarget* b = NewTarget("b");
  CompileQueue::QueueState state;
  ASSERT_TRUE(queue.Submit(*a, 1, [&](const CompileQueue::QueueState& s) { state = s; }));
  EXPECT_EQ(state.change, 1);
  ASSERT_TRUE(queue.Submit(*b, 1));
  queue.WaitUntilIdle();
  EXPECT_FALSE(queue.IsActive(*a));
  std::vector<std::string> sorted = compiled;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(on_other_thread);
}

TEST_F(CompileQueueTest, RefusesADuplicateAndCancels) {
  absl::Notification started, release;
  CompileQueue queue(1, [&](const CompileQueue::Start& start) {
    if (start.target->name() == "blocker") {
      started.Notify();
      release.WaitForNotification();
    }
  });
  CallTarget* blocker = NewTarget("blocker");
  CallTarget* a = NewTarget("a");
  ASSERT_TRUE(queue.Submit(*blocker, 1));
  started.WaitForNotification();
  // Compiling counts as active: a second submission is refused.
  EXPECT_FALSE(queue.Submit(*blocker, 1));
  ASSERT_TRUE(queue.Submit(*a, 1));
  EXPECT_FALSE(queue.Submit(*a, 1));
  CompileQueue::QueueState state;
  EXPECT_TRUE(queue.Cancel(*a, &state));
  EXPECT_EQ(state.size, 0);
  EXPECT_EQ(state.change, -1);
  EXPECT_FALSE(queue.Cancel(*a, nullptr));
  EXPECT_FALSE(queue.Cancel(*blocker, nullptr));  // running, not queued
  release.Notify();
  queue.WaitUntilIdle();
}

TEST_F(CompileQueueTest, TheTargetThatIsBeingCalledGoesFirst) {
  absl::Notification started, release;
  std::vector<std::string> order;
  CompileQueue queue(1, [&](const CompileQueue::Start& start) {
    if (start.target->name() == "blocker") {
      started.Notify();
      release.WaitForNotification();
      return;
    }
    order.push_back(start.target->name());  // one thread: no race
  });
  CallTarget* blocker = NewTarget("blocker");
  CallTarget* idle = NewTarget("idle");
  CallTarget* busy = NewTarget("busy");
  for (int i = 0; i < 500; ++i) idle->Call({});  // more calls, but in the past
  ASSERT_TRUE(queue.Submit(*blocker, 1));
  started.WaitForNotification();
  ASSERT_TRUE(queue.Submit(*idle, 1));
  ASSERT_TRUE(queue.Submit(*busy, 1));
  absl::SleepFor(absl::Milliseconds(3));
  for (int i = 0; i < 100; ++i) busy->Call({});  // growing while queued
  release.Notify();
  queue.WaitUntilIdle();
  EXPECT_EQ(order, (std::vector<std::string>{"busy", "idle"}));
}

// truffle_reference §4.4: the first tier beats the last tier, however busy
// the last-tier target; within a tier, a target compiled before at a higher
// tier beats a busier one that was not.
TEST_F(CompileQueueTest, TheFirstTierGoesFirstThenTheHigherCompiledTier) {
  absl::Notification started, release;
  std::vector<std::string> order;
  CompileQueue queue(1, [&](const CompileQueue::Start& start) {
    if (start.target->name() == "blocker") {
      started.Notify();
      release.WaitForNotification();
      return;
    }
    order.push_back(absl::StrCat(start.target->name(), "@", start.tier));
  });
  CallTarget* blocker = NewTarget("blocker");
  CallTarget* hot_last = NewTarget("hot_last");
  CallTarget* busy_first = NewTarget("busy_first");
  CallTarget* recompiled_first = NewTarget("recompiled_first");
  ASSERT_TRUE(queue.Submit(*blocker, 1));
  started.WaitForNotification();
  ASSERT_TRUE(queue.Submit(*hot_last, 2, nullptr, /*compiled_tier=*/1));
  ASSERT_TRUE(queue.Submit(*busy_first, 1));
  ASSERT_TRUE(queue.Submit(*recompiled_first, 1, nullptr, /*compiled_tier=*/2));
  absl::SleepFor(absl::Milliseconds(3));
  // Growing while queued: the weight prefers these two.
  for (int i = 0; i < 1000; ++i) hot_last->Call({});
  for (int i = 0; i < 100; ++i) busy_first->Call({});
  release.Notify();
  queue.WaitUntilIdle();
  EXPECT_EQ(order,
            (std::vector<std::string>{"recompiled_first@1", "busy_first@1", "hot_last@2"}));
}

// A last-tier request while the first-tier compilation of the same target
// finishes (its code is installed and already asking for the last tier) is
// queued; a second request of a tier being compiled is not.
TEST_F(CompileQueueTest, AcceptsAHigherTierWhileALowerOneCompiles) {
  absl::Notification started, release;
  std::vector<int> tiers;
  CompileQueue queue(1, [&](const CompileQueue::Start& start) {
    if (start.tier == 1) {
      started.Notify();
      release.WaitForNotification();
    }
    tiers.push_back(start.tier);
  });
  CallTarget* a = NewTarget("a");
  ASSERT_TRUE(queue.Submit(*a, 1));
  started.WaitForNotification();
  EXPECT_FALSE(queue.Submit(*a, 1));
  EXPECT_TRUE(queue.Submit(*a, 2));
  EXPECT_FALSE(queue.Submit(*a, 2));  // queued already
  EXPECT_TRUE(queue.IsActive(*a));
  release.Notify();
  queue.WaitUntilIdle();
  EXPECT_EQ(tiers, (std::vector<int>{1, 2}));
  EXPECT_FALSE(queue.IsActive(*a));
}

TEST_F(CompileQueueTest, ShutdownDropsQueuedTasksAndJoins) {
  absl::Notification started, release;
  std::atomic<int> compiled{0};
  CompileQueue queue(1, [&](const CompileQueue::Start& start) {
    if (start.target->name() == "blocker") {
      started.Notify();
      release.WaitForNotification();
    }
    ++compiled;
  });
  CallTarget* blocker = NewTarget("blocker");
  CallTarget* a = NewTarget("a");
  ASSERT_TRUE(queue.Submit(*blocker, 1));
  started.WaitForNotification();
  ASSERT_TRUE(queue.Submit(*a, 1));
  std::thread releaser([&] {
    absl::SleepFor(absl::Milliseconds(5));
    release.Notify();
  });
  queue.Shutdown();  // waits for the running compilation
  releaser.join();
  EXPECT_EQ(compiled.load(), 1);
  EXPECT_FALSE(queue.Submit(*a, 1));
}

}  // namespace
}  // namespace morel::runtime
