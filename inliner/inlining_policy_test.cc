// Policy providers and selection (AgnosticInliningPhase), InlineOnly, and the
// phase driver.

#include "inliner/inlining_policy.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "inliner/default_policy.h"
#include "inliner/fake_program.h"
#include "inliner/no_inlining_policy.h"
#include "inliner/trivial_only_policy.h"

namespace morel::inliner {
namespace {

using testing::Call;
using testing::FakeProgram;
using testing::Shape;

TEST(InliningPolicyTest, ProvidersByDescendingPriority) {
  EXPECT_EQ(PolicyNames(), (std::vector<std::string>{"Default", "None", "TrivialOnly"}));
  const auto& providers = PolicyProviders();
  ASSERT_EQ(providers.size(), 3u);
  EXPECT_EQ(providers[0].priority, 0);
  EXPECT_EQ(providers[1].priority, -1);
  EXPECT_EQ(providers[2].priority, -2);
}

template <typename Policy>
bool Is(const absl::StatusOr<std::unique_ptr<InliningPolicy>>& policy) {
  return policy.ok() && dynamic_cast<Policy*>(policy->get()) != nullptr;
}

TEST(InliningPolicyTest, EmptyNameIsLowestPriorityFirstTierHighestLastTier) {
  EXPECT_TRUE(Is<TrivialOnlyInliningPolicy>(CreatePolicy("", /*first_tier=*/true, {})));
  EXPECT_TRUE(Is<DefaultInliningPolicy>(CreatePolicy("", /*first_tier=*/false, {})));
}

TEST(InliningPolicyTest, ExplicitNamesInEitherTier) {
  for (bool first_tier : {true, false}) {
    EXPECT_TRUE(Is<DefaultInliningPolicy>(CreatePolicy("Default", first_tier, {})));
    EXPECT_TRUE(Is<TrivialOnlyInliningPolicy>(CreatePolicy("TrivialOnly", first_tier, {})));
    EXPECT_TRUE(Is<NoInliningPolicy>(CreatePolicy("None", first_tier, {})));
  }
}

TEST(InliningPolicyTest, UnknownNameIsInvalidArgumentNamingTheAcceptedOnes) {
  auto policy = CreatePolicy("Agnostic", /*first_tier=*/false, {});
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(policy.status().message(), "Agnostic"));
  EXPECT_TRUE(absl::StrContains(policy.status().message(), "Default, None, TrivialOnly"))
      << policy.status();
  // Names are case-sensitive, as in Truffle.
  EXPECT_FALSE(CreatePolicy("default", false, {}).ok());
}

TEST(InliningPolicyTest, CreatedPolicyUsesTheOptions) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f")}});
  program.Define("f", {.ir_nodes = 10});
  InliningOptions options{.expansion_budget = 100};
  auto policy = CreatePolicy("", /*first_tier=*/false, options);
  ASSERT_TRUE(policy.ok());
  auto tree = program.Tree("main", policy->get());
  RunInliningPhase(*tree, **policy, options);
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(f:Cutoff)");
}

TEST(InliningPolicyTest, AcceptForInline) {
  EXPECT_TRUE(AcceptForInline("foo", ""));
  EXPECT_TRUE(AcceptForInline("foo", "fo"));
  EXPECT_FALSE(AcceptForInline("foo", "bar"));
  EXPECT_TRUE(AcceptForInline("foo", "bar,oo"));
  EXPECT_FALSE(AcceptForInline("foo", "~f"));
  EXPECT_TRUE(AcceptForInline("bar", "~f"));
  EXPECT_FALSE(AcceptForInline("foobar", "foo,~bar"));
  // Java's split drops trailing empty items but keeps a leading one, which
  // matches every name.
  EXPECT_FALSE(AcceptForInline("foo", "bar,"));
  EXPECT_TRUE(AcceptForInline("foo", ",bar"));
}

TEST(InliningPolicyTest, PhaseRunsThePolicyOnlyWithInlining) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f")}});
  program.Define("f", {.ir_nodes = 10});
  DefaultInliningPolicy policy({});

  auto off = program.Tree("main", &policy);
  RunInliningPhase(*off, policy, {.inlining = false});
  EXPECT_EQ(Shape(off->root()), "main:Inlined(f:Cutoff)");
  EXPECT_EQ(&off->policy(), &policy);

  auto on = program.Tree("main", &policy);
  RunInliningPhase(*on, policy, {});
  EXPECT_EQ(Shape(on->root()), "main:Inlined(f:Inlined)");
}

TEST(InliningPolicyTest, NonePolicyDecidesNothing) {
  FakeProgram program;
  program.Define("main", {.ir_nodes = 100, .calls = {Call("f"), Call("t")}});
  program.Define("f", {.ir_nodes = 10});
  program.Define("t", {.ir_nodes = 1, .trivial = true});
  NoInliningPolicy policy({});
  auto tree = program.Tree("main", &policy);
  RunInliningPhase(*tree, policy, {});
  EXPECT_EQ(Shape(tree->root()), "main:Inlined(f:Cutoff t:Cutoff)");
  EXPECT_TRUE(program.expanded().empty());
}

}  // namespace
}  // namespace morel::inliner
