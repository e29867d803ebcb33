#ifndef MOREL_SPLITTING_SPLIT_STATISTICS_H_
#define MOREL_SPLITTING_SPLIT_STATISTICS_H_

// What TraceSplittingSummary reports (Truffle's
// TruffleSplittingStrategy$SplitStatisticsReporter), and the report itself.
//
// The report is one engine log message: "Splitting Statistics" followed by
// rows in Java's formats
//   D_FORMAT         "%n%-82s: %10d"
//   P_FORMAT         "%n%-82s: %9.2f%%"
//   DELIMITER_FORMAT "%n--- %s"
//   D_LONG_FORMAT    "%n%-120s: %10d"
// Percentages of 0/0 print as Java prints them ("NaN"). Rows with equal
// counts under SPLIT TARGETS and NODES are sorted by name, where Java's
// order is a hash map's.

#include <map>
#include <string>

namespace morel::splitting {

struct SplitStatistics {
  int split_count = 0;            // targets created by splitting (forced ones included)
  int forced_split_count = 0;     // of which through DirectCallNode::CloneCallTarget
  int split_node_count = 0;       // sum of uninitialized node counts of split sources
  int total_created_node_count = 0;  // ... of every loaded source target
  int wasted_node_count = 0;
  int wasted_target_count = 0;
  int total_executed_node_count = 0;
  std::map<std::string, int> splits_by_target;          // source target name -> splits
  std::map<std::string, int> polymorphic_nodes_by_class;  // node kind -> reports
};

// The whole report, without the "[engine] " prefix. `budget_used` and
// `budget_limit` are the engine's splitCount and splitLimit.
std::string FormatSplittingSummary(const SplitStatistics& statistics,
                                   int budget_used, int budget_limit);

}  // namespace morel::splitting

#endif  // MOREL_SPLITTING_SPLIT_STATISTICS_H_
