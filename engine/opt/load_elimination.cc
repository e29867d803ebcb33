#include "engine/opt/load_elimination.h"

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "engine/ir/cfg.h"
#include "engine/ir/dominators.h"
#include "engine/ir/types.h"
#include "engine/opt/rewrite_util.h"

namespace morel::opt {
namespace {

using ir::Block;
using ir::Instruction;
using ir::Opcode;
using ir::Type;
using ir::Value;

struct Location {
  const Value* base;
  int64_t offset;
  Type type;
  bool operator==(const Location& o) const {
    return std::tie(base, offset, type) == std::tie(o.base, o.offset, o.type);
  }
  template <typename H>
  friend H AbslHashValue(H h, const Location& l) {
    return H::combine(std::move(h), l.base, l.offset, l.type);
  }
};

// What is known at a location: its value and the alias class of the
// access that made it known (nullptr: unknown).
struct Known {
  Value* value;
  const ir::AliasClass* alias;
};

// Whether a store to `store` (class `store_alias`) may change the known
// location `known` (class `known_alias`). The same base: the byte ranges
// overlap (whatever the classes say: same address, same memory). Different
// bases (two SSA pointers may be equal): unless the classes are two
// different named ones, which never share memory (alias_class.h).
bool MayOverlap(const Location& known, const ir::AliasClass* known_alias,
                const Location& store, const ir::AliasClass* store_alias) {
  if (known.base != store.base) return ir::MayAlias(known_alias, store_alias);
  return known.offset < store.offset + ir::ByteWidth(store.type) &&
         store.offset < known.offset + ir::ByteWidth(known.type);
}

using Memory = absl::flat_hash_map<Location, Known>;

}  // namespace

absl::StatusOr<bool> LoadElimination::Run(ir::Function& function, PassContext& ctx) {
  ir::DominatorTree dom(function);
  if (dom.rpo().empty()) return false;
  auto preds = ir::ComputePredecessors(function);
  Substitution subst;
  bool changed = false;
  bool out_of_fuel = false;

  // `memory` is what is known at the block's start. Returns the table at
  // its end.
  auto run_block = [&](Block* block, Memory memory) {
    absl::flat_hash_set<Instruction*> removed;
    for (Instruction* inst : block->instructions()) {
      subst.ResolveOperands(inst);
      switch (inst->opcode()) {
        case Opcode::kLoad: {
          Location loc{inst->operand(0), inst->imm(), inst->type_suffix()};
          auto it = memory.find(loc);
          if (it != memory.end() && !out_of_fuel) {
            if (ctx.ConsumeFuel()) {
              subst.Replace(inst->result(), it->second.value);
              removed.insert(inst);
              changed = true;
              break;
            }
            out_of_fuel = true;
          }
          memory[loc] = Known{inst->result(), inst->alias_class()};
          break;
        }
        case Opcode::kStore: {
          Location loc{inst->operand(1), inst->imm(), inst->type_suffix()};
          const ir::AliasClass* alias = inst->alias_class();
          absl::erase_if(memory, [&](const auto& e) {
            return MayOverlap(e.first, e.second.alias, loc, alias);
          });
          memory[loc] = Known{inst->operand(0), alias};
          break;
        }
        case Opcode::kGuard:
          break;
        default:
          // Terminators write nothing; calls and safepoints may write anything.
          if (!ir::IsPure(inst->opcode()) && !ir::IsTerminator(inst->opcode())) memory.clear();
          break;
      }
    }
    if (!removed.empty()) block->RemoveIf([&](Instruction* i) { return removed.contains(i); });
    return memory;
  };

  // In reverse postorder, so a block's forward predecessors are done: a
  // block with one predecessor starts with what that one knew at its end;
  // a join, with what all of them knew alike (the same value at the same
  // location: its definition dominates every predecessor, hence the join);
  // a loop header (a predecessor not done yet: a back edge), with nothing.
  const std::vector<Block*>& rpo = dom.rpo();
  absl::flat_hash_map<const Block*, Memory> at_end;
  for (Block* block : rpo) {
    const std::vector<Block*>& in = preds[block];
    Memory start;
    bool all_done = !in.empty();
    for (Block* pred : in) all_done = all_done && at_end.contains(pred);
    if (all_done) {
      start = at_end[in[0]];
      for (size_t i = 1; i < in.size() && !start.empty(); ++i) {
        const Memory& other = at_end[in[i]];
        absl::erase_if(start, [&](const auto& entry) {
          auto it = other.find(entry.first);
          return it == other.end() ||
                 subst.Resolve(it->second.value) != subst.Resolve(entry.second.value);
        });
        for (auto& [loc, known] : start) {
          // Different classes for the same bytes: keep the weaker claim.
          if (other.at(loc).alias != known.alias) known.alias = nullptr;
        }
      }
    }
    at_end[block] = run_block(block, std::move(start));
  }
  subst.ApplyTo(function);
  return changed;
}

}  // namespace morel::opt
