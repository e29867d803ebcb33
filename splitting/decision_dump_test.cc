// The DOT and IGV XML text of a decision chain.

#include "splitting/decision_dump.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "splitting/splitting_test_runtime.h"
#include "splitting/splitting_test_util.h"
#include "testing/test_language/builders.h"

namespace morel::splitting {
namespace {

using namespace test_language;  // NOLINT: the test language's builders

TEST(DecisionDumpTest, DotAndXmlOfATwoTargetChain) {
  SplittingTestRuntime runtime((SplittingOptions()));
  auto poly = std::make_unique<TurnsPolymorphicOnZeroNode>(Arg(0));
  Node* source = poly.get();
  CallTarget* callee = DefineFunction(runtime, "callee", std::move(poly));
  auto call = std::make_unique<CallDirectNode>(callee, List(Arg(0)));
  DirectCallNode* call_node = call->call_node();
  CallTarget* caller = DefineFunction(runtime, "caller", std::move(call));

  DecisionChain chain;
  chain.source = source;
  chain.AddParentChain(source);
  chain.AddParentChain(call_node);
  chain.marked = caller;
  EXPECT_EQ(chain.nodes.size(), 5u);

  EXPECT_EQ(ChainToDot(chain),
            "digraph \"split decision: caller\" {\n"
            "  rankdir=BT;\n"
            "  node [shape=box, fontname=\"monospace\"];\n"
            "  n0 [label=\"TurnsPolymorphicOnZeroNode\", style=filled, fillcolor=\"#f4b6b6\"];\n"
            "  n1 [label=\"TlRootNode\\ncallee\"];\n"
            "  n2 [label=\"DirectCallNode\\n-> callee\", style=filled, fillcolor=\"#f4e3b6\"];\n"
            "  n3 [label=\"CallDirectNode\"];\n"
            "  n4 [label=\"TlRootNode\\ncaller\", style=filled, fillcolor=\"#b6d7f4\"];\n"
            "  n1 -> n0 [label=\"child\"];\n"
            "  n3 -> n2 [label=\"child\"];\n"
            "  n2 -> n1 [label=\"calls\", style=dashed];\n"
            "  n4 -> n3 [label=\"child\"];\n"
            "}\n");
  std::string xml = ChainToIgvXml(chain);
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphDocument>\n", 0), 0u);
  EXPECT_NE(xml.find("<p name=\"name\">Split decision: caller</p>"), std::string::npos);
  EXPECT_NE(xml.find("<graph name=\"caller\">"), std::string::npos);
  EXPECT_NE(xml.find("<node id=\"2\">\n          <properties>\n"
                     "            <p name=\"name\">DirectCallNode -&gt; callee</p>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<edge from=\"2\" to=\"1\" index=\"0\" label=\"calls\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<edge from=\"1\" to=\"0\" index=\"0\" label=\"child\"/>"),
            std::string::npos);
  EXPECT_EQ(xml.substr(xml.size() - 17), "</graphDocument>\n");
}

TEST(DecisionDumpTest, WriteFailsWithAStatusForAnUnwritableDirectory) {
  DecisionChain chain;
  absl::StatusOr<std::string> path = WriteDecisionDump(chain, "/proc/no/such/dir", 1);
  EXPECT_FALSE(path.ok());
}

}  // namespace
}  // namespace morel::splitting
