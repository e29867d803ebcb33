// DirectCallNode and IndirectCallNode.

#include "nodes/call_nodes.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Add;
using test_language::Arg;
using test_language::CallDirectNode;
using test_language::Const;
using test_language::DefineFunction;
using test_language::TestRuntime;
using test_language::TlRootNode;

DirectCallNode* CallNodeOf(CallTarget* caller) {
  auto* body = static_cast<TlRootNode*>(caller->root_node())->body();
  return static_cast<CallDirectNode*>(body)->call_node();
}

TEST(DirectCallNodeTest, RegistersWithTheCalleeWhenCreated) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(1));
  std::unique_ptr<DirectCallNode> call = DirectCallNode::Create(f);
  EXPECT_EQ(runtime.direct_call_nodes_created(), 1);
  EXPECT_EQ(f->single_call_node(), call.get());
  EXPECT_EQ(call->call_target(), f);
  EXPECT_EQ(call->current_call_target(), f);
  EXPECT_FALSE(call->IsCallTargetCloned());
  EXPECT_EQ(call->call_count(), 0);
  EXPECT_EQ(f->call_count(), 0);  // registering is not calling
}

TEST(DirectCallNodeTest, HoldsItsCalleeWhileItExists) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(1));
  EXPECT_EQ(f->holder_count(), 0);
  std::unique_ptr<DirectCallNode> a = DirectCallNode::Create(f);
  std::unique_ptr<DirectCallNode> b = DirectCallNode::Create(f);
  EXPECT_EQ(f->holder_count(), 2);
  EXPECT_EQ(f->call_sites_known(), 2);
  b.reset();
  // Unregistered too: the profile names no destroyed node.
  EXPECT_EQ(f->holder_count(), 1);
  EXPECT_EQ(f->call_sites_known(), 1);
  a.reset();
  EXPECT_EQ(f->holder_count(), 0);
  EXPECT_EQ(f->single_call_node(), nullptr);
}

TEST(DirectCallNodeTest, OutlivesItsCalleeSafely) {
  // A runtime's teardown may destroy a callee before its callers' trees.
  TestRuntime runtime;
  auto g = std::make_unique<CallTarget>(std::make_unique<TlRootNode>("g", Const(2)), &runtime);
  std::unique_ptr<DirectCallNode> call = DirectCallNode::Create(g.get());
  std::shared_ptr<const CallTarget::Token> token = g->HolderToken();
  g.reset();
  EXPECT_EQ(token->target(), nullptr);
  call.reset();  // does not touch the destroyed target
}

TEST(DirectCallNodeTest, CountsItsCalls) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Add(Arg(0), Const(1)));
  CallTarget* caller = DefineFunction(runtime, "caller", test_language::CallDirect(f, Arg(0)));
  std::unique_ptr<DirectCallNode> other = DirectCallNode::Create(f);
  EXPECT_EQ(caller->Call({Value::Long(1)}), Value::Long(2));
  EXPECT_EQ(caller->Call({Value::Long(5)}), Value::Long(6));
  Value args[] = {Value::Long(9)};
  EXPECT_EQ(other->Call(args), Value::Long(10));
  EXPECT_EQ(CallNodeOf(caller)->call_count(), 2);
  EXPECT_EQ(other->call_count(), 1);
  EXPECT_EQ(f->call_count(), 3);
}

TEST(DirectCallNodeTest, AsksTheRuntimeOncePerCallNodeAfterNeedsSplit) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(1));
  std::unique_ptr<DirectCallNode> a = DirectCallNode::Create(f);
  std::unique_ptr<DirectCallNode> b = DirectCallNode::Create(f);
  a->Call({});
  b->Call({});
  EXPECT_TRUE(runtime.direct_call_consultations().empty());
  EXPECT_FALSE(a->split_decided());

  f->set_needs_split(true);
  for (int i = 0; i < 3; ++i) a->Call({});
  ASSERT_EQ(runtime.direct_call_consultations().size(), 1u);
  EXPECT_EQ(runtime.direct_call_consultations()[0].call, a.get());
  EXPECT_EQ(runtime.direct_call_consultations()[0].target, f);
  EXPECT_TRUE(a->split_decided());
  EXPECT_FALSE(b->split_decided());

  b->Call({});
  b->Call({});
  ASSERT_EQ(runtime.direct_call_consultations().size(), 2u);
  EXPECT_EQ(runtime.direct_call_consultations()[1].call, b.get());

  // A refused split is not retried, and a new call node gets its own decision.
  std::unique_ptr<DirectCallNode> c = DirectCallNode::Create(f);
  c->Call({});
  EXPECT_EQ(runtime.direct_call_consultations().size(), 3u);
  EXPECT_FALSE(a->IsCallTargetCloned());
  EXPECT_EQ(f->call_count(), 2 + 3 + 2 + 1);
}

TEST(DirectCallNodeTest, SplitAtTheFirstCallAfterNeedsSplit) {
  TestRuntime runtime;
  runtime.set_split_on_call(true);
  CallTarget* f = DefineFunction(runtime, "f", Add(Arg(0), Arg(0)), nullptr,
                                 {.cloning_allowed = true});
  CallTarget* caller = DefineFunction(runtime, "caller", test_language::CallDirect(f, Arg(0)));
  std::unique_ptr<DirectCallNode> other = DirectCallNode::Create(f);
  DirectCallNode* call = CallNodeOf(caller);
  EXPECT_EQ(caller->Call({Value::Long(1)}), Value::Long(2));
  EXPECT_FALSE(call->IsCallTargetCloned());
  EXPECT_EQ(f->call_sites_known(), 2);

  f->set_needs_split(true);
  EXPECT_EQ(caller->Call({Value::Long(4)}), Value::Long(8));
  ASSERT_TRUE(call->IsCallTargetCloned());
  CallTarget* split = call->current_call_target();
  EXPECT_EQ(call->call_target(), f);
  EXPECT_EQ(split->source_call_target(), f);
  EXPECT_EQ(split->call_count(), 1);
  EXPECT_EQ(f->call_count(), 1);
  // The registration moved to the copy.
  EXPECT_EQ(f->call_sites_known(), 1);
  EXPECT_EQ(split->call_sites_known(), 1);
  EXPECT_EQ(split->single_call_node(), call);
  EXPECT_EQ(split->call_site_for_split(), call);

  caller->Call({Value::Long(5)});
  EXPECT_EQ(split->call_count(), 2);
  EXPECT_EQ(runtime.direct_call_consultations().size(), 1u);
}

TEST(DirectCallNodeTest, RootsThatForbidCloningAreNotSplit) {
  TestRuntime runtime;
  runtime.set_split_on_call(true);
  CallTarget* f = DefineFunction(runtime, "f", Const(3));  // cloning not allowed
  std::unique_ptr<DirectCallNode> call = DirectCallNode::Create(f);
  EXPECT_FALSE(call->IsCallTargetCloningAllowed());
  f->set_needs_split(true);
  EXPECT_EQ(call->Call({}), Value::Long(3));
  EXPECT_FALSE(call->IsCallTargetCloned());
  EXPECT_TRUE(call->split_decided());
}

TEST(DirectCallNodeTest, InstallSplitMovesTheCallerRegistration) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", Const(1), nullptr, {.cloning_allowed = true});
  std::unique_ptr<DirectCallNode> call = DirectCallNode::Create(f);
  CallTarget* split = runtime.CreateSplit(f);
  EXPECT_EQ(split->call_sites_known(), 0);

  call->InstallSplit(split);
  EXPECT_EQ(call->current_call_target(), split);
  EXPECT_EQ(call->call_target(), f);
  EXPECT_TRUE(call->IsCallTargetCloned());
  EXPECT_EQ(f->call_sites_known(), 0);
  EXPECT_EQ(f->single_call_node(), nullptr);
  EXPECT_EQ(split->call_sites_known(), 1);
  EXPECT_EQ(split->single_call_node(), call.get());

  call->Call({});
  EXPECT_EQ(split->call_count(), 1);
  EXPECT_EQ(f->call_count(), 0);
  EXPECT_TRUE(call->CloneCallTarget());  // already calls a copy
}

TEST(DirectCallNodeTest, ForcedSplitAsksTheRuntime) {
  TestRuntime runtime;  // does not implement forced splits
  CallTarget* f = DefineFunction(runtime, "f", Const(1), nullptr, {.cloning_allowed = true});
  std::unique_ptr<DirectCallNode> call = DirectCallNode::Create(f);
  EXPECT_FALSE(call->CloneCallTarget());
  EXPECT_FALSE(call->IsCallTargetCloned());
  call->ForceInlining();
  EXPECT_TRUE(call->is_inlining_forced());
}

TEST(IndirectCallNodeTest, CallsWhateverItIsGiven) {
  TestRuntime runtime;
  CallTarget* one = DefineFunction(runtime, "one", Const(1));
  CallTarget* echo = DefineFunction(runtime, "echo", Arg(0));
  std::unique_ptr<IndirectCallNode> call = IndirectCallNode::Create();
  EXPECT_EQ(call->Call(one, {}), Value::Long(1));
  Value args[] = {Value::Boolean(true)};
  EXPECT_EQ(call->Call(echo, args), Value::Boolean(true));
  EXPECT_EQ(one->call_count(), 1);
  EXPECT_EQ(echo->call_count(), 1);
  EXPECT_EQ(one->call_sites_known(), 0);  // indirect calls are not known callers
}

}  // namespace
}  // namespace morel
