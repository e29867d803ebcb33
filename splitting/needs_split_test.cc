// Needs-split marking (truffle_reference §1.3, NodeSplittingStrategyTest):
// early returns, single-caller propagation, exclusions, megamorphic
// reports, inline caches, the [poly-event] trace and decision dumps.

#include "splitting/needs_split.h"

#include <memory>
#include <string>
#include <vector>

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

// "[engine] [poly-event] %-70s %s"
std::string PolyEvent(const std::string& text, const std::string& target) {
  return absl::StrFormat("[engine] [poly-event] %-70s %s", text, target);
}

Node* Body(CallTarget* target) {
  return static_cast<TlRootNode*>(target->root_node())->body();
}

TEST(NeedsSplitTest, NoKnownCallersNoMark) {
  SplittingTestRuntime runtime(TestOptions());
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, kCloneable);
  f->Call({Value::Long(1)});
  f->Call({Value::Long(1)});
  f->Call({Value::Long(0)});
  EXPECT_FALSE(f->needs_split());
}

TEST(NeedsSplitTest, TwoCallersNeeded) {
  SplittingTestRuntime runtime(TestOptions());
  CallTarget* f = DefineFunction(runtime, "f", Poly(Arg(0)), nullptr, kCloneable);
  auto first = DirectCallNode::Create(f);
  first->Call({Value::Long(1)});
  first->Call({Value::Long(1)});
  first->Call({Value::Long(0)});  // polymorphic, but one (detached) caller
  EXPECT_FALSE(f->needs_split());

  SplittingTestRuntime runtime2(TestOptions());
  CallTarget* g = DefineFunction(runtime2, "g", Poly(Arg(0)), nullptr, kCloneable);
  auto a = DirectCallNode::Create(g);
  auto b = DirectCallNode::Create(g);
  a->Call({Value::Long(1)});
  a->Call({Value::Long(1)});
  EXPECT_FALSE(g->needs_split());
  b->Call({Value::Long(0)});
  EXPECT_TRUE(g->needs_split());
}

TEST(NeedsSplitTest, NoMarkDuringFirstExecution) {
  std::string log = TempPath("first_execution.log");
  SplittingOptions options = TestOptions();
  options.trace_events = true;
  SplittingTestRuntime runtime(options, log);
  // i = 0; while (i < 2) { poly(i + arg0); i = i + 1 }: with arg0 = -1 the
  // node sees -1 then 0 in its first execution.
  auto descriptor = std::make_unique<FrameDescriptor>();
  int i = descriptor->AddSlot("i");
  CallTarget* f = DefineFunction(
      runtime, "f",
      Block(Write(i, Const(0)),
            While(LessThan(Read(i), Const(2)),
                  Block(Poly(Add(Read(i), Arg(0))), Write(i, Add(Read(i), Const(1)))))),
      std::move(descriptor), kCloneable);
  auto a = DirectCallNode::Create(f);
  auto b = DirectCallNode::Create(f);
  a->Call({Value::Long(-1)});
  EXPECT_FALSE(f->needs_split());
  std::vector<std::string> lines = ReadLines(log);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], PolyEvent("Early return: false callCount: 1, numberOfKnownCallNodes: 2",
                                "f"));
}

// "An increase in polymorphism" is needed: going polymorphic with one
// caller does not mark; after a second caller exists, a further step does.
TEST(NeedsSplitTest, FurtherPolymorphismAfterSecondCallerMarks) {
  SplittingTestRuntime runtime(TestOptions());
  CallTarget* add = DefineFunction(runtime, "add", Add(Arg(0), Arg(1)), nullptr, kCloneable);
  CallTarget* g = DefineFunction(runtime, "g", CallDirect(add, Arg(0), Arg(1)));
  g->Call({Value::Long(1), Value::Long(2)});
  g->Call({Value::Long(1), Value::Long(2)});
  g->Call({Value::Double(1), Value::Long(2)});  // AddWide: reported, one caller
  EXPECT_EQ(runtime.strategy().statistics().polymorphic_nodes_by_class["AddNode"], 1);
  EXPECT_FALSE(add->needs_split());
  EXPECT_FALSE(g->needs_split());  // g has no known callers: early return
  CallTarget* h = DefineFunction(runtime, "h", CallDirect(add, Arg(0), Arg(1)));
  h->Call({Value::Double(1), Value::Long(2)});  // nothing new
  EXPECT_FALSE(add->needs_split());
  h->Call({MakeString("s"), Value::Long(2)});  // AddString: a further step
  EXPECT_TRUE(add->needs_split());
}

struct Chain {
  CallTarget* a;
  CallTarget* b;
  CallTarget* c;
  std::unique_ptr<DirectCallNode> x;
  std::unique_ptr<DirectCallNode> y;
};

// a -> b -> c, c polymorphic; a has two (detached) callers x and y.
Chain MakeChain(NodeRuntime& runtime) {
  Chain chain;
  chain.c = DefineFunction(runtime, "c", Poly(Arg(0)), nullptr, kCloneable);
  chain.b = DefineFunction(runtime, "b", CallDirect(chain.c, Arg(0)), nullptr, kCloneable);
  chain.a = DefineFunction(runtime, "a", CallDirect(chain.b, Arg(0)), nullptr, kCloneable);
  chain.x = DirectCallNode::Create(chain.a);
  chain.y = DirectCallNode::Create(chain.a);
  return chain;
}

TEST(NeedsSplitTest, PropagatesThroughSoleCallersWithTrace) {
  std::string log = TempPath("propagation.log");
  SplittingOptions options = TestOptions();
  options.trace_events = true;
  SplittingTestRuntime runtime(options, log);
  Chain chain = MakeChain(runtime);
  chain.x->Call({Value::Long(1)});
  chain.x->Call({Value::Long(1)});
  EXPECT_FALSE(chain.c->needs_split());
  EXPECT_TRUE(ReadFile(log).empty());
  chain.y->Call({Value::Long(0)});
  EXPECT_TRUE(chain.a->needs_split());
  EXPECT_TRUE(chain.b->needs_split());
  EXPECT_TRUE(chain.c->needs_split());
  std::vector<std::string> expected = {
      PolyEvent("Polymorphic event! Source: " + NodeDescription(*Body(chain.c)), "c"),
      PolyEvent("One caller! Analysing parent.", "c"),
      PolyEvent("  One caller! Analysing parent.", "b"),
      PolyEvent("    Set needs split to true", "a"),
      PolyEvent("    Return: true", "a"),
      PolyEvent("  Set needs split to true via parent", "b"),
      PolyEvent("  Return: true", "b"),
      PolyEvent("Set needs split to true via parent", "c"),
      PolyEvent("Return: true", "c"),
  };
  EXPECT_EQ(ReadLines(log), expected);
}

TEST(NeedsSplitTest, NodeDescriptionIsKindAtHexAddress) {
  TurnsPolymorphicOnZeroNode node;
  EXPECT_EQ(NodeDescription(node),
            absl::StrFormat("TurnsPolymorphicOnZeroNode@%x", reinterpret_cast<uintptr_t>(&node)));
}

TEST(NeedsSplitTest, MaxPropagationDepthStopsTheWalk) {
  std::string log = TempPath("depth.log");
  SplittingOptions options = TestOptions();
  options.max_propagation_depth = 1;
  options.trace_events = true;
  SplittingTestRuntime runtime(options, log);
  Chain chain = MakeChain(runtime);
  chain.x->Call({Value::Long(1)});
  chain.x->Call({Value::Long(1)});
  chain.y->Call({Value::Long(0)});
  EXPECT_FALSE(chain.a->needs_split());
  EXPECT_FALSE(chain.b->needs_split());
  EXPECT_FALSE(chain.c->needs_split());
  std::vector<std::string> lines = ReadLines(log);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[3],
            PolyEvent("    Early return: false callCount: 3, numberOfKnownCallNodes: 2", "a"));
  EXPECT_EQ(lines[4], PolyEvent("  Return: false", "b"));
  EXPECT_EQ(lines[5], PolyEvent("Return: false", "c"));
}

TEST(NeedsSplitTest, AlreadyMarkedReturnsEarly) {
  std::string log = TempPath("already.log");
  SplittingOptions options = TestOptions();
  options.trace_events = true;
  SplittingTestRuntime runtime(options, log);
  CallTarget* f = DefineFunction(runtime, "f", Add(Arg(0), Arg(1)));  // not cloneable
  auto a = DirectCallNode::Create(f);
  auto b = DirectCallNode::Create(f);
  a->Call({Value::Long(1), Value::Long(1)});
  a->Call({Value::Double(1), Value::Long(1)});
  EXPECT_TRUE(f->needs_split());  // marked even though it cannot be split
  a->Call({MakeString("s"), Value::Long(1)});
  std::vector<std::string> lines = ReadLines(log);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines.back(),
            PolyEvent("Early return: true callCount: 3, numberOfKnownCallNodes: 2", "f"));
}

// Excluded node classes and excluded specializations never mark.
TEST(NeedsSplitTest, ExcludedNodesAndSpecializationsNeverMark) {
  SplittingTestRuntime runtime(TestOptions());
  CallTarget* quiet =
      DefineFunction(runtime, "quiet", QuietAdd(Arg(0), Arg(1)), nullptr, kCloneable);
  CallTarget* excluded = DefineFunction(
      runtime, "excluded",
      std::make_unique<TurnsPolymorphicOnZeroButSpecializationIsExcludedNode>(Arg(0)), nullptr,
      kCloneable);
  auto q1 = DirectCallNode::Create(quiet);
  auto q2 = DirectCallNode::Create(quiet);
  auto e1 = DirectCallNode::Create(excluded);
  auto e2 = DirectCallNode::Create(excluded);
  for (int i = 0; i < 2; ++i) {
    q1->Call({Value::Long(1), Value::Long(2)});
    e1->Call({Value::Long(1)});
  }
  q2->Call({Value::Double(1), Value::Long(2)});
  q2->Call({MakeString("s"), Value::Long(2)});
  e2->Call({Value::Long(0)});
  EXPECT_FALSE(quiet->needs_split());
  EXPECT_FALSE(excluded->needs_split());
  EXPECT_TRUE(runtime.strategy().statistics().polymorphic_nodes_by_class.empty());
}

// A node without a class policy reports only when its megamorphic
// specialization activates.
TEST(NeedsSplitTest, MegamorphicSpecializationReports) {
  SplittingTestRuntime runtime(TestOptions());
  CallTarget* f = DefineFunction(runtime, "f", std::make_unique<ClassifyNode>(Arg(0)),
                                 nullptr, kCloneable);
  auto a = DirectCallNode::Create(f);
  auto b = DirectCallNode::Create(f);
  a->Call({Value::Long(1)});
  a->Call({Value::Long(1000)});  // ClassifyLong: not reported
  b->Call({Value::Long(5)});
  EXPECT_FALSE(f->needs_split());
  b->Call({MakeString("x")});  // ClassifyAny (kMegamorphic)
  EXPECT_TRUE(f->needs_split());
}

// An inline cache gaining an entry is an increase in polymorphism.
TEST(NeedsSplitTest, InlineCacheGainingAnEntryMarks) {
  SplittingTestRuntime runtime(TestOptions());
  CallTarget* one = DefineFunction(runtime, "one", Const(1));
  CallTarget* two = DefineFunction(runtime, "two", Const(2));
  CallTarget* invoke = DefineFunction(runtime, "invoke", Invoke(Arg(0)), nullptr, kCloneable);
  auto a = DirectCallNode::Create(invoke);
  auto b = DirectCallNode::Create(invoke);
  a->Call({FunctionValue(one)});
  a->Call({FunctionValue(one)});
  EXPECT_FALSE(invoke->needs_split());
  EXPECT_EQ(b->Call({FunctionValue(two)}), Value::Long(2));
  EXPECT_TRUE(invoke->needs_split());
}

TEST(NeedsSplitTest, DisabledSplittingDoesNotMark) {
  SplittingOptions options = TestOptions();
  options.enabled = false;  // Splitting=false or Mode=latency
  SplittingTestRuntime runtime(options);
  CallTarget* g = DefineFunction(runtime, "g", Poly(Arg(0)), nullptr, kCloneable);
  auto a = DirectCallNode::Create(g);
  auto b = DirectCallNode::Create(g);
  a->Call({Value::Long(1)});
  a->Call({Value::Long(1)});
  b->Call({Value::Long(0)});
  EXPECT_FALSE(g->needs_split());
  EXPECT_EQ(runtime.strategy().statistics().polymorphic_nodes_by_class.size(), 1u);
  EXPECT_EQ(runtime.strategy().split_limit(), 0);
}

TEST(NeedsSplitTest, DumpDecisionsWritesTheChain) {
  SplittingOptions options = TestOptions();
  options.dump_decisions = true;
  options.dump_directory = TempPath("dumps") + "/splitting";
  SplittingTestRuntime runtime(options);
  Chain chain = MakeChain(runtime);
  chain.x->Call({Value::Long(1)});
  chain.x->Call({Value::Long(1)});
  chain.y->Call({Value::Long(0)});
  std::vector<std::string> files = runtime.strategy().dump_files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0], TempPath("dumps") + "/splitting/decision-1-a.dot");
  std::string dot = ReadFile(files[0]);
  EXPECT_EQ(dot.rfind("digraph \"split decision: a\" {", 0), 0u) << dot;
  for (const char* label : {"TurnsPolymorphicOnZeroNode", "TlRootNode\\nc", "DirectCallNode\\n-> c",
                            "CallDirectNode", "TlRootNode\\nb", "DirectCallNode\\n-> b",
                            "TlRootNode\\na"}) {
    EXPECT_NE(dot.find(label), std::string::npos) << label << "\n" << dot;
  }
  EXPECT_NE(dot.find("[label=\"calls\", style=dashed]"), std::string::npos) << dot;
  std::string xml = ReadFile(TempPath("dumps") + "/splitting/decision-1-a.xml");
  EXPECT_NE(xml.find("<graphDocument>"), std::string::npos);
  EXPECT_NE(xml.find("<p name=\"role\">marked target</p>"), std::string::npos) << xml;
}

}  // namespace
}  // namespace morel::splitting
