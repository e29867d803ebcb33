// The Default policy (truffle_reference §2.4): queue order, the expansion
// budget, recursion and depth limits, eager trivial expansion, callDiff, the
// inlining budget and trivial inlining.

#include "inliner/default_policy.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "inliner/fake_program.h"
#include "inliner/inlining_policy.h"

namespace morel::inliner {
namespace {

using testing::Call;
using testing::FakeProgram;
using testing::FakeTarget;
using testing::ForcedCall;
using testing::IndirectCall;
using testing::NodeAt;
using testing::Shape;

// Runs the Default policy on a tree rooted at "main".
std::unique_ptr<CallTree> RunDefault(FakeProgram& program, const InliningOptions& options) {
  DefaultInliningPolicy policy(options);
  auto tree = program.Tree("main", &policy);
  policy.Run(*tree);
  tree->set_policy(nullptr);  // `policy` dies here
  return tree;
}

TEST(DefaultPolicyTest, ExpandsNonTrivialFirstThenByFrequencyThenById) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 10,
                          .calls = {Call("low", 1), Call("high", 8), Call("t", 9), Call("tie", 8)},
                          .call_count = 10});
  program.Define("low", {.ir_nodes = 1});
  program.Define("high", {.ir_nodes = 1, .calls = {Call("hot", 100)}, .call_count = 1});
  program.Define("hot", {.ir_nodes = 1});
  program.Define("tie", {.ir_nodes = 1});
  program.Define("t", {.ir_nodes = 1, .trivial = true});
  auto tree = RunDefault(program, {});

  // t first: eagerly, at construction. Then high (0.8, id 2) before tie
  // (0.8, id 4); hot (80.0), queued when high expands, before tie and low.
  EXPECT_EQ(program.expanded(), (std::vector<std::string>{"t", "high", "hot", "tie", "low"}));
}

TEST(DefaultPolicyTest, ExpansionStopsOnceTheBudgetIsReached) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100,
                          .calls = {Call("a", 4), Call("b", 3), Call("c", 2), Call("d", 1)},
                          .call_count = 4});
  program.Define("a", {.ir_nodes = 100});
  program.Define("b", {.ir_nodes = 120});
  program.Define("c", {.ir_nodes = 200});
  program.Define("d", {.ir_nodes = 1});
  // 100 < 350: a (200); 200 < 350: b (320); 320 < 350: c (520); stop.
  auto tree = RunDefault(program, {.expansion_budget = 350});
  EXPECT_EQ(program.expanded(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(NodeAt(tree->root(), {3}).state(), CallNodeState::kCutoff);

  // At exactly the budget nothing more is expanded.
  FakeProgram exact;
  exact.Define("main", {.ir_nodes = 100, .calls = {Call("a", 2), Call("b", 1)}, .call_count = 2});
  exact.Define("a", {.ir_nodes = 250});
  exact.Define("b", {.ir_nodes = 1});
  RunDefault(exact, {.expansion_budget = 350});
  EXPECT_EQ(exact.expanded(), std::vector<std::string>{"a"});

  // A root over the budget expands nothing.
  FakeProgram big;
  big.Define("main", {.ir_nodes = 400, .calls = {Call("a")}});
  big.Define("a", {.ir_nodes = 1});
  RunDefault(big, {.expansion_budget = 350});
  EXPECT_TRUE(big.expanded().empty());
}

TEST(DefaultPolicyTest, BailedOutExpansionsAddNothingToTheBudget) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("a", 2), Call("b", 1)}, .call_count = 2});
  program.Define("a", {.ir_nodes = 1000, .bailout = "PE failed"});
  program.Define("b", {.ir_nodes = 10});
  auto tree = RunDefault(program, {.expansion_budget = 200});
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(a:BailedOut b:Inlined)");
}

TEST(DefaultPolicyTest, RecursiveTargetExpandsUpToTheRecursionDepth) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 10, .calls = {Call("f")}});
  program.Define("f", {.ir_nodes = 10, .calls = {Call("f")}});
  auto tree = RunDefault(program, {});
  // f at recursion depths 0, 1, 2 expand; the call at depth 3 stays Cutoff.
  EXPECT_EQ(program.expanded(), (std::vector<std::string>{"f", "f", "f"}));
  const CallNode& cutoff = NodeAt(tree->root(), {0, 0, 0, 0});
  EXPECT_EQ(cutoff.state(), CallNodeState::kCutoff);
  EXPECT_EQ(cutoff.recursion_depth(), 3);

  FakeProgram none;
  none.Define("main", {.ir_nodes = 10, .calls = {Call("f")}});
  none.Define("f", {.ir_nodes = 10, .calls = {Call("f")}});
  RunDefault(none, {.recursion_depth = 0});
  EXPECT_EQ(none.expanded(), std::vector<std::string>{"f"});

  // A target calling its compilation root: the root counts as an ancestor.
  FakeProgram self;
  self.Define("main", {.ir_nodes = 10, .calls = {Call("main")}});
  RunDefault(self, {.recursion_depth = 1});
  EXPECT_EQ(self.expanded(), std::vector<std::string>{"main"});
}

// main -> t1 -> t2 -> ... -> t20: t<i> at depth i.
void DefineChain(FakeProgram& program) {
  program.Define("main", {.ir_nodes = 1, .calls = {Call("t1")}});
  for (int i = 1; i <= 20; ++i) {
    FakeTarget target{.ir_nodes = 1};
    if (i < 20) target.calls = {Call(absl::StrCat("t", i + 1))};
    program.Define(absl::StrCat("t", i), target);
  }
}

TEST(DefaultPolicyTest, ExpandsNoDeeperThanMaxDepth) {
  FakeProgram program;
  DefineChain(program);
  auto tree = RunDefault(program, {});
  ASSERT_EQ(program.expanded().size(), 15u);  // depths 1 .. MAX_DEPTH (15)
  EXPECT_EQ(program.expanded().back(), "t15");
  const CallNode& t15 = NodeAt(tree->root(), {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(t15.depth(), 15);
  EXPECT_EQ(t15.state(), CallNodeState::kInlined);
  EXPECT_EQ(NodeAt(t15, {0}).state(), CallNodeState::kCutoff);

  FakeProgram shallow;
  DefineChain(shallow);
  RunDefault(shallow, {.max_depth = 3});
  EXPECT_EQ(shallow.expanded(), (std::vector<std::string>{"t1", "t2", "t3"}));
}

TEST(DefaultPolicyTest, TrivialCalleesExpandEagerlyWithoutBudgetButAreNotQueued) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("t"), Call("f")}});
  program.Define("t", {.ir_nodes = 5000, .calls = {Call("u"), Call("g")}, .trivial = true});
  program.Define("u", {.ir_nodes = 5000, .trivial = true});
  program.Define("g", {.ir_nodes = 1});
  program.Define("f", {.ir_nodes = 1, .calls = {Call("t")}});
  auto tree = RunDefault(program, {.expansion_budget = 102, .inlining_budget = 0});

  // The 10000 trivial nodes do not count against the expansion budget; g,
  // below a trivial node, is never queued; the trivial t under f is expanded
  // when f is, with its own trivial u.
  EXPECT_EQ(program.expanded(), (std::vector<std::string>{"t", "u", "f", "t", "u"}));
  // Inlining budget 0: the non-trivial f is over it, and inlining stops
  // before the trivial t is polled.
  EXPECT_EQ(Shape(tree->root()),
            "main:Inlined(t:Expanded(u:Expanded g:Cutoff) f:Expanded(t:Expanded(u:Expanded g:Cutoff)))");
}

TEST(DefaultPolicyTest, TrivialCalleesAreInlinedWithoutBudgetChildrenStayExpanded) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("t"), Call("s")}});
  program.Define("t", {.ir_nodes = 5000, .calls = {Call("u")}, .trivial = true});
  program.Define("u", {.ir_nodes = 5000, .trivial = true});
  program.Define("s", {.ir_nodes = 5000, .trivial = true});
  auto tree = RunDefault(program, {.inlining_budget = 0});
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(t:Inlined(u:Expanded) s:Inlined)");
}

TEST(DefaultPolicyTest, CallDiffValues) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 10,
                          .calls = {Call("a", 10), Call("hot", 5), Call("rec", 2), Call("main", 1)},
                          .call_count = 10});
  // a (freq 1): two Cutoff children (0.5 + 0.2), an indirect one and a
  // trivial one that bails out when expanded eagerly (frequency 10).
  program.Define("a", {.ir_nodes = 10,
                       .calls = {Call("x", 5), Call("y", 2), IndirectCall(), Call("bad", 100)},
                       .call_count = 10});
  // hot (freq 0.5): a child called 4x per call -> positive, reset to +0.5.
  program.Define("hot", {.ir_nodes = 10, .calls = {Call("x", 4)}, .call_count = 1});
  // rec (freq 0.2): calls itself; that child is Cutoff at recursion depth 1.
  program.Define("rec", {.ir_nodes = 10, .calls = {Call("rec", 1), Call("y", 1)}, .call_count = 1});
  program.Define("x", {.ir_nodes = 10, .calls = {Call("y")}});
  program.Define("y", {.ir_nodes = 10});
  program.Define("bad", {.trivial = true, .bailout = "no"});
  auto tree = RunDefault(program, {.recursion_depth = 0, .max_depth = 1});
  const CallNode& root = tree->root();

  const CallNode& a = NodeAt(root, {0});
  EXPECT_DOUBLE_EQ(NodeAt(a, {0}).call_diff(), 0.5);     // Cutoff x
  EXPECT_DOUBLE_EQ(NodeAt(a, {1}).call_diff(), 0.2);     // Cutoff y
  EXPECT_EQ(NodeAt(a, {2}).state(), CallNodeState::kBailedOut);
  EXPECT_DOUBLE_EQ(NodeAt(a, {2}).call_diff(), 0);
  EXPECT_EQ(NodeAt(a, {3}).state(), CallNodeState::kIndirect);
  EXPECT_DOUBLE_EQ(a.call_diff(), -1 + 0.5 + 0.2);
  EXPECT_EQ(a.state(), CallNodeState::kInlined);

  const CallNode& hot = NodeAt(root, {1});
  EXPECT_DOUBLE_EQ(NodeAt(hot, {0}).call_diff(), 2.0);
  EXPECT_DOUBLE_EQ(hot.call_diff(), 0.5);  // -0.5 + 2.0 > 0: reset to +freq
  EXPECT_EQ(hot.state(), CallNodeState::kExpanded);

  const CallNode& rec = NodeAt(root, {2});
  EXPECT_EQ(NodeAt(rec, {0}).recursion_depth(), 1);
  EXPECT_DOUBLE_EQ(NodeAt(rec, {0}).call_diff(), 0);     // Cutoff, recursive
  EXPECT_DOUBLE_EQ(NodeAt(rec, {1}).call_diff(), 0.2);
  EXPECT_DOUBLE_EQ(rec.call_diff(), 0);                  // -0.2 + 0 + 0.2
  EXPECT_EQ(rec.state(), CallNodeState::kInlined);

  // main -> main: recursion depth 1 > 0, never expanded; Cutoff, callDiff 0.
  EXPECT_EQ(NodeAt(root, {3}).state(), CallNodeState::kCutoff);
  EXPECT_DOUBLE_EQ(NodeAt(root, {3}).call_diff(), 0);
  EXPECT_DOUBLE_EQ(root.call_diff(), 0);
}

TEST(DefaultPolicyTest, InliningBudgetStopsInliningCompletely) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("big", 3), Call("small", 2), Call("t", 1)},
                          .call_count = 3});
  program.Define("big", {.ir_nodes = 300});
  program.Define("small", {.ir_nodes = 10});
  program.Define("t", {.ir_nodes = 10, .trivial = true});
  auto tree = RunDefault(program, {.inlining_budget = 350});
  // big (100 + 300 > 350) stops everything: small would fit, t needs no budget.
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(big:Expanded small:Expanded t:Expanded)");

  // With 410 big (400) and small (410) fit, and t needs no budget.
  auto tree2 = RunDefault(program, {.inlining_budget = 410});
  EXPECT_EQ(Shape(tree2->root()), "main:Inlined(big:Inlined small:Inlined t:Inlined)");
}

TEST(DefaultPolicyTest, InliningGoesDeepThroughInlinedNodesInFrequencyOrder) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("a", 1), Call("b", 1)}, .call_count = 1});
  program.Define("a", {.ir_nodes = 100, .calls = {Call("c", 1)}, .call_count = 1});
  program.Define("b", {.ir_nodes = 100, .calls = {Call("d", 1)}, .call_count = 1});
  program.Define("c", {.ir_nodes = 100});
  program.Define("d", {.ir_nodes = 100});
  // Budget for three of the four: a, b (id order at equal frequency), then c.
  auto tree = RunDefault(program, {.inlining_budget = 400});
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(a:Inlined(c:Inlined) b:Inlined(d:Expanded))");
  EXPECT_EQ(tree->InlinedY(), 3);
  EXPECT_EQ(tree->InlinedN(), 1);
}

// An engine whose real graph shrank after inlining.
class ShrinkingProgram : public FakeProgram {
 public:
  int CurrentRootSize(const CallTree& tree) override {
    ++asked;
    return tree.InlinedIrNodes() / 2;
  }
  int asked = 0;
};

TEST(DefaultPolicyTest, OverTheBudgetTheRootSizeIsRecomputed) {
  ShrinkingProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("a", 2), Call("b", 1)}, .call_count = 2});
  program.Define("a", {.ir_nodes = 200});
  program.Define("b", {.ir_nodes = 150});
  // a: 100 + 200 <= 300. b: 300 + 150 > 300, recomputed (100 + 200) / 2 = 150,
  // 150 + 150 <= 300: inlined.
  auto tree = RunDefault(program, {.inlining_budget = 300});
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(a:Inlined b:Inlined)");
  EXPECT_EQ(program.asked, 1);
}

TEST(DefaultPolicyTest, InlineOnlyFiltersCandidates) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100,
                          .calls = {Call("keep_me"), Call("keep_not"), Call("other")}});
  program.Define("keep_me", {.ir_nodes = 10});
  program.Define("keep_not", {.ir_nodes = 10});
  program.Define("other", {.ir_nodes = 10});
  auto tree = RunDefault(program, {.inline_only = "keep,~not"});
  EXPECT_EQ(Shape(tree->root()),
            "main:Inlined(keep_me:Inlined keep_not:Expanded other:Expanded)");
}

TEST(DefaultPolicyTest, ForcedIsReportedAndExpandedPastTheBudget) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {ForcedCall("f")}});
  program.Define("f", {.ir_nodes = 10});
  auto tree = RunDefault(program, {.expansion_budget = 0, .inlining_budget = 0});
  EXPECT_TRUE(NodeAt(tree->root(), {0}).forced());
  EXPECT_FALSE(tree->root().forced());
  EXPECT_EQ(NodeAt(tree->root(), {0}).state(), CallNodeState::kInlined);
}

TEST(DefaultPolicyForcedTest, ForcedCallSitesIgnoreBothBudgetsButNotRecursion) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100,
                          .calls = {Call("big", 9), ForcedCall("forced", 1)},
                          .call_count = 10});
  program.Define("big", {.ir_nodes = 500});
  program.Define("forced", {.ir_nodes = 400, .calls = {ForcedCall("forced", 1)},
                            .call_count = 1});
  auto tree = RunDefault(
      program, {.expansion_budget = 150, .inlining_budget = 150, .recursion_depth = 1});
  // big is expanded (within the expansion budget) but over the inlining
  // budget: it stays Expanded. forced is expanded past the expansion budget
  // and inlined past the inlining budget, and so is its forced recursive
  // call once (InliningRecursionDepth 1); the next level stays a Cutoff.
  const CallNode& big = NodeAt(tree->root(), {0});
  const CallNode& forced = NodeAt(tree->root(), {1});
  EXPECT_EQ(big.state(), CallNodeState::kExpanded);
  EXPECT_EQ(forced.state(), CallNodeState::kInlined);
  EXPECT_EQ(NodeAt(forced, {0}).state(), CallNodeState::kInlined);
  EXPECT_EQ(NodeAt(forced, {0, 0}).state(), CallNodeState::kCutoff);
}

TEST(DefaultPolicyForcedTest, WithoutTheFlagTheSameTreeStopsAtTheBudgets) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("big", 9), Call("forced", 1)},
                          .call_count = 10});
  program.Define("big", {.ir_nodes = 500});
  program.Define("forced", {.ir_nodes = 400, .calls = {Call("forced", 1)}, .call_count = 1});
  auto tree = RunDefault(
      program, {.expansion_budget = 150, .inlining_budget = 150, .recursion_depth = 1});
  EXPECT_EQ(NodeAt(tree->root(), {1}).state(), CallNodeState::kCutoff);
}

}  // namespace
}  // namespace morel::inliner
