// The call tree (truffle_reference §2.1-2.3, §2.7): construction, the six
// states, per-node values, counters, dequeue targets, TraceInlining lines and
// the Graphviz dump.

#include "inliner/call_tree.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "inliner/default_policy.h"
#include "inliner/fake_program.h"
#include "inliner/inlining_policy.h"
#include "inliner/no_inlining_policy.h"

namespace morel::inliner {
namespace {

using testing::Call;
using testing::FakeProgram;
using testing::ForcedCall;
using testing::IndirectCall;
using testing::NodeAt;
using testing::Shape;

TEST(CallTreeTest, RootIsInlinedWithCutoffChildrenForItsDirectCalls) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f"), IndirectCall(), Call("g")}});
  program.Define("f", {.ir_nodes = 10});
  program.Define("g", {.ir_nodes = 20});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);

  // Like CallNode.makeRoot, the root gets no Indirect children.
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(f:Cutoff g:Cutoff)");
  EXPECT_TRUE(tree->root().is_root());
  EXPECT_EQ(tree->root().id(), 0);
  EXPECT_EQ(NodeAt(tree->root(), {0}).id(), 1);
  EXPECT_EQ(NodeAt(tree->root(), {1}).id(), 2);
  EXPECT_EQ(tree->root().ir_nodes(), 100);
  EXPECT_EQ(NodeAt(tree->root(), {0}).ir_nodes(), 0);
  EXPECT_EQ(tree->expanded_count(), 1);
  EXPECT_EQ(tree->inlined_count(), 1);
  EXPECT_EQ(tree->InlinedN(), 2);  // the frontier: the root's children
  EXPECT_TRUE(program.expanded().empty());
}

TEST(CallTreeTest, ExpandAddsDirectChildrenThenIndirectOnes) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f")}});
  program.Define("f", {.ir_nodes = 10, .calls = {IndirectCall(), Call("g"), Call("h")}});
  program.Define("g", {.ir_nodes = 20});
  program.Define("h", {.ir_nodes = 30});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);
  CallNode& f = *tree->root().children()[0];
  tree->Expand(f);

  EXPECT_EQ(Shape(tree->root()),
            "main:Inlined(f:Expanded(g:Cutoff h:Cutoff <indirect>:Indirect))");
  EXPECT_EQ(f.ir_nodes(), 10);
  EXPECT_EQ(NodeAt(f, {0}).id(), 2);
  EXPECT_EQ(NodeAt(f, {1}).id(), 3);
  EXPECT_EQ(NodeAt(f, {2}).id(), 4);
  EXPECT_EQ(NodeAt(f, {2}).frequency(), 0);
  EXPECT_EQ(NodeAt(f, {1}).depth(), 2);
  EXPECT_EQ(tree->expanded_count(), 2);
  EXPECT_EQ(program.expanded(), std::vector<std::string>{"f"});
}

TEST(CallTreeTest, BailoutIsCountedAndKeepsItsReason) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f")}});
  program.Define("f", {.ir_nodes = 10, .calls = {Call("f")}, .bailout = "too deep"});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);
  CallNode& f = *tree->root().children()[0];
  tree->Expand(f);

  EXPECT_EQ(f.state(), CallNodeState::kBailedOut);
  EXPECT_EQ(f.bailout_reason(), "too deep");
  EXPECT_TRUE(f.children().empty());
  EXPECT_EQ(f.ir_nodes(), 0);
  EXPECT_EQ(tree->expanded_count(), 2);
}

TEST(CallTreeTest, FrequencyIsRelativeToTheRoot) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 1, .calls = {Call("f", 5), Call("g", 0)}, .call_count = 10});
  program.Define("f", {.ir_nodes = 1, .calls = {Call("h", 40)}, .call_count = 20});
  program.Define("g", {.ir_nodes = 1, .calls = {Call("h", 3)}, .call_count = 0});
  program.Define("h", {.ir_nodes = 1});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);
  tree->Expand(*tree->root().children()[0]);
  tree->Expand(*tree->root().children()[1]);

  EXPECT_DOUBLE_EQ(tree->root().frequency(), 1.0);
  EXPECT_DOUBLE_EQ(NodeAt(tree->root(), {0}).frequency(), 0.5);       // 5 / 10
  EXPECT_DOUBLE_EQ(NodeAt(tree->root(), {0, 0}).frequency(), 1.0);    // 0.5 * 40 / 20
  EXPECT_DOUBLE_EQ(NodeAt(tree->root(), {1}).frequency(), 0.1);       // max(1, 0) / 10
  EXPECT_DOUBLE_EQ(NodeAt(tree->root(), {1, 0}).frequency(), 0.3);    // 0.1 * 3 / max(1, 0)
}

TEST(CallTreeTest, RecursionDepthCountsAncestorsOfTheSameFamily) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 1, .calls = {Call("f")}});
  program.Define("f", {.ir_nodes = 1, .calls = {Call("f_split"), Call("g")}});
  program.Define("f_split", {.ir_nodes = 1, .calls = {Call("f")}, .family = "f"});
  program.Define("g", {.ir_nodes = 1, .calls = {Call("main")}});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);
  CallNode& f = *tree->root().children()[0];
  tree->Expand(f);
  CallNode& split = *f.children()[0];
  tree->Expand(split);
  CallNode& g = *f.children()[1];
  tree->Expand(g);

  EXPECT_EQ(tree->root().recursion_depth(), 0);
  EXPECT_EQ(f.recursion_depth(), 0);
  EXPECT_EQ(split.recursion_depth(), 1);                   // f
  EXPECT_EQ(NodeAt(split, {0}).recursion_depth(), 2);     // f, f_split
  EXPECT_EQ(g.recursion_depth(), 0);
  EXPECT_EQ(NodeAt(g, {0}).recursion_depth(), 1);         // main
  EXPECT_EQ(NodeAt(split, {0}).depth(), 3);
}

TEST(CallTreeTest, WithoutAPolicyTrivialCalleesAreExpandedEagerly) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("t"), Call("f")}});
  program.Define("t", {.ir_nodes = 5, .calls = {Call("u"), Call("f")}, .trivial = true});
  program.Define("u", {.ir_nodes = 3, .trivial = true});
  program.Define("f", {.ir_nodes = 10});
  auto tree = program.Tree("main");

  // The trivial callee and its own trivial callee are expanded at
  // construction; a non-trivial call below stays Cutoff.
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(t:Expanded(u:Expanded f:Cutoff) f:Cutoff)");
  EXPECT_EQ(program.expanded(), (std::vector<std::string>{"t", "u"}));
  EXPECT_EQ(tree->expanded_count(), 3);
  EXPECT_TRUE(tree->root().children()[0]->trivial());
}

TEST(CallTreeTest, TrivialFailedClearsTheTrivialFlag) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("t")}});
  program.Define("t", {.ir_nodes = 5, .trivial = true, .trivial_failed = true});
  auto tree = program.Tree("main");
  const CallNode& t = *tree->root().children()[0];
  EXPECT_EQ(t.state(), CallNodeState::kExpanded);
  EXPECT_FALSE(t.trivial());
}

TEST(CallTreeTest, InlineCountsAndGrowsTheFrontier) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f"), Call("g"), Call("h")}});
  program.Define("f", {.ir_nodes = 10, .calls = {Call("g"), Call("h"), IndirectCall()}});
  program.Define("g", {.ir_nodes = 20});
  program.Define("h", {.ir_nodes = 30});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);
  EXPECT_EQ(tree->InlinedY(), 0);
  EXPECT_EQ(tree->InlinedN(), 3);

  CallNode& f = *tree->root().children()[0];
  tree->Expand(f);
  tree->Inline(f);  // 3 children replace one call
  EXPECT_EQ(tree->inlined_count(), 2);
  EXPECT_EQ(tree->InlinedY(), 1);
  EXPECT_EQ(tree->InlinedN(), 5);

  CallNode& g = *tree->root().children()[1];
  tree->Expand(g);
  tree->Inline(g);  // a leaf: one call less
  EXPECT_EQ(tree->InlinedY(), 2);
  EXPECT_EQ(tree->InlinedN(), 4);
  EXPECT_EQ(tree->InlinedIrNodes(), 130);
  EXPECT_EQ(tree->CurrentRootSize(), 130);
}

TEST(CallTreeTest, AllSixStatesAreReachable) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("a"), Call("b"), Call("c"), Call("d")}});
  program.Define("a", {.ir_nodes = 10, .calls = {IndirectCall()}});
  program.Define("b", {.ir_nodes = 10, .bailout = "no"});
  program.Define("c", {.ir_nodes = 10});
  program.Define("d", {.ir_nodes = 10});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);
  CallNode& a = *tree->root().children()[0];
  tree->Expand(a);
  tree->Inline(a);
  tree->Expand(*tree->root().children()[1]);
  tree->Expand(*tree->root().children()[2]);
  tree->Remove(*tree->root().children()[3]);

  EXPECT_EQ(Shape(tree->root()),
            "main:Inlined(a:Inlined(<indirect>:Indirect) b:BailedOut c:Expanded d:Removed)");
  EXPECT_EQ(StateName(CallNodeState::kCutoff), "Cutoff");
  EXPECT_EQ(StateName(CallNodeState::kExpanded), "Expanded");
  EXPECT_EQ(StateName(CallNodeState::kInlined), "Inlined");
  EXPECT_EQ(StateName(CallNodeState::kRemoved), "Removed");
  EXPECT_EQ(StateName(CallNodeState::kIndirect), "Indirect");
  EXPECT_EQ(StateName(CallNodeState::kBailedOut), "BailedOut");
}

TEST(CallTreeTest, FindChildByCallSite) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f"), Call("f")}});
  program.Define("f", {.ir_nodes = 10, .calls = {IndirectCall()}});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);

  EXPECT_EQ(tree->root().FindChild(program.call_site("main", 0)), tree->root().children()[0].get());
  EXPECT_EQ(tree->root().FindChild(program.call_site("main", 1)), tree->root().children()[1].get());
  EXPECT_EQ(tree->root().FindChild(program.call_site("f", 0)), nullptr);
  EXPECT_EQ(tree->root().FindChild(nullptr), nullptr);
}

TEST(CallTreeTest, TargetsToDequeueAreInlinedSingleCallSiteTargetsButTheRoot) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100,
                          .calls = {Call("one"), Call("two"), Call("cutoff"), Call("main")},
                          .known_call_site_count = 1});
  program.Define("one", {.ir_nodes = 10, .calls = {Call("deep"), Call("one")},
                         .known_call_site_count = 1});
  program.Define("two", {.ir_nodes = 10, .known_call_site_count = 2});
  program.Define("deep", {.ir_nodes = 10, .known_call_site_count = 1});
  program.Define("cutoff", {.ir_nodes = 10, .known_call_site_count = 1});
  NoInliningPolicy none({});
  auto tree = program.Tree("main", &none);
  CallNode& root = tree->root();
  for (int i : {0, 1, 3}) {
    tree->Expand(*root.children()[i]);
    tree->Inline(*root.children()[i]);
  }
  CallNode& one = *root.children()[0];
  tree->Expand(*one.children()[0]);
  tree->Inline(*one.children()[0]);
  tree->Expand(*one.children()[1]);
  tree->Inline(*one.children()[1]);

  // Not "two" (2 call sites), "cutoff" (not inlined) or "main" (the root,
  // although inlined into itself); "one" once although inlined twice.
  EXPECT_EQ(tree->TargetsToDequeue(),
            (std::vector<const void*>{program.target("one"), program.target("deep")}));
  EXPECT_EQ(tree->InlinedTargets(),
            (std::vector<const void*>{program.target("main"), program.target("one"),
                                      program.target("deep"), program.target("two")}));
}

// The tree behind the golden trace lines: every state, a forced call, an
// Expanded node the Default policy does not inline (callDiff > 0).
class TraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program_.Define("main", {.ir_nodes = 100,
                             .calls = {Call("a", 10), Call("b", 5), ForcedCall("c", 2),
                                       Call("d", 1)},
                             .call_count = 10});
    program_.Define("a", {.ir_nodes = 50, .calls = {Call("leaf", 5), IndirectCall()},
                          .call_count = 10});
    program_.Define("leaf", {.ir_nodes = 10});
    program_.Define("b", {.ir_nodes = 30, .call_count = 5, .trivial = true});
    program_.Define("c", {.bailout = "PE failed"});
    program_.Define("d", {.ir_nodes = 40, .calls = {Call("e", 100)}, .call_count = 1});
    program_.Define("e", {.ir_nodes = 10});
  }

  std::unique_ptr<CallTree> Run(InliningPolicy& policy) {
    auto tree = program_.Tree("main", &policy);
    RunInliningPhase(*tree, policy, options_);
    // The final partial evaluation found no call left to "leaf".
    tree->Remove(*tree->root().children()[0]->children()[0]);
    return tree;
  }

  FakeProgram program_;
  InliningOptions options_{.max_depth = 1};
};

TEST_F(TraceTest, GoldenLinesWithoutDetails) {
  DefaultInliningPolicy policy(options_);
  auto tree = Run(policy);
  ASSERT_EQ(Shape(tree->root()),
            "main:Inlined(a:Inlined(leaf:Removed <indirect>:Indirect) b:Inlined c:BailedOut "
            "d:Expanded(e:Cutoff))");
  EXPECT_EQ(tree->expanded_count(), 5);
  EXPECT_EQ(tree->inlined_count(), 3);

  std::vector<std::string> expected = {
      "Inline start main                                                        |call diff     0.00|Recursion Depth      0|Explore/inline ratio     1.67|IR Nodes    100|Frequency     1.00|Truffle Callees      4|Forced false|Depth      0",
      "Inlined        a                                                         |call diff    -0.50|Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes     50|Frequency     1.00|Truffle Callees      1|Forced false|Depth      1",
      "Removed          leaf                                                    |call diff     0.50|Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes      0|Frequency     0.50|Truffle Callees      0|Forced false|Depth      2",
      "Indirect         <indirect>                                              ",
      "Inlined        b                                                         |call diff    -0.50|Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes     30|Frequency     0.50|Truffle Callees      0|Forced false|Depth      1",
      "BailedOut      c                                                         |call diff     0.00|Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes      0|Frequency     0.20|Truffle Callees      0|Forced true|Depth      1",
      "Expanded       d                                                         |call diff     0.10|Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes     40|Frequency     0.10|Truffle Callees      1|Forced false|Depth      1",
      "Inline done  main                                                        |call diff     0.00|Recursion Depth      0|Explore/inline ratio     1.67|IR Nodes    100|Frequency     1.00|Truffle Callees      4|Forced false|Depth      0",
  };
  EXPECT_EQ(tree->Trace(/*details=*/false), expected);
}

TEST_F(TraceTest, GoldenLinesWithDetailsDescendIntoEveryNode) {
  DefaultInliningPolicy policy(options_);
  auto tree = Run(policy);
  std::vector<std::string> lines = tree->Trace(/*details=*/true);
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[6],
            "Expanded       d                                                         |call diff     0.10|Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes     40|Frequency     0.10|Truffle Callees      1|Forced false|Depth      1");
  EXPECT_EQ(lines[7],
            "Cutoff           e                                                       |call diff    10.00|Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes      0|Frequency    10.00|Truffle Callees      0|Forced false|Depth      2");
  EXPECT_TRUE(absl::StartsWith(lines[8], "Inline done  main "));
}

TEST_F(TraceTest, OnlyTheDefaultPolicyTracesCallDiff) {
  NoInliningPolicy policy(options_);
  auto tree = program_.Tree("main", &policy);
  std::vector<std::string> lines = tree->Trace(/*details=*/true);
  std::vector<std::string> expected = {
      "Inline start main                                                        |Recursion Depth      0|Explore/inline ratio     1.00|IR Nodes    100|Frequency     1.00|Truffle Callees      4|Forced false|Depth      0",
      "Cutoff         a                                                         |Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes      0|Frequency     1.00|Truffle Callees      1|Forced false|Depth      1",
      "Cutoff         b                                                         |Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes      0|Frequency     0.50|Truffle Callees      0|Forced false|Depth      1",
      "Cutoff         c                                                         |Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes      0|Frequency     0.20|Truffle Callees      0|Forced true|Depth      1",
      "Cutoff         d                                                         |Recursion Depth      0|Explore/inline ratio      NaN|IR Nodes      0|Frequency     0.10|Truffle Callees      1|Forced false|Depth      1",
      "Inline done  main                                                        |Recursion Depth      0|Explore/inline ratio     1.00|IR Nodes    100|Frequency     1.00|Truffle Callees      4|Forced false|Depth      0",
  };
  EXPECT_EQ(lines, expected);
}

TEST_F(TraceTest, GraphvizHasEveryNodeAndEdge) {
  DefaultInliningPolicy policy(options_);
  auto tree = Run(policy);
  std::string dot = tree->ToGraphviz("After Inline");
  EXPECT_TRUE(absl::StartsWith(dot, "digraph \"After Inline\" {\n")) << dot;
  EXPECT_TRUE(absl::EndsWith(dot, "}\n")) << dot;
  for (absl::string_view label :
       {"main\\nInlined\\nIR nodes 100\\nfrequency 1.00", "a\\nInlined\\nIR nodes 50",
        "leaf\\nRemoved", "<indirect>\\nIndirect", "b\\nInlined\\nIR nodes 30",
        "c\\nBailedOut", "d\\nExpanded\\nIR nodes 40\\nfrequency 0.10",
        "e\\nCutoff\\nIR nodes 0\\nfrequency 10.00"}) {
    EXPECT_TRUE(absl::StrContains(dot, label)) << label << "\n" << dot;
  }
  for (int id = 1; id <= 7; ++id) {
    EXPECT_TRUE(absl::StrContains(dot, absl::StrCat(" -> n", id, ";"))) << id << "\n" << dot;
  }
  EXPECT_TRUE(absl::StrContains(dot, "fillcolor=salmon")) << dot;
}

}  // namespace
}  // namespace morel::inliner
