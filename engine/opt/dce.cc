#include "engine/opt/dce.h"

#include <deque>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "engine/ir/cfg.h"

namespace morel::opt {
namespace {

using ir::Block;
using ir::Instruction;
using ir::Value;

// An incoming edge: terminator `inst`, target index `which`.
struct Edge {
  Instruction* inst;
  int which;
};

void ForEachFrameStateValue(ir::FrameState* fs, const std::function<void(Value*)>& fn) {
  absl::flat_hash_set<ir::FrameState*> seen;
  for (; fs != nullptr && seen.insert(fs).second; fs = fs->parent) {
    fs->ForEachValue([&](Value*& v) { fn(v); });
  }
}

bool RemoveUnreferencedFrameStates(ir::Function& f) {
  absl::flat_hash_set<ir::FrameState*> used;
  for (Block* b : f.blocks()) {
    for (Instruction* inst : b->instructions()) {
      for (ir::FrameState* fs = inst->frame_state(); fs != nullptr && used.insert(fs).second;
           fs = fs->parent) {
      }
    }
  }
  std::vector<ir::FrameState*> dead;
  for (ir::FrameState* fs : f.frame_states()) {
    if (!used.contains(fs)) dead.push_back(fs);
  }
  for (ir::FrameState* fs : dead) f.RemoveFrameState(fs);
  return !dead.empty();
}

class DeadValueSweeper {
 public:
  DeadValueSweeper(ir::Function& f, PassContext& ctx) : f_(f), ctx_(ctx) {}

  bool Run() {
    CollectEdges();
    Mark();
    return Sweep();
  }

 private:
  void CollectEdges() {
    for (Block* b : f_.blocks()) {
      Instruction* t = b->terminator();
      if (t == nullptr) continue;
      for (int i = 0; i < static_cast<int>(t->targets().size()); ++i) {
        edges_[t->targets()[i].block].push_back({t, i});
      }
    }
  }

  void MarkValue(Value* v) {
    if (v != nullptr) worklist_.push_back(v);
  }
  void MarkInstruction(Instruction* inst) {
    if (!live_insts_.insert(inst).second) return;
    for (Value* v : inst->operands()) MarkValue(v);
    ForEachFrameStateValue(inst->frame_state(), [&](Value* v) { MarkValue(v); });
  }

  void Mark() {
    for (Value* p : f_.entry()->params()) live_params_.insert(p);
    for (Block* b : f_.blocks()) {
      for (Instruction* inst : b->instructions()) {
        if (!ir::IsPure(inst->opcode())) MarkInstruction(inst);
      }
    }
    while (!worklist_.empty()) {
      Value* v = worklist_.back();
      worklist_.pop_back();
      if (!v->is_block_param()) {
        MarkInstruction(v->instruction());
        continue;
      }
      if (!live_params_.insert(v).second && v->param_block() != f_.entry()) continue;
      for (const Edge& e : edges_[v->param_block()]) {
        const ir::BlockCall& call = e.inst->targets()[e.which];
        if (v->index() < static_cast<int>(call.args.size())) MarkValue(call.args[v->index()]);
      }
    }
  }

  // Uses of every value by what remains of the function.
  void CountUses() {
    for (Block* b : f_.blocks()) {
      for (Instruction* inst : b->instructions()) {
        inst->ForEachUse([&](Value*& v) { ++uses_[v]; });
      }
    }
    for (ir::FrameState* fs : f_.frame_states()) {
      fs->ForEachValue([&](Value*& v) { ++uses_[v]; });
    }
  }

  int UsesOf(const Instruction* inst) {
    int n = 0;
    for (Value* r : inst->results()) n += uses_[r];
    return n;
  }

  void RemoveInstruction(Instruction* inst) {
    for (Value* v : inst->operands()) Decrement(v);
    dead_insts_.erase(inst);
    inst->block()->Remove(inst);
  }
  void RemoveParam(Value* p) {
    for (const Edge& e : edges_[p->param_block()]) {
      const ir::BlockCall& call = e.inst->targets()[e.which];
      if (e.inst->block() != nullptr && p->index() < static_cast<int>(call.args.size())) {
        Decrement(call.args[p->index()]);
      }
    }
    dead_params_.erase(p);
    f_.RemoveBlockParam(p->param_block(), p->index());
  }
  void Decrement(Value* v) {
    if (--uses_[v] != 0) return;
    if (v->is_block_param()) {
      if (dead_params_.contains(v)) ready_params_.push_back(v);
    } else if (dead_insts_.contains(v->instruction()) && UsesOf(v->instruction()) == 0) {
      ready_insts_.push_back(v->instruction());
    }
  }

  bool Sweep() {
    // Frame states of removed code must not keep values alive.
    RemoveUnreferencedFrameStates(f_);
    for (Block* b : f_.blocks()) {
      if (b != f_.entry()) {
        for (Value* p : b->params()) {
          if (!live_params_.contains(p)) dead_params_.insert(p);
        }
      }
      for (Instruction* inst : b->instructions()) {
        if (!live_insts_.contains(inst)) dead_insts_.insert(inst);
      }
    }
    if (dead_insts_.empty() && dead_params_.empty()) return false;
    CountUses();
    // Layout order (not hash order) keeps fuel bisection deterministic.
    for (Block* b : f_.blocks()) {
      for (Value* p : b->params()) {
        if (dead_params_.contains(p) && uses_[p] == 0) ready_params_.push_back(p);
      }
      for (Instruction* inst : b->instructions()) {
        if (dead_insts_.contains(inst) && UsesOf(inst) == 0) ready_insts_.push_back(inst);
      }
    }
    bool changed = false;
    while (!ready_insts_.empty() || !ready_params_.empty()) {
      if (!ctx_.ConsumeFuel()) return changed;
      changed = true;
      if (!ready_insts_.empty()) {
        Instruction* inst = ready_insts_.front();
        ready_insts_.pop_front();
        if (dead_insts_.contains(inst)) RemoveInstruction(inst);
      } else {
        Value* p = ready_params_.front();
        ready_params_.pop_front();
        if (dead_params_.contains(p)) RemoveParam(p);
      }
    }
    // What is left is kept alive only by itself: cycles through block
    // parameters. Remove it as one rewrite.
    if (!dead_insts_.empty() || !dead_params_.empty()) {
      if (!ctx_.ConsumeFuel()) return changed;
      changed = true;
      for (Value* p : std::vector<Value*>(dead_params_.begin(), dead_params_.end())) {
        dead_params_.erase(p);
        f_.RemoveBlockParam(p->param_block(), p->index());
      }
      for (Instruction* inst : std::vector<Instruction*>(dead_insts_.begin(), dead_insts_.end())) {
        inst->block()->Remove(inst);
      }
      dead_insts_.clear();
    }
    return changed;
  }

  ir::Function& f_;
  PassContext& ctx_;
  absl::flat_hash_map<Block*, std::vector<Edge>> edges_;
  std::vector<Value*> worklist_;
  absl::flat_hash_set<Instruction*> live_insts_;
  absl::flat_hash_set<Value*> live_params_;
  absl::flat_hash_set<Instruction*> dead_insts_;
  absl::flat_hash_set<Value*> dead_params_;
  absl::flat_hash_map<Value*, int> uses_;
  std::deque<Instruction*> ready_insts_;
  std::deque<Value*> ready_params_;
};

}  // namespace

bool RemoveUnreachableBlocks(ir::Function& f, PassContext& ctx) {
  std::vector<ir::Block*> rpo = ir::ReversePostorder(f);
  if (rpo.size() == f.blocks().size()) return false;
  if (!ctx.ConsumeFuel()) return false;
  absl::flat_hash_set<ir::Block*> reachable(rpo.begin(), rpo.end());
  f.RemoveBlocksIf([&](ir::Block* b) { return !reachable.contains(b); });
  return true;
}

absl::StatusOr<bool> DeadCodeElimination::Run(ir::Function& function, PassContext& ctx) {
  if (function.entry() == nullptr) return false;
  bool changed = RemoveUnreachableBlocks(function, ctx);
  changed |= RemoveUnreferencedFrameStates(function);
  changed |= DeadValueSweeper(function, ctx).Run();
  return changed;
}

}  // namespace morel::opt
