// Polymorphism reporting, with Truffle's semantics (truffle_reference §1.3,
// §1.9; NodeSplittingStrategyTest): which specialization changes report, and
// how class-level and per-specialization policies change that.

#include "nodes/polymorphism.h"

#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Add;
using test_language::Arg;
using test_language::ClassifyNode;
using test_language::DefineFunction;
using test_language::Expr;
using test_language::FunctionValue;
using test_language::Invoke;
using test_language::MakeString;
using test_language::QuietAdd;
using test_language::TestRuntime;
using test_language::TlRootNode;
using test_language::TurnsPolymorphicOnZeroButSpecializationIsExcludedNode;
using test_language::TurnsPolymorphicOnZeroNode;

using Strings = std::vector<std::string>;

class PolymorphismTest : public ::testing::Test {
 protected:
  CallTarget* Define(Expr body) { return DefineFunction(runtime_, "f", std::move(body)); }
  template <typename NodeT>
  CallTarget* DefineUnary() {
    return Define(std::make_unique<NodeT>(Arg(0)));
  }
  int Reports() { return runtime_.polymorphic_report_count(); }

  TestRuntime runtime_;
};

TEST_F(PolymorphismTest, PolicyDeclarationsAndInheritance) {
  auto add = Add(nullptr, nullptr);
  auto quiet = QuietAdd(nullptr, nullptr);
  ClassifyNode classify;
  EXPECT_EQ(add->polymorphism_reporting(), PolymorphismReporting::kReport);  // inherited
  EXPECT_EQ(quiet->polymorphism_reporting(), PolymorphismReporting::kExclude);
  EXPECT_EQ(classify.polymorphism_reporting(), PolymorphismReporting::kNone);
}

TEST_F(PolymorphismTest, FirstSpecializationNeverReports) {
  CallTarget* f = Define(Add(Arg(0), Arg(1)));
  f->Call({Value::Long(1), Value::Long(2)});
  f->Call({Value::Long(3), Value::Long(4)});
  EXPECT_EQ(Reports(), 0);

  CallTarget* g = Define(Add(Arg(0), Arg(1)));
  g->Call({MakeString("a"), Value::Long(2)});  // first is not AddInt: still first
  EXPECT_EQ(Reports(), 0);
}

TEST_F(PolymorphismTest, SecondActivatedSpecializationReports) {
  CallTarget* f = Define(Add(Arg(0), Arg(1)));
  f->Call({Value::Long(1), Value::Long(2)});
  f->Call({Value::Double(1), Value::Long(2)});
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"AddNode"}));
  auto* add = static_cast<TlRootNode*>(f->root_node())->body();
  EXPECT_EQ(runtime_.polymorphic_report_sources()[0], add);

  // Already-seen types change nothing; a third specialization reports again.
  f->Call({Value::Long(1), Value::Long(2)});
  f->Call({Value::Double(1), Value::Double(2)});
  EXPECT_EQ(Reports(), 1);
  f->Call({MakeString("a"), Value::Long(2)});
  EXPECT_EQ(Reports(), 2);
}

TEST_F(PolymorphismTest, NewCacheEntryReports) {
  CallTarget* callees[3];
  for (int i = 0; i < 3; ++i) callees[i] = Define(test_language::Const(i));
  CallTarget* f = Define(Invoke(Arg(0)));
  f->Call({FunctionValue(callees[0])});
  EXPECT_EQ(Reports(), 0);
  f->Call({FunctionValue(callees[0])});
  EXPECT_EQ(Reports(), 0);
  f->Call({FunctionValue(callees[1])});  // second entry
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"InvokeNode"}));
  f->Call({FunctionValue(callees[2])});  // generic replaces the cache
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"InvokeNode", "InvokeNode"}));
  f->Call({FunctionValue(callees[0])});
  EXPECT_EQ(Reports(), 2);
}

TEST_F(PolymorphismTest, ExclusionByRewriteOnReports) {
  CallTarget* f = Define(Add(Arg(0), Arg(1)));
  f->Call({Value::Long(1), Value::Long(2)});
  EXPECT_EQ(Reports(), 0);
  f->Call({Value::Long(INT64_MAX), Value::Long(1)});
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"AddNode"}));
  f->Call({Value::Long(1), Value::Long(2)});  // stays on AddWide
  EXPECT_EQ(Reports(), 1);
}

TEST_F(PolymorphismTest, ExclusionReportsAlsoWhenTheWiderSpecializationIsActive) {
  CallTarget* f = Define(Add(Arg(0), Arg(1)));
  f->Call({Value::Long(1), Value::Long(2)});
  f->Call({Value::Double(1), Value::Long(2)});  // AddWide activates: report
  EXPECT_EQ(Reports(), 1);
  f->Call({Value::Long(INT64_MAX), Value::Long(1)});  // AddInt excluded: report
  EXPECT_EQ(Reports(), 2);
  auto* add = static_cast<test_language::AddNode*>(
      static_cast<TlRootNode*>(f->root_node())->body());
  EXPECT_EQ(std::string(add->specializer().ActiveNames()), "AddWide");
}

TEST_F(PolymorphismTest, TurnsPolymorphicOnZero) {
  CallTarget* f = DefineUnary<TurnsPolymorphicOnZeroNode>();
  f->Call({Value::Long(1)});
  f->Call({Value::Long(2)});
  EXPECT_EQ(Reports(), 0);
  f->Call({Value::Long(0)});
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"TurnsPolymorphicOnZeroNode"}));
}

TEST_F(PolymorphismTest, NodeWithoutPolicyNeverReports) {
  CallTarget* f = DefineUnary<ClassifyNode>();
  EXPECT_EQ(f->Call({Value::Long(5)}), Value::Long(0));
  EXPECT_EQ(f->Call({Value::Long(500)}), Value::Long(1));  // a second specialization
  auto* node = static_cast<ClassifyNode*>(static_cast<TlRootNode*>(f->root_node())->body());
  EXPECT_EQ(std::string(node->specializer().ActiveNames()), "ClassifySmall,ClassifyLong");
  EXPECT_EQ(Reports(), 0);
}

TEST_F(PolymorphismTest, ExcludedSubclassOverridesTheInheritedPolicy) {
  CallTarget* quiet = Define(QuietAdd(Arg(0), Arg(1)));
  quiet->Call({Value::Long(1), Value::Long(2)});
  quiet->Call({Value::Double(1), Value::Long(2)});
  quiet->Call({Value::Long(INT64_MAX), Value::Long(1)});
  quiet->Call({MakeString("a"), Value::Long(2)});
  EXPECT_EQ(Reports(), 0);

  // The same sequence on the reporting superclass.
  CallTarget* loud = Define(Add(Arg(0), Arg(1)));
  loud->Call({Value::Long(1), Value::Long(2)});
  loud->Call({Value::Double(1), Value::Long(2)});
  loud->Call({Value::Long(INT64_MAX), Value::Long(1)});
  loud->Call({MakeString("a"), Value::Long(2)});
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"AddNode", "AddNode", "AddNode"}));
}

TEST_F(PolymorphismTest, ExcludedSpecializationActivationDoesNotReport) {
  CallTarget* f = DefineUnary<TurnsPolymorphicOnZeroButSpecializationIsExcludedNode>();
  f->Call({Value::Long(1)});
  f->Call({Value::Long(0)});  // activates AnyLongExcluded
  auto* node = static_cast<TurnsPolymorphicOnZeroButSpecializationIsExcludedNode*>(
      static_cast<TlRootNode*>(f->root_node())->body());
  EXPECT_EQ(std::string(node->specializer().ActiveNames()), "NonZero,AnyLongExcluded");
  EXPECT_EQ(Reports(), 0);
}

// Truffle compares only the state of specializations that report: with only
// an excluded specialization active, the node counts as not yet specialized,
// so the next activation is its "first" one.
TEST_F(PolymorphismTest, ExcludedSpecializationDoesNotCountAsPriorState) {
  CallTarget* f = DefineUnary<test_language::ExcludedZeroNode>();
  f->Call({Value::Long(0)});  // ZeroOnlyExcluded first
  f->Call({Value::Long(1)});  // then AnyLong
  auto* node = static_cast<test_language::ExcludedZeroNode*>(
      static_cast<TlRootNode*>(f->root_node())->body());
  EXPECT_EQ(std::string(node->specializer().ActiveNames()), "ZeroOnlyExcluded,AnyLong");
  EXPECT_EQ(Reports(), 0);
}

TEST_F(PolymorphismTest, MegamorphicSpecializationReportsWithoutClassPolicy) {
  CallTarget* f = DefineUnary<ClassifyNode>();
  f->Call({Value::Long(5)});
  f->Call({Value::Long(500)});
  EXPECT_EQ(Reports(), 0);
  EXPECT_EQ(f->Call({Value::Boolean(true)}), Value::Long(2));  // ClassifyAny
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"ClassifyNode"}));
  // Once active, it does not report again.
  f->Call({MakeString("x")});
  f->Call({Value::Double(1)});
  EXPECT_EQ(Reports(), 1);
}

TEST_F(PolymorphismTest, MegamorphicSpecializationActivatedSecondReports) {
  CallTarget* f = DefineUnary<ClassifyNode>();
  f->Call({Value::Long(7)});
  f->Call({Value::Boolean(false)});
  EXPECT_EQ(runtime_.polymorphic_reports(), Strings({"ClassifyNode"}));
}

TEST_F(PolymorphismTest, UnadoptedNodesSpecializeWithoutReporting) {
  test_language::AddNode add(nullptr, nullptr);
  add.ExecuteWith(Value::Long(1), Value::Long(2));
  add.ExecuteWith(Value::Double(1), Value::Long(2));
  EXPECT_EQ(std::string(add.specializer().ActiveNames()), "AddInt,AddWide");
  EXPECT_EQ(Reports(), 0);
}

}  // namespace
}  // namespace morel
