// LoopNode: iteration counts reach the call target and the runtime, also
// when the loop is left by a guest error.

#include "nodes/loop_node.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/guest_error.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Add;
using test_language::Arg;
using test_language::Block;
using test_language::Const;
using test_language::DefineFunction;
using test_language::LessThan;
using test_language::Read;
using test_language::TestRuntime;
using test_language::ThrowIf;
using test_language::TlError;
using test_language::While;
using test_language::Write;

// count(n, k): i = 0; while (i < n) { i = i + 1; throw if k < i }; i
CallTarget* DefineCount(TestRuntime& runtime) {
  auto descriptor = std::make_unique<FrameDescriptor>();
  int i = descriptor->AddSlot("i");
  return DefineFunction(
      runtime, "count",
      Block(Write(i, Const(0)),
            While(LessThan(Read(i), Arg(0)),
                  Block(Write(i, Add(Read(i), Const(1))),
                        ThrowIf(LessThan(Arg(1), Read(i)), "too far"))),
            Read(i)),
      std::move(descriptor));
}

TEST(LoopNodeTest, ReportsIterationsToTheCallTargetAndRuntime) {
  TestRuntime runtime;
  CallTarget* count = DefineCount(runtime);
  EXPECT_EQ(count->Call({Value::Long(10), Value::Long(1000)}), Value::Long(10));
  EXPECT_EQ(count->call_count(), 1);
  EXPECT_EQ(count->call_and_loop_count(), 1 + 10);
  std::vector<TestRuntime::LoopReport> reports = runtime.loop_reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].target, count);
  EXPECT_EQ(reports[0].iterations, 10);

  count->Call({Value::Long(5), Value::Long(1000)});
  EXPECT_EQ(count->call_and_loop_count(), 2 + 10 + 5);
  ASSERT_EQ(runtime.loop_reports().size(), 2u);
  EXPECT_EQ(runtime.loop_reports()[1].iterations, 5);
}

// A runtime whose safepoints stay requested: every poll calls OnSafepoint,
// which throws at the `throw_at`-th call.
class PollingRuntime : public TestRuntime {
 public:
  explicit PollingRuntime(int throw_at) : throw_at_(throw_at) {}
  void OnSafepoint() override {
    if (++polls_ == throw_at_) throw GuestError("stopped at a safepoint");
  }
  int polls() const { return polls_; }

 private:
  int throw_at_;
  int polls_ = 0;
};

TEST(LoopNodeTest, PollsTheSafepointAfterEveryIteration) {
  PollingRuntime runtime(/*throw_at=*/0);
  CallTarget* count = DefineCount(runtime);
  EXPECT_EQ(count->Call({Value::Long(10), Value::Long(1000)}), Value::Long(10));
  EXPECT_EQ(runtime.polls(), 0);  // nothing requested
  runtime.RequestSafepoint();
  EXPECT_EQ(count->Call({Value::Long(10), Value::Long(1000)}), Value::Long(10));
  EXPECT_EQ(runtime.polls(), 1 + 10);  // the call, then each iteration
}

TEST(LoopNodeTest, ASafepointCanEndAnEndlessLoop) {
  PollingRuntime runtime(/*throw_at=*/1000);
  CallTarget* count = DefineCount(runtime);
  runtime.RequestSafepoint();
  EXPECT_THROW(count->Call({Value::Long(INT64_MAX), Value::Long(INT64_MAX)}), GuestError);
  EXPECT_EQ(runtime.polls(), 1000);
  EXPECT_EQ(count->call_and_loop_count(), 1 + 999);
}

TEST(LoopNodeTest, CallsCountGuestFramesUnderAStackFrameLimit) {
  PollingRuntime runtime(/*throw_at=*/0);
  runtime.set_max_stack_frames(1);
  CallTarget* count = DefineCount(runtime);
  EXPECT_EQ(count->Call({Value::Long(3), Value::Long(1000)}), Value::Long(3));
  EXPECT_EQ(CallTarget::stack_frames_on_this_thread(), 0);
  runtime.set_max_stack_frames(0);
}

TEST(LoopNodeTest, ALoopThatNeverRunsReportsNothing) {
  TestRuntime runtime;
  CallTarget* count = DefineCount(runtime);
  count->Call({Value::Long(0), Value::Long(1000)});
  EXPECT_EQ(count->call_and_loop_count(), 1);
  EXPECT_TRUE(runtime.loop_reports().empty());
}

TEST(LoopNodeTest, ReportsCompletedIterationsWhenLeftByAnError) {
  TestRuntime runtime;
  CallTarget* count = DefineCount(runtime);
  // Iterations 1..3 complete; the fourth throws (i == 4 > 3).
  EXPECT_THROW(count->Call({Value::Long(10), Value::Long(3)}), TlError);
  EXPECT_EQ(count->call_and_loop_count(), 1 + 3);
  ASSERT_EQ(runtime.loop_reports().size(), 1u);
  EXPECT_EQ(runtime.loop_reports()[0].iterations, 3);
}

TEST(LoopNodeTest, IterationsCountForTheTargetWhoseTreeHoldsTheLoop) {
  TestRuntime runtime;
  CallTarget* count = DefineCount(runtime);
  CallTarget* caller = DefineFunction(
      runtime, "caller", test_language::CallDirect(count, Const(7), Const(1000)));
  EXPECT_EQ(caller->Call({}), Value::Long(7));
  EXPECT_EQ(caller->call_and_loop_count(), 1);
  EXPECT_EQ(count->call_and_loop_count(), 1 + 7);
}

TEST(LoopNodeTest, ReportLoopCountOfADetachedNodeIsIgnored) {
  auto detached = Const(0);
  LoopNode::ReportLoopCount(*detached, 5);  // no root, no target: no crash
}

TEST(LoopNodeTest, IsTheParentOfItsRepeatingNode) {
  TestRuntime runtime;
  auto loop = While(Const(0), Const(0));
  auto* while_node = static_cast<test_language::WhileNode*>(loop.get());
  CallTarget* f = DefineFunction(runtime, "f", std::move(loop));
  LoopNode* loop_node = while_node->loop_node();
  EXPECT_EQ(loop_node->repeating_node()->parent(), loop_node);
  EXPECT_EQ(loop_node->repeating_node()->GetRootNode(), f->root_node());
  EXPECT_EQ(f->Call({}), Value::Illegal());
}

// Asks for another iteration until it has run `limit` times, then ends the
// loop with `status` + kOffset; counts its runs. Two offsets: two classes of
// one layout, which differ only in their code.
template <int kOffset>
class CountingRepeatingNode final : public RepeatingNode {
 public:
  MOREL_NODE_KIND(CountingRepeatingNode)
  CountingRepeatingNode(int limit, int status) : limit_(limit), status_(status) {}
  int ExecuteRepeating(Frame&) override {
    return ++runs_ < limit_ ? kContinueLoop : status_ + kOffset;
  }
  int runs() const { return runs_; }

 private:
  int limit_;
  int status_;
  int runs_ = 0;
};

// A loop made around a final repeating node class calls that class's
// ExecuteRepeating directly; once its body is replaced, it runs the new body
// (through the vtable), never the old class's code on the new node.
TEST(LoopNodeTest, RunsTheBodyItHasAfterAReplacement) {
  FrameDescriptor descriptor;
  Value slot = Value::Illegal();
  Frame frame(&descriptor, &slot, {}, nullptr, nullptr);
  auto first = std::make_unique<CountingRepeatingNode<0>>(3, 7);
  CountingRepeatingNode<0>* first_node = first.get();
  LoopNode loop(std::move(first));
  loop.AdoptChildren();
  EXPECT_EQ(loop.Execute(frame), 7);
  EXPECT_EQ(first_node->runs(), 3);

  auto second = std::make_unique<CountingRepeatingNode<100>>(5, 9);
  CountingRepeatingNode<100>* second_node = second.get();
  first_node->Replace(std::move(second), "test");
  EXPECT_EQ(loop.repeating_node(), second_node);
  EXPECT_EQ(loop.Execute(frame), 109);
  EXPECT_EQ(second_node->runs(), 5);
  EXPECT_EQ(first_node->runs(), 3);
}

}  // namespace
}  // namespace morel
