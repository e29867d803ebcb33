#include "engine/codegen/liveness.h"

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

}  // namespace morel::codegen
