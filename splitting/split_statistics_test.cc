// The TraceSplittingSummary report, row by row.

#include "splitting/split_statistics.h"

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace morel::splitting {
namespace {

TEST(SplitStatisticsTest, EveryRowInOrderWithJavaFormats) {
  SplitStatistics s;
  s.split_count = 4;
  s.forced_split_count = 1;
  s.split_node_count = 20;
  s.total_created_node_count = 80;
  s.wasted_node_count = 5;
  s.wasted_target_count = 1;
  s.total_executed_node_count = 33;
  s.splits_by_target = {{"add", 3}, {"double", 3}, {"f", 1}};
  s.polymorphic_nodes_by_class = {{"SLAddNode", 2}, {"SLInvokeNode", 7}};
  std::vector<std::string> lines = absl::StrSplit(FormatSplittingSummary(s, 25, 120), '\n');
  auto row = [](const std::string& label, const std::string& value) {
    return label + std::string(label.size() < 82 ? 82 - label.size() : 0, ' ') + ": " +
           value;
  };
  std::vector<std::string> expected = {
      "Splitting Statistics",
      row("Split count (sum of uninitializedNodeCount for all split targets)", "        25"),
      row("Split limit (limit for the number of nodes to create through splitting)",
          "       120"),
      row("Splits (number of targets created through splitting)", "         4"),
      row("Forced splits (number of targets created through DirectCallNode#cloneCallTarget)",
          "         1"),
      row("Nodes created through splitting (sum of uninitializedNodeCount for split targets)",
          "        20"),
      row("Nodes created without splitting (sum of uninitializedNodeCount for source targets)",
          "        80"),
      row("Increase in nodes", "    25.00%"),
      row("Split nodes wasted (callee split nodes wasted due to splitting the caller later)",
          "         5"),
      row("Percent of split nodes wasted", "    25.00%"),
      row("Targets wasted due to splitting", "         1"),
      row("Total nodes executed", "        33"),
      "--- SPLIT TARGETS",
      row("add", "         3"),
      row("double", "         3"),
      row("f", "         1"),
      "--- NODES",
      "class SLInvokeNode" + std::string(120 - 18, ' ') + ":          7",
      "class SLAddNode" + std::string(120 - 15, ' ') + ":          2",
  };
  EXPECT_EQ(lines, expected);
}

TEST(SplitStatisticsTest, ZeroOverZeroPrintsNaNLikeJava) {
  std::string text = FormatSplittingSummary(SplitStatistics(), 0, 0);
  EXPECT_NE(text.find("Increase in nodes" + std::string(65, ' ') + ":       NaN%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n--- SPLIT TARGETS\n--- NODES"), std::string::npos);
  EXPECT_EQ(text.back(), 'S');
}

}  // namespace
}  // namespace morel::splitting
