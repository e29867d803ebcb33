#ifndef MOREL_ENGINE_CODEGEN_LIVENESS_H_
#define MOREL_ENGINE_CODEGEN_LIVENESS_H_

// Virtual-register liveness over a MachineFunction's CFG (backward dataflow,
// iterated to a fixed point so loops are handled) and the linear numbering
// the register allocator uses: instruction k (counting over blocks in layout
// order) reads its uses at position 2k and writes its defs at 2k + 1.
// Deopt-state values count as uses of the instruction that carries them.
// Also the loop nesting depth of each block (natural loops of the CFG), which
// the allocator uses to weigh uses inside loops.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/codegen/machine_function.h"

namespace morel::codegen {

class BitSet {
 public:
  explicit BitSet(uint32_t n = 0) : words_((n + 63) / 64, 0) {}
  bool Get(uint32_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void Set(uint32_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void Clear(uint32_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  // this |= other; returns whether anything changed.
  bool UnionWith(const BitSet& other);
  template <typename F>
  void ForEach(F f) const {
    for (uint32_t w = 0; w < words_.size(); ++w) {
      for (uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        f(w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits)));
      }
    }
  }
  bool Empty() const;

 private:
  std::vector<uint64_t> words_;
};

struct Liveness {
  std::vector<BitSet> live_in;   // per block
  std::vector<BitSet> live_out;  // per block
  std::vector<int> block_start;  // first position of each block (2 * first inst)
  std::vector<int> block_end;    // last position of each block (2 * last inst + 1)
};

// Calls f(operand) for every vreg read by `inst` (uses, then deopt values).
template <typename F>
void ForEachVRegUse(const MachineFunction& mf, const MachineInst& inst, F f) {
  for (const MachineOperand& u : inst.uses) {
    if (u.is_vreg()) f(u);
  }
  if (inst.deopt >= 0) {
    for (const MachineOperand& v : mf.deopt_states()[inst.deopt].values) {
      if (v.is_vreg()) f(v);
    }
  }
}

// Requires successors to be computed (MachineFunction::ComputeSuccessors).
// Fails if a vreg may be read before it is written (live into the entry).
absl::StatusOr<Liveness> ComputeLiveness(const MachineFunction& mf);

// Loop nesting depth per block (indexed by block id): the number of natural
// loops containing the block. The CFG is rooted at block 0 and at every OSR
// entry block that block 0 does not reach; a back edge is an edge p -> h
// where h dominates p, and its loop is h plus every block that reaches p
// without passing through h. Loops with the same header count once. Cycles
// entered other than through a dominating header (irreducible control flow)
// add no depth; unreachable blocks have depth 0. Requires successors to be
// computed.
std::vector<int> ComputeLoopDepths(const MachineFunction& mf);

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_LIVENESS_H_
