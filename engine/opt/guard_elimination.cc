#include "engine/opt/guard_elimination.h"

#include <optional>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "engine/ir/cfg.h"
#include "engine/ir/dominators.h"
#include "engine/opt/rewrite_util.h"

namespace morel::opt {
namespace {

using ir::Instruction;
using ir::Opcode;
using ir::Value;

struct CompareKey {
  ir::Cond cond;
  const Value* a;
  const Value* b;
  bool operator==(const CompareKey& o) const {
    return std::tie(cond, a, b) == std::tie(o.cond, o.a, o.b);
  }
  template <typename H>
  friend H AbslHashValue(H h, const CompareKey& k) {
    return H::combine(std::move(h), k.cond, k.a, k.b);
  }
};

// Known conditions with an undo log for scoping.
class Facts {
 public:
  size_t Mark() const { return undo_.size(); }
  void Restore(size_t mark) {
    while (undo_.size() > mark) {
      const Undo& u = undo_.back();
      if (u.value != nullptr) {
        values_.erase(u.value);
      } else {
        compares_.erase(u.key);
      }
      undo_.pop_back();
    }
  }

  std::optional<bool> Query(const Value* v) const {
    if (std::optional<int64_t> k = ConstantOf(v)) return *k != 0;
    if (auto it = values_.find(v); it != values_.end()) return it->second;
    const Instruction* def = v->instruction();
    if (def == nullptr) return std::nullopt;
    if (def->opcode() == Opcode::kNot && def->operand(0)->type() == ir::Type::kI1) {
      if (std::optional<bool> x = Query(def->operand(0))) return !*x;
    }
    if (def->opcode() == Opcode::kIcmp) {
      auto it = compares_.find(CompareKey{def->cond(), def->operand(0), def->operand(1)});
      if (it != compares_.end()) return it->second;
    }
    return std::nullopt;
  }

  void Assert(const Value* v, bool truth, int depth = 0) {
    if (depth > 8 || Query(v).has_value()) return;
    values_[v] = truth;
    undo_.push_back({v, {}});
    const Instruction* def = v->instruction();
    if (def == nullptr) return;
    switch (def->opcode()) {
      case Opcode::kNot:
        if (def->operand(0)->type() == ir::Type::kI1) Assert(def->operand(0), !truth, depth + 1);
        break;
      case Opcode::kIcmp: {
        const Value* a = def->operand(0);
        const Value* b = def->operand(1);
        ir::Cond c = def->cond();
        AddCompare({c, a, b}, truth);
        AddCompare({ir::InverseCond(c), a, b}, !truth);
        AddCompare({ir::SwapCond(c), b, a}, truth);
        AddCompare({ir::InverseCond(ir::SwapCond(c)), b, a}, !truth);
        break;
      }
      case Opcode::kAnd:
        if (truth && def->operand(0)->type() == ir::Type::kI1) {
          Assert(def->operand(0), true, depth + 1);
          Assert(def->operand(1), true, depth + 1);
        }
        break;
      case Opcode::kOr:
        if (!truth && def->operand(0)->type() == ir::Type::kI1) {
          Assert(def->operand(0), false, depth + 1);
          Assert(def->operand(1), false, depth + 1);
        }
        break;
      default:
        break;
    }
  }

 private:
  void AddCompare(const CompareKey& key, bool truth) {
    if (compares_.emplace(key, truth).second) undo_.push_back({nullptr, key});
  }

  struct Undo {
    const Value* value;
    CompareKey key;
  };
  absl::flat_hash_map<const Value*, bool> values_;
  absl::flat_hash_map<CompareKey, bool> compares_;
  std::vector<Undo> undo_;
};

}  // namespace

absl::StatusOr<bool> GuardElimination::Run(ir::Function& function, PassContext& ctx) {
  ir::DominatorTree dom(function);
  if (dom.rpo().empty()) return false;
  auto preds = ir::ComputePredecessors(function);
  Facts facts;
  bool changed = false;
  bool out_of_fuel = false;
  auto fuel = [&] {
    if (!out_of_fuel && !ctx.ConsumeFuel()) out_of_fuel = true;
    return !out_of_fuel;
  };

  struct Frame {
    ir::Block* block;
    size_t mark;
    size_t next_child = 0;
  };
  std::vector<Frame> stack;
  auto enter = [&](ir::Block* block) {
    stack.push_back({block, facts.Mark()});
    // Edge fact: the only way in is one arm of a br.
    const std::vector<ir::Block*>& in = preds[block];
    if (in.size() == 1) {
      Instruction* t = in[0]->terminator();
      if (t != nullptr && t->opcode() == Opcode::kBr &&
          t->targets()[0].block != t->targets()[1].block) {
        facts.Assert(t->operand(0), t->targets()[0].block == block);
      }
    }
    absl::flat_hash_set<Instruction*> removed;
    for (Instruction* inst : block->instructions()) {
      if (inst->opcode() == Opcode::kGuard) {
        std::optional<bool> known = facts.Query(inst->operand(0));
        if (known == true && fuel()) {
          removed.insert(inst);
          changed = true;
          continue;
        }
        facts.Assert(inst->operand(0), true);
      } else if (inst->opcode() == Opcode::kBr) {
        std::optional<bool> known = facts.Query(inst->operand(0));
        if (known.has_value() && fuel()) {
          // Removing an edge keeps every dominance relation valid, so the
          // rest of the walk stays sound.
          inst->MakeJump(*known ? 0 : 1);
          changed = true;
        }
      }
    }
    if (!removed.empty()) {
      block->RemoveIf([&](Instruction* i) { return removed.contains(i); });
    }
  };
  enter(dom.rpo()[0]);
  while (!stack.empty()) {
    Frame& top = stack.back();
    const auto& children = dom.children(top.block);
    if (top.next_child < children.size()) {
      enter(children[top.next_child++]);
    } else {
      facts.Restore(top.mark);
      stack.pop_back();
    }
  }
  return changed;
}

}  // namespace morel::opt
