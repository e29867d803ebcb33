// Split decisions (truffle_reference §1.4, AbstractSplittingStrategyTest /
// NodeSplittingStrategyTest / legacy SplittingStrategyTest): splitting at the
// next interpreter call, new call sites, outer-to-inner chains, the budget,
// the callee size limit, forced splits, the recursion guard, the caller
// notification, TraceSplitting lines and the summary with waste.

#include "splitting/splitting_strategy.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "splitting/splitting_test_runtime.h"
#include "splitting/splitting_test_util.h"
#include "testing/test_language/builders.h"

namespace morel::splitting {
namespace {

using namespace test_language;  // NOLINT: the test language's builders
using testing::LinesStartingWith;
using testing::ReadFile;
using testing::ReadLines;
using testing::TempPath;

constexpr RootOptions kCloneable{/*cloning_allowed=*/true, /*compute_size=*/-1};

Expr Poly(Expr operand) {
  return std::make_unique<TurnsPolymorphicOnZeroNode>(std::move(operand));
}

SplittingOptions TestOptions() {
  SplittingOptions options;
  options.growth_limit = 2.0;
  return options;
}

// AbstractSplittingStrategyTest#createDummyTargetsToBoostGrowingSplitLimit.
void BoostSplitLimit(NodeRuntime& runtime) {
  for (int i = 0; i < 10; ++i) {
    DefineFunction(runtime, "dummy", Const(i), nullptr, RootOptions{false, 100});
  }
}

std::vector<CallTarget*> Sources(const std::vector<CallTarget*>& splits) {
  std::vector<CallTarget*> sources;
  for (CallTarget* split : splits) sources.push_back(split->source_call_target());
  return sources;
}

// testSplitsDirectCallsHelper.
void ExpectSplitsDirectCalls(SplittingTestRuntime& runtime, CallTarget* target,
                             std::vector<Value> first, std::vector<Value> second) {
  auto call = DirectCallNode::Create(target);
  auto other = DirectCallNode::Create(target);
  call->Call(first);  // the first execution does not count
  EXPECT_FALSE(target->needs_split()) << "needs split before going polymorphic";
  call->Call(first);
  EXPECT_FALSE(target->needs_split()) << "needs split before going polymorphic";
  call->Call(second);
  EXPECT_TRUE(target->needs_split()) << "no needs split after going polymorphic";
  EXPECT_FALSE(call->IsCallTargetCloned());
  call->Call(second);
  EXPECT_TRUE(call->IsCallTargetCloned()) << "needs split but not cloned";
  EXPECT_EQ(call->current_call_target()->source_call_target(), target);
  auto new_call = DirectCallNode::Create(target);
  new_call->Call(second);
  EXPECT_TRUE(new_call->IsCallTargetCloned()) << "a new call node is not split";
  EXPECT_NE(new_call->current_call_target(), call->current_call_target());
  EXPECT_FALSE(other->IsCallTargetCloned());  // never called: never decided
}

TEST(SplittingStrategyTest, TurnsPolymorphicOnZeroSplits) {
  SplittingTestRuntime runtime(TestOptions());
  BoostSplitLimit(runtime);
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, kCloneable);
  ExpectSplitsDirectCalls(runtime, f, {Value::Long(1)}, {Value::Long(0)});
  std::vector<CallTarget*> splits = runtime.split_targets();
  ASSERT_EQ(splits.size(), 2u);
  EXPECT_EQ(splits[0]->name(), absl::StrCat("f <split-", splits[0]->id(), ">"));
  // Uninitialized: fresh counts and specializations.
  auto* node = static_cast<TurnsPolymorphicOnZeroNode*>(
      static_cast<TlRootNode*>(splits[0]->root_node())->body());
  EXPECT_EQ(node->specializer().ActiveNames(), "AnyLong");
  EXPECT_EQ(splits[0]->call_count(), 1);
  EXPECT_FALSE(splits[0]->needs_split());
}

TEST(SplittingStrategyTest, InlineCacheNodeSplits) {
  SplittingTestRuntime runtime(TestOptions());
  BoostSplitLimit(runtime);
  CallTarget* one = DefineFunction(runtime, "one", Const(1));
  CallTarget* two = DefineFunction(runtime, "two", Const(2));
  CallTarget* invoke = DefineFunction(runtime, "invoke", Invoke(Arg(0)), nullptr, kCloneable);
  ExpectSplitsDirectCalls(runtime, invoke, {FunctionValue(one)}, {FunctionValue(two)});
}

TEST(SplittingStrategyTest, ExcludedNodeIsNeitherMarkedNorSplit) {
  SplittingTestRuntime runtime(TestOptions());
  BoostSplitLimit(runtime);
  CallTarget* f = DefineFunction(
      runtime, "f",
      std::make_unique<TurnsPolymorphicOnZeroButSpecializationIsExcludedNode>(Arg(0)), nullptr,
      kCloneable);
  auto call = DirectCallNode::Create(f);
  auto other = DirectCallNode::Create(f);
  for (int v : {1, 1, 0, 0}) call->Call({Value::Long(v)});
  EXPECT_FALSE(f->needs_split());
  EXPECT_FALSE(call->IsCallTargetCloned());
  EXPECT_TRUE(runtime.split_targets().empty());
}

// The marked chain a -> b -> c splits outer to inner: the copy of a has a
// new call node to b, which splits b, whose copy splits c.
TEST(SplittingStrategyTest, PropagatedChainSplitsOuterToInner) {
  SplittingTestRuntime runtime(TestOptions());
  BoostSplitLimit(runtime);
  CallTarget* c = DefineFunction(runtime, "c", Poly(Arg(0)), nullptr, kCloneable);
  CallTarget* b = DefineFunction(runtime, "b", CallDirect(c, Arg(0)), nullptr, kCloneable);
  CallTarget* a = DefineFunction(runtime, "a", CallDirect(b, Arg(0)), nullptr, kCloneable);
  auto x = DirectCallNode::Create(a);
  auto y = DirectCallNode::Create(a);
  x->Call({Value::Long(1)});
  x->Call({Value::Long(1)});
  y->Call({Value::Long(0)});
  ASSERT_TRUE(a->needs_split() && b->needs_split() && c->needs_split());
  EXPECT_TRUE(runtime.split_targets().empty());
  x->Call({Value::Long(1)});
  std::vector<CallTarget*> splits = runtime.split_targets();
  EXPECT_EQ(Sources(splits), (std::vector<CallTarget*>{a, b, c}));
  // Each copy is called from the previous one.
  ASSERT_EQ(splits.size(), 3u);
  EXPECT_EQ(splits[1]->single_call_node()->GetRootNode(), splits[0]->root_node());
  EXPECT_EQ(splits[2]->single_call_node()->GetRootNode(), splits[1]->root_node());
  // The copy of c saw only 1: monomorphic.
  auto* node = static_cast<TurnsPolymorphicOnZeroNode*>(
      static_cast<TlRootNode*>(splits[2]->root_node())->body());
  EXPECT_EQ(node->specializer().ActiveNames(), "NonZero");
  y->Call({Value::Long(0)});
  EXPECT_EQ(runtime.split_targets().size(), 6u);
}

TEST(SplittingStrategyTest, BudgetForOneSplitSplitsOnlyTheFirstCallNode) {
  std::string log = TempPath("budget.log");
  SplittingOptions options;  // growth limit 1.5
  options.trace_splitting = true;
  SplittingTestRuntime runtime(options, log);
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, RootOptions{true, 10});
  EXPECT_EQ(runtime.strategy().split_limit(), 15);
  auto first = DirectCallNode::Create(f);
  auto second = DirectCallNode::Create(f);
  first->Call({Value::Long(1)});
  first->Call({Value::Long(1)});
  second->Call({Value::Long(0)});
  ASSERT_TRUE(f->needs_split());
  first->Call({Value::Long(1)});
  second->Call({Value::Long(1)});
  EXPECT_TRUE(first->IsCallTargetCloned());
  EXPECT_FALSE(second->IsCallTargetCloned());
  EXPECT_TRUE(second->split_decided());  // decided once, never retried
  second->Call({Value::Long(1)});
  EXPECT_FALSE(second->IsCallTargetCloned());
  EXPECT_EQ(runtime.strategy().split_count(), 10);
  std::vector<std::string> failures =
      LinesStartingWith(ReadLines(log), "[engine] split failed ");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].rfind("[engine] split failed Not enough budget. 20 > 15 f ", 0), 0u)
      << failures[0];
}

TEST(SplittingStrategyTest, CalleeSizeLimitMinusOneSplitsPlusOneDoesNot) {
  for (int size : {99, 100, 101}) {
    std::string log = TempPath(absl::StrCat("size", size, ".log"));
    SplittingOptions options = TestOptions();
    options.trace_splitting = true;
    SplittingTestRuntime runtime(options, log);
    BoostSplitLimit(runtime);
    CallTarget* f =
        DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, RootOptions{true, size});
    auto call = DirectCallNode::Create(f);
    auto other = DirectCallNode::Create(f);
    call->Call({Value::Long(1)});
    call->Call({Value::Long(1)});
    other->Call({Value::Long(0)});
    EXPECT_TRUE(f->needs_split()) << size;
    call->Call({Value::Long(1)});
    EXPECT_EQ(call->IsCallTargetCloned(), size <= 100) << size;
    std::vector<std::string> failures =
        LinesStartingWith(ReadLines(log), "[engine] split failed ");
    if (size > 100) {
      ASSERT_EQ(failures.size(), 1u);
      EXPECT_EQ(failures[0].rfind("[engine] split failed Target too big: 101 > 100 f ", 0), 0u)
          << failures[0];
    } else {
      EXPECT_TRUE(failures.empty());
    }
  }
}

TEST(SplittingStrategyTest, SplitNotPossibleWhenTheRootForbidsCloning) {
  std::string log = TempPath("not_possible.log");
  SplittingOptions options = TestOptions();
  options.trace_splitting = true;
  SplittingTestRuntime runtime(options, log);
  BoostSplitLimit(runtime);
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)));
  auto call = DirectCallNode::Create(f);
  auto other = DirectCallNode::Create(f);
  for (int v : {1, 1, 0, 1}) call->Call({Value::Long(v)});
  EXPECT_TRUE(f->needs_split());
  EXPECT_FALSE(call->IsCallTargetCloned());
  EXPECT_FALSE(call->CloneCallTarget());
  std::vector<std::string> lines = ReadLines(log);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("[engine] split failed Split not possible. f ", 0), 0u) << lines[0];
}

TEST(SplittingStrategyTest, ForcedSplitsIgnoreBudgetAndSizeAndCountTwice) {
  std::string log = TempPath("forced.log");
  SplittingOptions options;
  options.growth_limit = 0;  // no budget at all
  options.trace_splitting = true;
  options.trace_summary = true;
  SplittingTestRuntime runtime(options, log);
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, RootOptions{true, 500});
  auto call = DirectCallNode::Create(f);
  EXPECT_EQ(runtime.strategy().split_limit(), 0);
  EXPECT_TRUE(call->CloneCallTarget());
  EXPECT_TRUE(call->IsCallTargetCloned());
  EXPECT_TRUE(call->CloneCallTarget());  // already cloned: nothing new
  EXPECT_EQ(runtime.split_targets().size(), 1u);
  EXPECT_FALSE(f->needs_split());
  // Truffle master: forceSplitting and doSplit both charge the size.
  EXPECT_EQ(runtime.strategy().split_count(), 1000);
  SplitStatistics statistics = runtime.strategy().statistics();
  EXPECT_EQ(statistics.split_count, 1);
  EXPECT_EQ(statistics.forced_split_count, 1);
  EXPECT_EQ(statistics.split_node_count, 500);
  EXPECT_EQ(call->Call({Value::Long(3)}), Value::Long(3));
  EXPECT_EQ(LinesStartingWith(ReadLines(log), "[engine] split ").size(), 1u);
}

TEST(SplittingStrategyTest, ForcedSplitsNeedTheOption) {
  SplittingOptions options = TestOptions();
  options.allow_forced_splits = false;
  SplittingTestRuntime runtime(options);
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, kCloneable);
  auto call = DirectCallNode::Create(f);
  EXPECT_FALSE(call->CloneCallTarget());
  EXPECT_TRUE(runtime.split_targets().empty());
  options.allow_forced_splits = true;
  options.enabled = false;
  SplittingTestRuntime off(options);
  CallTarget* g = DefineFunction(off, "g", Poly(Arg(0)), nullptr, kCloneable);
  auto call2 = DirectCallNode::Create(g);
  EXPECT_FALSE(call2->CloneCallTarget());
}

// r(n, self): c = n; while (0 < c) { self(n - 1, self); c = 0 }; n
TEST(SplittingStrategyTest, RecursionGuardAllowsTwoSplitAncestors) {
  std::string log = TempPath("recursion.log");
  SplittingOptions options = TestOptions();
  options.trace_splitting = true;
  SplittingTestRuntime runtime(options, log);
  BoostSplitLimit(runtime);
  auto descriptor = std::make_unique<FrameDescriptor>();
  int c = descriptor->AddSlot("c");
  CallTarget* r = DefineFunction(
      runtime, "r",
      Block(Write(c, Arg(0)),
            While(LessThan(Const(0), Read(c)),
                  Block(Invoke(Arg(1), Add(Arg(0), Const(-1)), Arg(1)), Write(c, Const(0)))),
            Arg(0)),
      std::move(descriptor), kCloneable);
  r->set_needs_split(true);  // marking is tested elsewhere
  auto main_call = DirectCallNode::Create(r);
  EXPECT_EQ(main_call->Call({Value::Long(10), FunctionValue(r)}), Value::Long(10));
  // main -> r1 -> r2 -> r3 (r3's call is refused: r would be the source of a
  // third split ancestor) -> r -> r4 -> r5 -> r6 (refused) -> r -> r4 ...
  std::vector<CallTarget*> splits = runtime.split_targets();
  EXPECT_EQ(splits.size(), 6u);
  for (CallTarget* split : splits) EXPECT_EQ(split->source_call_target(), r);
  std::vector<std::string> failures = LinesStartingWith(ReadLines(log), "[engine] split failed");
  ASSERT_EQ(failures.size(), 2u);
  for (const std::string& line : failures) {
    EXPECT_EQ(line.rfind("[engine] split failed Recursive split. r ", 0), 0u) << line;
  }
}

// SplittingForceAll: no polymorphism, no budget (growth limit 0) and a callee
// over SplittingMaxCalleeSize, yet every call node splits at its first call,
// as a forced split.
TEST(SplittingStrategyTest, ForceAllSplitsEveryCallNodeAtItsFirstCall) {
  SplittingOptions options;
  options.growth_limit = 0;
  options.force_all = true;
  SplittingTestRuntime runtime(options);
  CallTarget* f = DefineFunction(runtime, "f", Arg(0), nullptr, RootOptions{true, 500});
  EXPECT_TRUE(f->needs_split()) << "force-all marks every source target when it is created";
  auto first = DirectCallNode::Create(f);
  auto second = DirectCallNode::Create(f);
  auto never_called = DirectCallNode::Create(f);
  EXPECT_EQ(first->Call({Value::Long(1)}), Value::Long(1));
  EXPECT_TRUE(first->IsCallTargetCloned());
  EXPECT_EQ(second->Call({Value::Long(2)}), Value::Long(2));
  EXPECT_TRUE(second->IsCallTargetCloned());
  EXPECT_NE(first->current_call_target(), second->current_call_target());
  EXPECT_FALSE(never_called->IsCallTargetCloned());
  for (CallTarget* split : runtime.split_targets()) {
    EXPECT_EQ(split->source_call_target(), f);
    EXPECT_FALSE(split->needs_split()) << "split copies are not marked";
  }
  EXPECT_EQ(runtime.split_targets().size(), 2u);
  first->Call({Value::Long(3)});  // decided once: no new split
  EXPECT_EQ(runtime.split_targets().size(), 2u);
  // Counted like CloneCallTarget(): forced, the size charged twice.
  SplitStatistics statistics = runtime.strategy().statistics();
  EXPECT_EQ(statistics.split_count, 2);
  EXPECT_EQ(statistics.forced_split_count, 2);
  EXPECT_EQ(statistics.split_node_count, 1000);
  EXPECT_EQ(runtime.strategy().split_count(), 2000);
}

// g(x) calls f(x): each call path gets its own copies, outer to inner.
TEST(SplittingStrategyTest, ForceAllGivesEachCallPathItsOwnCopies) {
  SplittingOptions options;
  options.force_all = true;
  SplittingTestRuntime runtime(options);
  CallTarget* f = DefineFunction(runtime, "f", Add(Arg(0), Const(1)), nullptr, kCloneable);
  CallTarget* g = DefineFunction(runtime, "g", std::make_unique<CallDirectNode>(f, List(Arg(0))),
                                 nullptr, kCloneable);
  auto first = DirectCallNode::Create(g);
  auto second = DirectCallNode::Create(g);
  EXPECT_EQ(first->Call({Value::Long(1)}), Value::Long(2));
  EXPECT_EQ(second->Call({Value::Long(5)}), Value::Long(6));
  std::vector<CallTarget*> splits = runtime.split_targets();
  EXPECT_EQ(Sources(splits), (std::vector<CallTarget*>{g, f, g, f}));
  EXPECT_EQ(splits[0]->call_count(), 1);
  EXPECT_EQ(splits[1]->call_count(), 1);
  EXPECT_EQ(g->call_count(), 0) << "the source g never runs";
  EXPECT_EQ(f->call_count(), 0) << "the source f never runs";
}

// The recursion guard still refuses (RecursionGuardAllowsTwoSplitAncestors,
// without marking by hand and without budget).
TEST(SplittingStrategyTest, ForceAllKeepsTheRecursionGuard) {
  std::string log = TempPath("force_all_recursion.log");
  SplittingOptions options;
  options.growth_limit = 0;
  options.force_all = true;
  options.trace_splitting = true;
  SplittingTestRuntime runtime(options, log);
  auto descriptor = std::make_unique<FrameDescriptor>();
  int c = descriptor->AddSlot("c");
  CallTarget* r = DefineFunction(
      runtime, "r",
      Block(Write(c, Arg(0)),
            While(LessThan(Const(0), Read(c)),
                  Block(Invoke(Arg(1), Add(Arg(0), Const(-1)), Arg(1)), Write(c, Const(0)))),
            Arg(0)),
      std::move(descriptor), kCloneable);
  auto main_call = DirectCallNode::Create(r);
  EXPECT_EQ(main_call->Call({Value::Long(10), FunctionValue(r)}), Value::Long(10));
  std::vector<CallTarget*> splits = runtime.split_targets();
  EXPECT_EQ(splits.size(), 6u);
  for (CallTarget* split : splits) EXPECT_EQ(split->source_call_target(), r);
  std::vector<std::string> failures = LinesStartingWith(ReadLines(log), "[engine] split failed");
  ASSERT_EQ(failures.size(), 2u);
  for (const std::string& line : failures) {
    EXPECT_EQ(line.rfind("[engine] split failed Recursive split. r ", 0), 0u) << line;
  }
  EXPECT_EQ(runtime.strategy().statistics().forced_split_count, 6);
}

// SplittingForceAll with SplittingAllowForcedSplits=false is no forced split:
// the engine resolves it to force_all = false (splitting_config_test).
TEST(SplittingStrategyTest, ForceAllNeedsSplitting) {
  SplittingOptions options;
  options.force_all = true;
  options.enabled = false;  // Splitting=false or Mode=latency
  SplittingTestRuntime runtime(options);
  CallTarget* f = DefineFunction(runtime, "f", Arg(0), nullptr, kCloneable);
  auto call = DirectCallNode::Create(f);
  call->Call({Value::Long(1)});
  call->Call({Value::Long(1)});
  EXPECT_FALSE(f->needs_split());
  EXPECT_FALSE(call->IsCallTargetCloned());
  EXPECT_TRUE(runtime.split_targets().empty());
}

TEST(SplittingStrategyTest, SplitNotifiesTheCallersCallTarget) {
  SplittingTestRuntime runtime(TestOptions());
  BoostSplitLimit(runtime);
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, kCloneable);
  auto call_expression = std::make_unique<CallDirectNode>(f, List(Arg(0)));
  DirectCallNode* call = call_expression->call_node();
  CallTarget* caller = DefineFunction(runtime, "caller", std::move(call_expression));
  auto other = DirectCallNode::Create(f);
  caller->Call({Value::Long(1)});
  caller->Call({Value::Long(1)});
  other->Call({Value::Long(0)});
  EXPECT_TRUE(runtime.notifications().empty());
  caller->Call({Value::Long(1)});
  ASSERT_TRUE(call->IsCallTargetCloned());
  std::vector<SplittingTestRuntime::Notification> notifications = runtime.notifications();
  ASSERT_EQ(notifications.size(), 1u);
  EXPECT_EQ(notifications[0].caller, caller);
  EXPECT_EQ(notifications[0].node, call);
  EXPECT_EQ(notifications[0].reason, "Split call node");
  // The split copy's single caller is the call node; the source lost it.
  EXPECT_EQ(call->current_call_target()->single_call_node(), call);
  EXPECT_EQ(f->call_sites_known(), 1);
}

TEST(SplittingStrategyTest, TraceSplittingLinesAreExact) {
  std::string log = TempPath("trace.log");
  SplittingOptions options = TestOptions();
  options.trace_splitting = true;
  SplittingTestRuntime runtime(options, log);
  BoostSplitLimit(runtime);
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, kCloneable);
  auto source = std::make_shared<Source>("t.tl", "caller(x)\n  f(x)\n");
  CallTarget* caller = runtime.CreateCallTarget(std::make_unique<TlRootNode>(
      "caller", CallDirect(f, Arg(0)), nullptr, RootOptions{},
      SourceSection{source, 1, 1, 0, 16}));
  auto other = DirectCallNode::Create(f);
  caller->Call({Value::Long(1)});
  caller->Call({Value::Long(1)});
  other->Call({Value::Long(0)});
  caller->Call({Value::Long(1)});
  other->Call({Value::Long(1)});
  std::vector<CallTarget*> splits = runtime.split_targets();
  ASSERT_EQ(splits.size(), 2u);
  std::string pad(59, ' ');  // "f" in a 60 column
  std::vector<std::string> expected = {
      absl::StrCat("[engine] split   0-", splits[0]->id(), "  f", pad,
                   "|AST    3 |Tier 1 |Calls/Thres       3/    1 "
                   "|CallsAndLoop/Thres       3/  400 |SourceSection t.tl~1-2:0-15 "),
      absl::StrCat("[engine] split   1-", splits[1]->id(), "  f", pad,
                   "|AST    3 |Tier 1 |Calls/Thres       3/    1 "
                   "|CallsAndLoop/Thres       3/  400 |SourceSection   "),
  };
  EXPECT_EQ(ReadLines(log), expected);
}

TEST(SplittingStrategyTest, SummaryWithWastePrintedAtClose) {
  std::string log = TempPath("summary.log");
  {
    SplittingOptions options;
    options.trace_summary = true;
    SplittingTestRuntime runtime(options, log);
    BoostSplitLimit(runtime);  // 10 x 150
    CallTarget* b = DefineFunction(runtime, "b", Poly(Arg(0)), nullptr, kCloneable);
    CallTarget* a = DefineFunction(runtime, "a", CallDirect(b, Arg(0)), nullptr, kCloneable);
    auto x = DirectCallNode::Create(a);
    auto z = DirectCallNode::Create(b);
    x->Call({Value::Long(1)});
    x->Call({Value::Long(1)});
    z->Call({Value::Long(0)});  // b: two callers -> marked
    x->Call({Value::Long(1)});  // a's call node splits b
    ASSERT_EQ(runtime.split_targets().size(), 1u);
    EXPECT_TRUE(x->CloneCallTarget());  // splitting a wastes the copy of b
    SplitStatistics statistics = runtime.strategy().statistics();
    EXPECT_EQ(statistics.wasted_target_count, 1);
    EXPECT_EQ(statistics.wasted_node_count, 3);
    EXPECT_EQ(statistics.split_count, 2);
    EXPECT_TRUE(ReadFile(log).empty());
  }  // Close
  std::vector<std::string> lines = ReadLines(log);
  ASSERT_EQ(lines.size(), 17u) << ReadFile(log);
  EXPECT_EQ(lines[0], "[engine] Splitting Statistics");
  auto row = [](const std::string& label, int value) {
    return label + std::string(label.size() < 82 ? 82 - label.size() : 0, ' ') + ": " +
           absl::StrFormat("%10d", value);
  };
  // Budget: 10 dummies x 150 + b (3 nodes: 4) + a (4 nodes: 6); splits: b
  // (3), then a forced (4 + 4).
  EXPECT_EQ(lines[1], row("Split count (sum of uninitializedNodeCount for all split targets)", 11));
  EXPECT_EQ(lines[2],
            row("Split limit (limit for the number of nodes to create through splitting)", 1510));
  EXPECT_EQ(lines[3], row("Splits (number of targets created through splitting)", 2));
  EXPECT_EQ(lines[8], row("Split nodes wasted (callee split nodes wasted due to splitting the "
                          "caller later)",
                          3));
  EXPECT_EQ(lines[10], row("Targets wasted due to splitting", 1));
  EXPECT_EQ(lines[11], row("Total nodes executed", 0));  // all called before the mark
  EXPECT_EQ(lines[12], "--- SPLIT TARGETS");
  EXPECT_EQ(lines[13], row("a", 1));
  EXPECT_EQ(lines[14], row("b", 1));
  EXPECT_EQ(lines[15], "--- NODES");
  EXPECT_EQ(lines[16], "class TurnsPolymorphicOnZeroNode" + std::string(120 - 32, ' ') +
                           ":          1");
}

}  // namespace
}  // namespace morel::splitting
