#ifndef MOREL_ENGINE_IR_DOMINATORS_H_
#define MOREL_ENGINE_IR_DOMINATORS_H_

// DominatorTree over the blocks reachable from the entry (Cooper, Harvey and
// Kennedy, "A Simple, Fast Dominance Algorithm"). Unreachable blocks are not
// in the tree: they dominate nothing and nothing dominates them.

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/ir/function.h"

namespace morel::ir {

class DominatorTree {
 public:
  explicit DominatorTree(const Function& function);

  bool IsReachable(const Block* b) const { return index_.contains(b); }
  // Immediate dominator; nullptr for the entry and unreachable blocks.
  Block* idom(const Block* b) const;
  // Reflexive: every reachable block dominates itself.
  bool Dominates(const Block* a, const Block* b) const;
  // Reachable blocks in reverse postorder.
  const std::vector<Block*>& rpo() const { return rpo_; }
  // Children in the dominator tree, in reverse postorder.
  const std::vector<Block*>& children(const Block* b) const;

 private:
  std::vector<Block*> rpo_;
  absl::flat_hash_map<const Block*, int> index_;  // rpo index
  std::vector<int> idom_;                          // by rpo index
  std::vector<std::vector<Block*>> children_;
  std::vector<int> pre_, post_;  // DFS numbering of the tree
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_DOMINATORS_H_
