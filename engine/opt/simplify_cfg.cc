#include "engine/opt/simplify_cfg.h"

#include <optional>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "engine/ir/cfg.h"
#include "engine/ir/dominators.h"
#include "engine/opt/dce.h"
#include "engine/opt/rewrite_util.h"

namespace morel::opt {

using ir::Block;
using ir::Instruction;
using ir::Opcode;
using ir::Value;

namespace {

// Whether `a` and `b` are constants of the same kind, type and value.
bool EqualConstants(const Value* a, const Value* b) {
  const std::optional<int64_t> ca = ConstantOf(a);
  const std::optional<int64_t> cb = ConstantOf(b);
  return ca.has_value() && cb.has_value() && *ca == *cb && a->type() == b->type() &&
         a->instruction()->opcode() == b->instruction()->opcode();
}

}  // namespace

absl::StatusOr<bool> SimplifyCfg::Run(ir::Function& function, PassContext& ctx) {
  // Unreachable blocks go first (guard_elim leaves some): their edges would
  // count as predecessors and keep blocks apart that only they separate.
  bool changed = RemoveUnreachableBlocks(function, ctx);
  std::vector<Block*> rpo = ir::ReversePostorder(function);
  auto preds = ir::ComputePredecessors(function);
  Block* entry = function.entry();
  auto single_pred = [&](Block* b) -> Block* {
    auto it = preds.find(b);
    if (b == entry || it == preds.end() || it->second.size() != 1) return nullptr;
    Block* p = it->second[0];
    return p == b ? nullptr : p;
  };

  // Parameters that receive the same value on every incoming edge (a
  // block with one incoming edge is the common case). Substitutions apply
  // at once at the end; arguments are compared through them, so chains of
  // such parameters resolve in one sweep in reverse postorder. A loop
  // header's back-edge argument may be a parameter of a later block that
  // the same sweep removes: sweeps repeat until one removes nothing.
  Substitution subst;
  std::optional<ir::DominatorTree> dominators;  // built when first needed
  std::vector<Value*> args;                     // one parameter's arguments
  for (bool removed = true; removed;) {
    removed = false;
    for (Block* b : rpo) {
      auto in = preds.find(b);
      if (b == entry || in == preds.end() || in->second.empty()) continue;
      for (int i = static_cast<int>(b->params().size()) - 1; i >= 0; --i) {
        Value* param = b->params()[i];
        Value* unique = nullptr;
        bool same = true;
        bool equal_constants = true;  // every argument a constant equal to the first
        args.clear();
        absl::flat_hash_set<Block*> seen;
        for (Block* p : in->second) {
          if (!seen.insert(p).second) continue;
          for (const ir::BlockCall& t : p->terminator()->targets()) {
            if (t.block != b) continue;
            Value* arg = subst.Resolve(t.args[i]);
            if (arg == param) continue;  // a back edge passing it on
            if (unique == nullptr) unique = arg;
            same &= arg == unique;
            equal_constants &= EqualConstants(arg, unique);
            args.push_back(arg);
          }
        }
        if (!same && equal_constants) {
          // The same constant from different instructions (a loop's entry and
          // its back edge): one defined in a block that strictly dominates b
          // stands for all.
          if (!dominators.has_value()) dominators.emplace(function);
          for (Value* arg : args) {
            Block* def = arg->instruction()->block();
            if (def != b && dominators->Dominates(def, b)) {
              unique = arg;
              same = true;
              break;
            }
          }
        }
        // Another parameter of b is the value of the previous visit, not of
        // this one.
        if (!same || unique == nullptr || unique->param_block() == b) continue;
        if (!ctx.ConsumeFuel()) {
          subst.ApplyTo(function);
          return changed;
        }
        subst.Replace(param, unique);
        function.RemoveBlockParam(b, i);
        changed = true;
        removed = true;
      }
    }
  }
  subst.ApplyTo(function);

  // Jump chains. Each merge keeps the absorbing block's identity, so B's
  // successors now have it as their predecessor (same edge count).
  absl::flat_hash_set<Block*> merged;
  for (Block* a : rpo) {
    if (merged.contains(a)) continue;
    for (;;) {
      Instruction* jump = a->terminator();
      if (jump == nullptr || jump->opcode() != Opcode::kJump) break;
      Block* b = jump->targets()[0].block;
      if (b == a || single_pred(b) == nullptr || !b->params().empty()) break;
      if (!ctx.ConsumeFuel()) return changed;
      a->Remove(jump);
      std::vector<Instruction*> moved = b->instructions();
      b->RemoveIf([](Instruction*) { return true; });
      for (Instruction* inst : moved) a->Append(inst);
      for (Block* s : a->successors()) {
        for (Block*& q : preds[s]) {
          if (q == b) q = a;
        }
      }
      preds.erase(b);
      merged.insert(b);
      function.RemoveBlock(b);
      changed = true;
    }
  }
  return changed;
}

}  // namespace morel::opt
