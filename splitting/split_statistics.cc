#include "splitting/split_statistics.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace morel::splitting {
namespace {

std::string Row(absl::string_view label, int value) {
  return absl::StrFormat("\n%-82s: %10d", label, value);
}

std::string LongRow(absl::string_view label, int value) {
  return absl::StrFormat("\n%-120s: %10d", label, value);
}

// Java's String.format("%9.2f", x) also for NaN and infinities.
std::string PercentRow(absl::string_view label, double value) {
  std::string number;
  if (std::isnan(value)) {
    number = absl::StrFormat("%9s", "NaN");
  } else if (std::isinf(value)) {
    number = absl::StrFormat("%9s", value > 0 ? "Infinity" : "-Infinity");
  } else {
    number = absl::StrFormat("%9.2f", value);
  }
  return absl::StrFormat("\n%-82s: %s%%", label, number);
}

double Percent(int part, int whole) {
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// Count descending, then name.
std::vector<std::pair<std::string, int>> SortedByCount(
    const std::map<std::string, int>& counts) {
  std::vector<std::pair<std::string, int>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second > b.second;
  });
  return rows;
}

}  // namespace

std::string FormatSplittingSummary(const SplitStatistics& s, int budget_used,
                                   int budget_limit) {
  std::string out = "Splitting Statistics";
  out += Row("Split count (sum of uninitializedNodeCount for all split targets)",
             budget_used);
  out += Row("Split limit (limit for the number of nodes to create through splitting)",
             budget_limit);
  out += Row("Splits (number of targets created through splitting)", s.split_count);
  out += Row("Forced splits (number of targets created through DirectCallNode#cloneCallTarget)",
             s.forced_split_count);
  out += Row("Nodes created through splitting (sum of uninitializedNodeCount for split targets)",
             s.split_node_count);
  out += Row("Nodes created without splitting (sum of uninitializedNodeCount for source targets)",
             s.total_created_node_count);
  out += PercentRow("Increase in nodes",
                    Percent(s.split_node_count, s.total_created_node_count));
  out += Row("Split nodes wasted (callee split nodes wasted due to splitting the caller later)",
             s.wasted_node_count);
  out += PercentRow("Percent of split nodes wasted",
                    Percent(s.wasted_node_count, s.split_node_count));
  out += Row("Targets wasted due to splitting", s.wasted_target_count);
  out += Row("Total nodes executed", s.total_executed_node_count);
  out += "\n--- SPLIT TARGETS";
  for (const auto& [name, count] : SortedByCount(s.splits_by_target)) {
    out += Row(name, count);
  }
  out += "\n--- NODES";
  for (const auto& [kind, count] : SortedByCount(s.polymorphic_nodes_by_class)) {
    out += LongRow(absl::StrCat("class ", kind), count);
  }
  return out;
}

}  // namespace morel::splitting
