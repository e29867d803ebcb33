// The TrivialOnly policy (the first tier's default): only the root's trivial
// callees are expanded and inlined.

#include "inliner/trivial_only_policy.h"

#include <string>

#include "gtest/gtest.h"
#include "inliner/fake_program.h"
#include "inliner/inlining_policy.h"

namespace morel::inliner {
namespace {

using testing::Call;
using testing::FakeProgram;
using testing::Shape;

void DefineProgram(FakeProgram& program) {
  program.Define("main", {.ir_nodes = 100,
                          .calls = {Call("t"), Call("f"), Call("bad"), Call("t_skip")}});
  program.Define("t", {.ir_nodes = 5000, .calls = {Call("u"), Call("f")}, .trivial = true});
  program.Define("u", {.ir_nodes = 3, .trivial = true});
  program.Define("f", {.ir_nodes = 10, .calls = {Call("t")}});
  program.Define("bad", {.trivial = true, .bailout = "not ready"});
  program.Define("t_skip", {.ir_nodes = 1, .trivial = true});
}

TEST(TrivialOnlyPolicyTest, InlinesTheRootsTrivialCalleesOnly) {
  FakeProgram program;
  DefineProgram(program);
  TrivialOnlyInliningPolicy policy({});
  auto tree = program.Tree("main", &policy);
  // No AfterExpand hook: nothing is expanded at construction.
  EXPECT_TRUE(program.expanded().empty());

  RunInliningPhase(*tree, policy, {});
  EXPECT_EQ(Shape(tree->root()),
            "main:Inlined(t:Inlined(u:Cutoff f:Cutoff) f:Cutoff bad:BailedOut t_skip:Inlined)");
  EXPECT_EQ(tree->expanded_count(), 4);
  EXPECT_EQ(tree->inlined_count(), 3);
  // Frontier: 4 root calls, t brought 2 (+1), t_skip none (-1).
  EXPECT_EQ(tree->InlinedY(), 2);
  EXPECT_EQ(tree->InlinedN(), 4);
}

TEST(TrivialOnlyPolicyTest, RespectsInlineOnly) {
  FakeProgram program;
  DefineProgram(program);
  InliningOptions options{.inline_only = "~skip"};
  TrivialOnlyInliningPolicy policy(options);
  auto tree = program.Tree("main", &policy);
  RunInliningPhase(*tree, policy, options);
  EXPECT_EQ(Shape(tree->root()),
            "main:Inlined(t:Inlined(u:Cutoff f:Cutoff) f:Cutoff bad:BailedOut t_skip:Cutoff)");
}

TEST(TrivialOnlyPolicyTest, InlinesChildrenAnEagerHookAlreadyExpanded) {
  FakeProgram program;
  DefineProgram(program);
  auto tree = program.Tree("main");  // the Default policy's eager hook
  TrivialOnlyInliningPolicy policy({});
  RunInliningPhase(*tree, policy, {});
  EXPECT_EQ(Shape(tree->root()),
            "main:Inlined(t:Inlined(u:Expanded f:Cutoff) f:Cutoff bad:BailedOut t_skip:Inlined)");
}

}  // namespace
}  // namespace morel::inliner
