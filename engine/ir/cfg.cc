#include "engine/ir/cfg.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_set.h"

namespace morel::ir {

absl::flat_hash_map<const Block*, std::vector<Block*>> ComputePredecessors(
    const Function& function) {
  absl::flat_hash_map<const Block*, std::vector<Block*>> preds;
  for (Block* b : function.blocks()) {
    preds[b];
    for (Block* s : b->successors()) preds[s].push_back(b);
  }
  return preds;
}

std::vector<Block*> ReversePostorder(const Function& function) {
  std::vector<Block*> postorder;
  if (function.entry() == nullptr) return postorder;
  absl::flat_hash_set<const Block*> visited;
  // Iterative DFS: (block, successors, next successor index).
  struct Frame {
    Block* block;
    std::vector<Block*> succs;
    size_t next;
  };
  std::vector<Frame> stack;
  visited.insert(function.entry());
  stack.push_back({function.entry(), function.entry()->successors(), 0});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.succs.size()) {
      Block* s = top.succs[top.next++];
      if (s != nullptr && !s->is_removed() && visited.insert(s).second) {
        stack.push_back({s, s->successors(), 0});
      }
      continue;
    }
    postorder.push_back(top.block);
    stack.pop_back();
  }
  std::reverse(postorder.begin(), postorder.end());
  return postorder;
}

}  // namespace morel::ir
