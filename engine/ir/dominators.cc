#include "engine/ir/dominators.h"

#include "engine/ir/cfg.h"

namespace morel::ir {

DominatorTree::DominatorTree(const Function& function) {
  rpo_ = ReversePostorder(function);
  const int n = static_cast<int>(rpo_.size());
  for (int i = 0; i < n; ++i) index_[rpo_[i]] = i;
  auto preds = ComputePredecessors(function);
  idom_.assign(n, -1);
  if (n == 0) return;
  idom_[0] = 0;
  auto intersect = [this](int a, int b) {
    while (a != b) {
      while (a > b) a = idom_[a];
      while (b > a) b = idom_[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 1; i < n; ++i) {
      int new_idom = -1;
      for (Block* p : preds[rpo_[i]]) {
        auto it = index_.find(p);
        if (it == index_.end() || idom_[it->second] == -1) continue;
        new_idom = new_idom == -1 ? it->second : intersect(it->second, new_idom);
      }
      if (new_idom != idom_[i]) {
        idom_[i] = new_idom;
        changed = true;
      }
    }
  }
  children_.assign(n, {});
  for (int i = 1; i < n; ++i) children_[idom_[i]].push_back(rpo_[i]);
  // Pre/post numbers by an iterative DFS of the tree.
  pre_.assign(n, 0);
  post_.assign(n, 0);
  int counter = 0;
  std::vector<std::pair<int, size_t>> stack = {{0, 0}};
  pre_[0] = counter++;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < children_[node].size()) {
      int child = index_.at(children_[node][next++]);
      pre_[child] = counter++;
      stack.push_back({child, 0});
    } else {
      post_[node] = counter++;
      stack.pop_back();
    }
  }
}

Block* DominatorTree::idom(const Block* b) const {
  auto it = index_.find(b);
  if (it == index_.end() || it->second == 0) return nullptr;
  return rpo_[idom_[it->second]];
}

bool DominatorTree::Dominates(const Block* a, const Block* b) const {
  auto ia = index_.find(a), ib = index_.find(b);
  if (ia == index_.end() || ib == index_.end()) return false;
  return pre_[ia->second] <= pre_[ib->second] && post_[ib->second] <= post_[ia->second];
}

const std::vector<Block*>& DominatorTree::children(const Block* b) const {
  static const std::vector<Block*> kEmpty;
  auto it = index_.find(b);
  return it == index_.end() ? kEmpty : children_[it->second];
}

}  // namespace morel::ir
