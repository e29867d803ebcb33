#ifndef MOREL_SPLITTING_DECISION_DUMP_H_
#define MOREL_SPLITTING_DECISION_DUMP_H_

// SplittingDumpDecisions: each time a call target is marked needs-split
// because it has several callers, the chain that led there is written as a
// graph a person can open:
//
//   <dir>/decision-<n>-<target>.dot   Graphviz (dot -Tsvg file.dot)
//   <dir>/decision-<n>-<target>.xml   IGV's XML graph document (File > Open)
//
// The chain is what Truffle collects in OptimizedCallTarget
// #polymorphicSpecialize: the reporting node and its parents up to its root,
// then for each single caller walked through, that DirectCallNode and its
// parents up to the caller's root. Edges go parent -> child ("child") and
// call node -> callee root ("calls"); the reporting node and the marked
// target's root are highlighted.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nodes/call_target.h"
#include "nodes/node.h"

namespace morel::splitting {

struct DecisionChain {
  const Node* source = nullptr;          // the node that reported
  std::vector<const Node*> nodes;        // in collection order, source first
  const CallTarget* marked = nullptr;    // the target marked needs-split

  // Appends `node` and its ancestors up to the root.
  void AddParentChain(const Node* node);
};

// The Graphviz text of `chain`.
std::string ChainToDot(const DecisionChain& chain);
// The IGV XML text of `chain`.
std::string ChainToIgvXml(const DecisionChain& chain);

// Writes both files for decision number `index` into `directory` (created
// if missing); returns the path of the .dot file.
absl::StatusOr<std::string> WriteDecisionDump(const DecisionChain& chain,
                                              const std::string& directory, int index);

}  // namespace morel::splitting

#endif  // MOREL_SPLITTING_DECISION_DUMP_H_
