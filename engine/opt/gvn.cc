#include "engine/opt/gvn.h"

#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "engine/ir/dominators.h"
#include "engine/opt/rewrite_util.h"

namespace morel::opt {
namespace {

struct Key {
  ir::Opcode opcode;
  ir::Type suffix;
  ir::Cond cond;
  int64_t imm;
  std::vector<uint32_t> operands;

  bool operator==(const Key& o) const {
    return std::tie(opcode, suffix, cond, imm, operands) ==
           std::tie(o.opcode, o.suffix, o.cond, o.imm, o.operands);
  }
  template <typename H>
  friend H AbslHashValue(H h, const Key& k) {
    return H::combine(std::move(h), k.opcode, k.suffix, k.cond, k.imm, k.operands);
  }
};

Key KeyOf(const ir::Instruction& inst) {
  Key k{inst.opcode(), inst.type_suffix(), ir::Cond::kEq, inst.imm(), {}};
  if (inst.opcode() == ir::Opcode::kIcmp) k.cond = inst.cond();
  for (const ir::Value* v : inst.operands()) k.operands.push_back(v->id());
  if (ir::IsCommutative(inst.opcode()) && k.operands.size() == 2 &&
      k.operands[0] > k.operands[1]) {
    std::swap(k.operands[0], k.operands[1]);
  }
  return k;
}

}  // namespace

absl::StatusOr<bool> GlobalValueNumbering::Run(ir::Function& function, PassContext& ctx) {
  ir::DominatorTree dom(function);
  if (dom.rpo().empty()) return false;
  Substitution subst;
  absl::flat_hash_map<Key, ir::Value*> table;
  bool changed = false;
  bool out_of_fuel = false;
  // Iterative DFS over the dominator tree; each frame remembers the keys it
  // added so they can be dropped when leaving the subtree.
  struct Frame {
    ir::Block* block;
    size_t next_child = 0;
    std::vector<Key> added;
  };
  std::vector<Frame> stack;
  stack.push_back({dom.rpo()[0]});
  bool entering = true;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (entering) {
      ir::Block* block = top.block;
      absl::flat_hash_set<ir::Instruction*> removed;
      for (ir::Instruction* inst : block->instructions()) {
        subst.ResolveOperands(inst);
        if (out_of_fuel || !ir::IsPure(inst->opcode()) || inst->results().size() != 1) continue;
        Key key = KeyOf(*inst);
        auto it = table.find(key);
        if (it == table.end()) {
          table.emplace(key, inst->result());
          top.added.push_back(std::move(key));
          continue;
        }
        if (!ctx.ConsumeFuel()) {
          out_of_fuel = true;
          continue;
        }
        subst.Replace(inst->result(), it->second);
        removed.insert(inst);
        changed = true;
      }
      if (!removed.empty()) {
        block->RemoveIf([&](ir::Instruction* i) { return removed.contains(i); });
      }
    }
    const auto& children = dom.children(top.block);
    if (top.next_child < children.size()) {
      ir::Block* child = children[top.next_child++];
      stack.push_back({child});
      entering = true;
    } else {
      for (const Key& k : top.added) table.erase(k);
      stack.pop_back();
      entering = false;
    }
  }
  subst.ApplyTo(function);
  return changed;
}

}  // namespace morel::opt
