#include "engine/codegen/liveness.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace morel::codegen {

bool BitSet::UnionWith(const BitSet& other) {
  bool changed = false;
  for (size_t i = 0; i < words_.size(); ++i) {
    uint64_t n = words_[i] | other.words_[i];
    changed |= n != words_[i];
    words_[i] = n;
  }
  return changed;
}

bool BitSet::Empty() const {
  for (uint64_t w : words_) {
    if (w != 0) return false;
  }
  return true;
}

absl::StatusOr<Liveness> ComputeLiveness(const MachineFunction& mf) {
  const uint32_t nb = static_cast<uint32_t>(mf.blocks().size());
  const uint32_t nv = mf.num_vregs();
  Liveness lv;
  std::vector<BitSet> gen(nb, BitSet(nv)), kill(nb, BitSet(nv));
  lv.live_in.assign(nb, BitSet(nv));
  lv.live_out.assign(nb, BitSet(nv));
  int pos = 0;
  for (const MachineBlock& b : mf.blocks()) {
    if (b.insts.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("block b", b.id, " is empty"));
    }
    lv.block_start.push_back(pos);
    for (const MachineInst& inst : b.insts) {
      ForEachVRegUse(mf, inst, [&](const MachineOperand& u) {
        if (!kill[b.id].Get(u.index)) gen[b.id].Set(u.index);
      });
      for (const MachineOperand& d : inst.defs) {
        if (d.is_vreg()) kill[b.id].Set(d.index);
      }
      pos += 2;
    }
    lv.block_end.push_back(pos - 1);
    for (uint32_t s : b.successors) {
      if (s >= nb) return absl::InvalidArgumentError(absl::StrCat("b", b.id, " -> b", s));
    }
  }
  // Backward dataflow: in = gen | (out - kill); out = union of successors' in.
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = static_cast<int>(nb) - 1; i >= 0; --i) {
      const MachineBlock& b = mf.blocks()[i];
      for (uint32_t s : b.successors) lv.live_out[i].UnionWith(lv.live_in[s]);
      BitSet in = gen[i];
      lv.live_out[i].ForEach([&](uint32_t v) {
        if (!kill[i].Get(v)) in.Set(v);
      });
      changed |= lv.live_in[i].UnionWith(in);
    }
  }
  if (nb > 0 && !lv.live_in[0].Empty()) {
    std::string vs;
    lv.live_in[0].ForEach([&](uint32_t v) { absl::StrAppend(&vs, " v", v); });
    return absl::InvalidArgumentError(
        absl::StrCat(mf.name(), ": vregs read before any definition:", vs));
  }
  return lv;
}

std::vector<int> ComputeLoopDepths(const MachineFunction& mf) {
  const uint32_t nb = static_cast<uint32_t>(mf.blocks().size());
  std::vector<int> depth(nb, 0);
  if (nb == 0) return depth;
  // A virtual root (index nb) precedes block 0 and the OSR entries that
  // block 0 does not reach.
  constexpr int kUnvisited = -1;
  const uint32_t root = nb;
  std::vector<int> po_index(nb + 1, kUnvisited);
  std::vector<uint32_t> postorder;
  postorder.reserve(nb + 1);
  std::vector<uint32_t> roots = {0};
  std::vector<std::pair<uint32_t, size_t>> stack;
  auto succs = [&](uint32_t b) -> const std::vector<uint32_t>& {
    return b == root ? roots : mf.blocks()[b].successors;
  };
  // Reverse postorder by an iterative DFS (the root's successors grow as
  // the OSR entries are found unreached).
  auto dfs = [&](uint32_t from) {
    if (po_index[from] != kUnvisited) return;
    stack.push_back({from, 0});
    po_index[from] = -2;  // on the stack
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      const std::vector<uint32_t>& ss = succs(b);
      if (next < ss.size()) {
        uint32_t s = ss[next++];
        if (s < nb && po_index[s] == kUnvisited) {
          po_index[s] = -2;
          stack.push_back({s, 0});
        }
        continue;
      }
      po_index[b] = static_cast<int>(postorder.size());
      postorder.push_back(b);
      stack.pop_back();
    }
  };
  dfs(0);
  for (const MachineBlock& b : mf.blocks()) {
    if (b.osr_entry >= 0 && po_index[b.id] == kUnvisited) {
      roots.push_back(b.id);
      dfs(b.id);
    }
  }
  po_index[root] = static_cast<int>(postorder.size());
  postorder.push_back(root);
  std::vector<std::vector<uint32_t>> preds(nb + 1);
  for (uint32_t r : roots) preds[r].push_back(root);
  for (const MachineBlock& b : mf.blocks()) {
    for (uint32_t s : b.successors) {
      if (s < nb) preds[s].push_back(b.id);
    }
  }
  // Dominators (Cooper, Harvey & Kennedy), over postorder numbers.
  const uint32_t kNone = 0xffffffffu;
  std::vector<uint32_t> idom(nb + 1, kNone);
  idom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (po_index[a] < po_index[b]) a = idom[a];
      while (po_index[b] < po_index[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = postorder.size() - 1; i-- > 0;) {  // reverse postorder, root excluded
      const uint32_t b = postorder[i];
      uint32_t nd = kNone;
      for (uint32_t p : preds[b]) {
        if (idom[p] == kNone) continue;
        nd = nd == kNone ? p : intersect(p, nd);
      }
      if (nd != idom[b]) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  auto dominates = [&](uint32_t h, uint32_t b) {
    for (;;) {
      if (b == h) return true;
      if (b == root) return false;
      b = idom[b];
    }
  };
  // Natural loops, merged per header.
  std::vector<uint32_t> mark(nb, kNone);
  std::vector<uint32_t> work;
  for (size_t i = postorder.size(); i-- > 0;) {
    const uint32_t h = postorder[i];
    if (h == root) continue;
    work.clear();
    for (uint32_t p : preds[h]) {
      if (p != root && idom[p] != kNone && dominates(h, p)) work.push_back(p);
    }
    if (work.empty()) continue;
    mark[h] = h;
    ++depth[h];
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      if (mark[b] == h) continue;
      mark[b] = h;
      ++depth[b];
      for (uint32_t p : preds[b]) {
        if (p != root && idom[p] != kNone && mark[p] != h) work.push_back(p);
      }
    }
  }
  return depth;
}

}  // namespace morel::codegen
