// CallTarget: call counts, known callers (truffle_reference §1.1), the
// uninitialized node count, split naming and guest stack overflow.

#include "nodes/call_target.h"

#include <climits>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "nodes/call_nodes.h"
#include "nodes/frame.h"
#include "nodes/guest_error.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Add;
using test_language::Arg;
using test_language::Const;
using test_language::DefineFunction;
using test_language::FunctionValue;
using test_language::Invoke;
using test_language::TestRuntime;

TEST(CallTargetTest, CountsCalls) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Add(Arg(0), Const(1)));
  EXPECT_EQ(f->call_count(), 0);
  EXPECT_EQ(f->call_and_loop_count(), 0);
  EXPECT_EQ(f->Call({Value::Long(1)}), Value::Long(2));
  EXPECT_EQ(f->Call({Value::Long(2)}), Value::Long(3));
  EXPECT_EQ(f->call_count(), 2);
  EXPECT_EQ(f->call_and_loop_count(), 2);
  EXPECT_EQ(f->runtime(), &runtime);
  EXPECT_EQ(f->name(), "f");
}

TEST(CallTargetTest, ErrorsStillCountTheCall) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Arg(0));
  EXPECT_THROW(f->Call({}), test_language::TlError);
  EXPECT_EQ(f->call_count(), 1);
  EXPECT_EQ(Frame::Current(), nullptr);  // the frame scope unwound
}

TEST(CallTargetTest, LoopCountsAddToCallAndLoopCountOnly) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(0));
  f->Call({});
  f->AddLoopCount(10);
  f->AddLoopCount(0);
  f->AddLoopCount(-5);
  EXPECT_EQ(f->call_count(), 1);
  EXPECT_EQ(f->call_and_loop_count(), 11);
}

TEST(CallTargetTest, CountsSaturate) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(0));
  f->AddLoopCount(INT_MAX);
  f->AddLoopCount(INT_MAX);
  EXPECT_EQ(f->call_and_loop_count(), INT_MAX);
  f->Call({});
  EXPECT_EQ(f->call_and_loop_count(), INT_MAX);
  EXPECT_EQ(f->call_count(), 1);
}

// Installed code counts its own calls (first-tier code in its prologue,
// last-tier code not at all): Call() counts interpreter calls only.
TEST(CallTargetTest, CallsOfInstalledCodeAreNotCountedByCall) {
  class Seven : public InstalledCode {
   public:
    Value Invoke(CallTarget&, absl::Span<const Value>) override { return Value::Long(7); }
  };
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(0));
  f->Call({});
  Seven code;
  f->set_installed_code(&code);
  EXPECT_EQ(f->Call({}), Value::Long(7));
  EXPECT_EQ(f->call_count(), 1);
  EXPECT_EQ(f->call_and_loop_count(), 1);
  f->set_installed_code(nullptr);
  EXPECT_EQ(f->Call({}), Value::Long(0));
  EXPECT_EQ(f->call_count(), 2);
}

TEST(CallTargetTest, IdsAreUnique) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(0));
  CallTarget* g = DefineFunction(runtime, "g", Const(0));
  EXPECT_NE(f->id(), g->id());
}

// truffle_reference §1.1: NO_CALL -> the single caller -> MULTIPLE_CALLS;
// the same node again changes nothing; every other registration counts.
TEST(CallTargetTest, AddDirectCallNodeFollowsTruffle) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(0));
  EXPECT_EQ(f->call_sites_known(), 0);
  EXPECT_EQ(f->single_call_node(), nullptr);

  std::unique_ptr<DirectCallNode> first = DirectCallNode::Create(f);
  EXPECT_EQ(f->call_sites_known(), 1);
  EXPECT_EQ(f->single_call_node(), first.get());

  f->AddDirectCallNode(first.get());  // the same node again
  EXPECT_EQ(f->call_sites_known(), 1);
  EXPECT_EQ(f->single_call_node(), first.get());

  std::unique_ptr<DirectCallNode> second = DirectCallNode::Create(f);
  EXPECT_EQ(f->call_sites_known(), 2);
  EXPECT_EQ(f->single_call_node(), nullptr);  // multiple

  std::unique_ptr<DirectCallNode> third = DirectCallNode::Create(f);
  EXPECT_EQ(f->call_sites_known(), 3);
  EXPECT_EQ(f->single_call_node(), nullptr);
}

TEST(CallTargetTest, RemovingTheSingleCallerLeavesNone) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(0));
  std::unique_ptr<DirectCallNode> call = DirectCallNode::Create(f);
  f->RemoveDirectCallNode(call.get());
  EXPECT_EQ(f->call_sites_known(), 0);
  EXPECT_EQ(f->single_call_node(), nullptr);
  f->AddDirectCallNode(call.get());
  EXPECT_EQ(f->call_sites_known(), 1);
  EXPECT_EQ(f->single_call_node(), call.get());
}

TEST(CallTargetTest, CallNodesInsideTreesRegisterToo) {
  TestRuntime runtime;
  CallTarget* callee = DefineFunction(runtime, "callee", Const(0));
  DefineFunction(runtime, "a", test_language::CallDirect(callee));
  EXPECT_EQ(callee->call_sites_known(), 1);
  EXPECT_NE(callee->single_call_node(), nullptr);
  DefineFunction(runtime, "b", test_language::CallDirect(callee));
  EXPECT_EQ(callee->call_sites_known(), 2);
  EXPECT_EQ(callee->single_call_node(), nullptr);
}

TEST(CallTargetTest, UninitializedNodeCountIsComputeSizeOrTheNodeCount) {
  TestRuntime runtime;
  // root + add + two arguments
  CallTarget* counted = DefineFunction(runtime, "counted", Add(Arg(0), Arg(1)));
  EXPECT_EQ(counted->uninitialized_node_count(), 4);
  CallTarget* sized = DefineFunction(runtime, "sized", Add(Arg(0), Arg(1)), nullptr,
                                     {.compute_size = 99});
  EXPECT_EQ(sized->uninitialized_node_count(), 99);
  CallTarget* zero = DefineFunction(runtime, "zero", Add(Arg(0), Arg(1)), nullptr,
                                    {.compute_size = 0});
  EXPECT_EQ(zero->uninitialized_node_count(), 4);  // <= 0: count the nodes
}

TEST(CallTargetTest, SplitCopyIsNamedAfterItsIdAndStartsFresh) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "fib", Add(Arg(0), Arg(1)), nullptr,
                                 {.cloning_allowed = true});
  f->Call({Value::Long(1), Value::Long(2)});
  CallTarget* split = runtime.CreateSplit(f);
  ASSERT_NE(split, nullptr);
  EXPECT_EQ(split->name(), "fib <split-" + std::to_string(split->id()) + ">");
  EXPECT_NE(split->id(), f->id());
  EXPECT_EQ(f->name(), "fib");
  EXPECT_TRUE(split->is_split());
  EXPECT_FALSE(f->is_split());
  EXPECT_EQ(split->source_call_target(), f);
  EXPECT_EQ(f->source_call_target(), nullptr);
  EXPECT_EQ(split->call_count(), 0);
  EXPECT_EQ(split->uninitialized_node_count(), f->uninitialized_node_count());
  EXPECT_EQ(split->root_node()->call_target(), split);
  EXPECT_EQ(split->Call({Value::Long(2), Value::Long(3)}), Value::Long(5));
  EXPECT_EQ(f->call_count(), 1);
}

TEST(CallTargetTest, UnboundedRecursionIsAGuestStackOverflow) {
  TestRuntime runtime;
  // f(g) = g(g)
  CallTarget* f = DefineFunction(runtime, "f", Invoke(Arg(0), Arg(0)));
  try {
    f->Call({FunctionValue(f)});
    FAIL() << "no stack overflow";
  } catch (const StackOverflowError& error) {
    EXPECT_NE(error.message().find("Stack overflow"), std::string::npos) << error.message();
    EXPECT_NE(error.message().find("f"), std::string::npos);
  }
  EXPECT_GT(f->call_count(), 100);
  EXPECT_EQ(Frame::Current(), nullptr);
  // The thread recovers and can overflow again.
  EXPECT_THROW(f->Call({FunctionValue(f)}), StackOverflowError);
  EXPECT_THROW(f->Call({FunctionValue(f)}), GuestError);
}

}  // namespace
}  // namespace morel
