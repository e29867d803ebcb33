#include "engine/opt/guard_hoisting.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "engine/ir/cfg.h"
#include "engine/ir/dominators.h"
#include "engine/opt/rewrite_util.h"

namespace morel::opt {
namespace {

using ir::Block;
using ir::Instruction;
using ir::Opcode;
using ir::Value;

// True if every value `fs` and its parents reference is defined in `d` or
// in a block dominating it, i.e. is available before d's terminator.
bool FrameStateAvailableAt(ir::FrameState* fs, const Block* d, const ir::DominatorTree& dom) {
  bool ok = true;
  for (; fs != nullptr && ok; fs = fs->parent) {
    fs->ForEachValue([&](Value*& v) {
      const Block* def = v->defining_block();
      if (def == nullptr || !dom.Dominates(def, d)) ok = false;
    });
  }
  return ok;
}

// The hoistable shape around `guard` (see the header): returns D, or
// nullptr.
Block* MatchDiamond(Instruction* guard, const ir::DominatorTree& dom,
                    const absl::flat_hash_map<const Block*, std::vector<Block*>>& preds) {
  Value* p = guard->operand(0);
  Block* b = guard->block();
  if (p->param_block() != b || b == b->function()->entry()) return nullptr;
  for (Instruction* inst : b->instructions()) {
    if (inst == guard) break;
    if (!ir::IsPure(inst->opcode())) return nullptr;
  }
  auto in = preds.find(b);
  if (in == preds.end() || in->second.size() != 2) return nullptr;
  for (int i = 0; i < 2; ++i) {
    Block* d = in->second[i];
    Block* x = in->second[1 - i];
    if (d == x || d == b || x == b) continue;
    Instruction* br = d->terminator();
    Instruction* jump = x->terminator();
    if (br == nullptr || br->opcode() != Opcode::kBr || jump == nullptr ||
        jump->opcode() != Opcode::kJump) {
      continue;
    }
    if (br->targets()[0].block != x || br->targets()[1].block != b) continue;
    std::optional<int64_t> incoming = ConstantOf(br->targets()[1].args[p->index()]);
    if (!incoming || *incoming != 0) continue;
    auto x_in = preds.find(x);
    if (x_in == preds.end() || x_in->second.size() != 1) continue;
    if (!dom.IsReachable(d)) continue;
    if (!FrameStateAvailableAt(guard->frame_state(), d, dom)) continue;
    return d;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<bool> GuardHoisting::Run(ir::Function& function, PassContext& ctx) {
  ir::DominatorTree dom(function);
  auto preds = ir::ComputePredecessors(function);
  bool changed = false;
  for (Block* b : std::vector<Block*>(dom.rpo())) {
    for (Instruction* guard : b->instructions()) {
      if (guard->opcode() != Opcode::kGuard) continue;
      Block* d = MatchDiamond(guard, dom, preds);
      if (d == nullptr) continue;
      if (!ctx.ConsumeFuel()) return changed;
      Instruction* br = d->terminator();
      Instruction* hoisted = function.CreateInstruction(Opcode::kGuard);
      hoisted->mutable_operands() = {br->operand(0)};
      hoisted->set_frame_state(guard->frame_state());
      hoisted->set_reason(guard->reason());
      hoisted->set_deopt_action(guard->deopt_action());
      d->InsertBefore(br, hoisted);
      // The false edge is now dead: the hoisted guard deoptimizes there.
      // Removing an edge keeps dominance valid for the rest of the walk,
      // but the predecessor lists change: D no longer reaches B.
      br->MakeJump(0);
      std::vector<Block*>& b_preds = preds[b];
      b_preds.erase(std::find(b_preds.begin(), b_preds.end(), d));
      changed = true;
      break;  // B has one predecessor now; nothing else in it matches
    }
  }
  return changed;
}

}  // namespace morel::opt
