// Lowering driver (lower.h): blocks, block-parameter copies, calls, guards
// and deopt states, fusion of compares and overflow checks into their
// consumers. Pure operations are in lower_arithmetic.cc.

#include "engine/codegen/lower.h"

#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/codegen/lowerer.h"
#include "engine/ir/cfg.h"
#include "engine/ir/printer.h"

namespace morel::codegen {
namespace internal {
namespace {

using ir::Opcode;
using ir::Type;

absl::Status Unimplemented(const ir::Instruction& inst, absl::string_view why) {
  return absl::UnimplementedError(absl::StrCat("cannot lower '", ir::PrintInstruction(inst),
                                               "' (", inst.info().name, "): ", why));
}

// True if `inst` uses `v` as an operand, block argument or in its frame
// state chain.
bool UsesValue(const ir::Instruction& inst, const ir::Value* v) {
  for (const ir::Value* o : inst.operands()) {
    if (o == v) return true;
  }
  for (const ir::BlockCall& t : inst.targets()) {
    for (const ir::Value* a : t.args) {
      if (a == v) return true;
    }
  }
  for (ir::FrameState* fs = inst.frame_state(); fs != nullptr; fs = fs->parent) {
    bool found = false;
    fs->ForEachValue([&](ir::Value*& x) { found |= x == v; });
    if (found) return true;
  }
  return false;
}

Opcode ArithFor(Opcode overflow) {
  switch (overflow) {
    case Opcode::kIaddOverflows: return Opcode::kIadd;
    case Opcode::kIsubOverflows: return Opcode::kIsub;
    default: return Opcode::kImul;
  }
}

bool IsOverflowCheck(Opcode op) {
  return op == Opcode::kIaddOverflows || op == Opcode::kIsubOverflows ||
         op == Opcode::kImulOverflows;
}

}  // namespace

// ------------------------------------------------------------------ values

uint32_t Lowerer::VRegOf(const ir::Value* v) {
  uint32_t& r = vregs_[v->id()];
  if (r == kNoVReg) r = mf_.NewVReg();
  return r;
}

std::optional<int64_t> Lowerer::ConstantOf(const ir::Value* v) const {
  const ir::Instruction* def = v->instruction();
  if (def == nullptr) return std::nullopt;
  if (def->opcode() == Opcode::kIconst || def->opcode() == Opcode::kPconst) return def->imm();
  return std::nullopt;
}

Op Lowerer::Use(const ir::Value* v) {
  if (std::optional<int64_t> c = ConstantOf(v)) {
    uint32_t t = Temp();
    Emit(mi::MovImm(Op::VReg(t), *c));
    return Op::VReg(t);
  }
  return Op::VReg(VRegOf(v));
}

Op Lowerer::UseOrImm(const ir::Value* v, MOp op) {
  std::optional<int64_t> c = ConstantOf(v);
  if (c && backend_.IsLegalImmediate(op, *c)) return Op::Imm(*c);
  return Use(v);
}

void Lowerer::MoveInto(uint32_t d, const ir::Value* v) {
  if (std::optional<int64_t> c = ConstantOf(v)) {
    Emit(mi::MovImm(Op::VReg(d), *c));
  } else if (VRegOf(v) != d) {
    Emit(mi::Mov(Op::VReg(d), Op::VReg(VRegOf(v))));
  }
}

// ---------------------------------------------------------------- analysis

absl::Status Lowerer::CheckSupported(const ir::Instruction& inst) const {
  constexpr absl::string_view kNoF64 = "f64 values (no floating-point machine ops)";
  for (const ir::Value* v : inst.operands()) {
    if (v->type() == Type::kF64) return Unimplemented(inst, kNoF64);
  }
  for (const ir::Value* v : inst.results()) {
    if (v->type() == Type::kF64) return Unimplemented(inst, kNoF64);
  }
  switch (inst.opcode()) {
    case Opcode::kFadd: case Opcode::kFsub: case Opcode::kFmul: case Opcode::kFdiv:
      return Unimplemented(inst, "f64 arithmetic");
    case Opcode::kLoad:
    case Opcode::kStore:
      if (inst.type_suffix() != Type::kI64 && inst.type_suffix() != Type::kPtr) {
        return Unimplemented(inst, "only 64-bit memory accesses (no narrow machine loads/stores)");
      }
      return absl::OkStatus();
    case Opcode::kCallRuntime:
    case Opcode::kCallTarget:
      if (inst.results().size() > ri_.return_regs.size()) {
        return Unimplemented(inst, "more results than return registers");
      }
      return absl::OkStatus();
    default: return absl::OkStatus();
  }
}

void Lowerer::CountUses(const std::vector<ir::Block*>& blocks) {
  for (const ir::Block* b : blocks) {
    for (ir::Instruction* inst : b->instructions()) {
      inst->ForEachUse([&](ir::Value*& v) { ++uses_[v]; });
      for (ir::FrameState* fs = inst->frame_state(); fs != nullptr; fs = fs->parent) {
        fs->ForEachValue([&](ir::Value*& v) {
          ++uses_[v];
          in_frame_state_.insert(v);
        });
      }
    }
  }
}

bool Lowerer::SingleUseInBlock(const ir::Value* v, const ir::Block* block) const {
  auto it = uses_.find(v);
  return it != uses_.end() && it->second == 1 && !in_frame_state_.contains(v) &&
         v->instruction() != nullptr && v->instruction()->block() == block;
}

// An `iadd a, b` (for iadd_overflows a, b; likewise isub/imul) before
// `guard` in its block whose result is not used before the guard (nor in
// the guard's frame state): the fused add.ovf at the guard can define it.
const ir::Instruction* Lowerer::FindFusableArith(const ir::Instruction& guard,
                                                 const ir::Instruction& overflow) const {
  const Opcode want = ArithFor(overflow.opcode());
  const ir::Value* a = overflow.operand(0);
  const ir::Value* b = overflow.operand(1);
  const auto& insts = guard.block()->instructions();
  size_t g = 0;
  while (insts[g] != &guard) ++g;
  for (size_t i = 0; i < g; ++i) {
    const ir::Instruction* s = insts[i];
    if (s->opcode() != want || deferred_.contains(s)) continue;
    const bool same = s->operand(0) == a && s->operand(1) == b;
    const bool swapped = want != Opcode::kIsub && s->operand(0) == b && s->operand(1) == a;
    if (!same && !swapped) continue;
    bool used = UsesValue(guard, s->result());
    for (size_t j = i + 1; j < g && !used; ++j) used = UsesValue(*insts[j], s->result());
    if (!used) return s;
  }
  return nullptr;
}

void Lowerer::PlanBlock(const ir::Block& block) {
  for (const ir::Instruction* inst : block.instructions()) {
    if (inst->opcode() != Opcode::kGuard && inst->opcode() != Opcode::kBr) continue;
    const ir::Value* c = inst->operand(0);
    if (!SingleUseInBlock(c, &block)) continue;
    const ir::Instruction* def = c->instruction();
    if (def->opcode() == Opcode::kIcmp) {
      deferred_.insert(def);  // compare-and-branch / compare-and-exit
      continue;
    }
    if (inst->opcode() != Opcode::kGuard || def->opcode() != Opcode::kNot) continue;
    const ir::Value* o = def->operand(0);
    if (!SingleUseInBlock(o, &block) || !IsOverflowCheck(o->instruction()->opcode()) ||
        o->instruction()->operand(0)->type() != Type::kI64) {
      continue;
    }
    Fusion fusion{o->instruction(), FindFusableArith(*inst, *o->instruction())};
    deferred_.insert(def);
    deferred_.insert(fusion.overflow);
    if (fusion.arith != nullptr) deferred_.insert(fusion.arith);
    fused_guards_[inst] = fusion;
  }
}

// ------------------------------------------------------------------ deopts

int32_t Lowerer::AddDeopt(const ir::FrameState* fs, DeoptEntry::Cause cause,
                          const std::string& reason, ir::DeoptAction action) {
  DeoptEntry entry;
  entry.id = static_cast<uint32_t>(map_.entries().size());
  entry.cause = cause;
  entry.kind = fs != nullptr ? fs->deopt_kind : ir::DeoptKind::kEager;
  entry.reason = reason;
  entry.action = action;
  DeoptState state;
  state.id = entry.id;
  auto add = [&](const ir::Value* v) {
    std::optional<int64_t> c = ConstantOf(v);
    state.values.push_back(c ? Op::Imm(*c) : Op::VReg(VRegOf(v)));
    return static_cast<int32_t>(state.values.size() - 1);
  };
  // Virtual objects, numbered as every tier numbers them; their field
  // values become deopt values in the same walk.
  ir::VirtualObjectNumbering<DeoptObjectDesc> numbering(&entry.objects);
  auto number = [&](const ir::VirtualObject* o) {
    return numbering.Number(
        o,
        [&](const ir::VirtualObject::Field& field, int32_t object) {
          DeoptObjectDesc::Field out{field.offset, field.type};
          if (object >= 0) {
            out.object = object;
          } else {
            out.value = add(field.value);
          }
          return out;
        },
        [&](DeoptObjectDesc& out, const ir::VirtualObject& in) {
          out.existing_if = add(in.existing_if);
          out.existing = add(in.existing);
        });
  };
  auto slot = [&](const ir::ValuePair& p) {
    if (p.is_illegal()) return DeoptSlotDesc{};
    if (p.object != nullptr) {
      const int32_t object = number(p.object);
      return DeoptSlotDesc{true, -1, add(p.tag), object};
    }
    int32_t payload = add(p.payload);
    return DeoptSlotDesc{true, payload, add(p.tag)};
  };
  for (; fs != nullptr; fs = fs->parent) {
    DeoptFrameDesc frame;
    frame.call_target_id = fs->call_target_id;
    frame.resume_point = fs->resume_point;
    frame.kind = fs->deopt_kind;
    for (const ir::ValuePair& p : fs->locals) frame.locals.push_back(slot(p));
    for (const ir::ValuePair& p : fs->stack) frame.stack.push_back(slot(p));
    entry.frames.push_back(std::move(frame));
  }
  entry.num_values = static_cast<uint32_t>(state.values.size());
  map_.Add(std::move(entry));
  return static_cast<int32_t>(mf_.AddDeoptState(std::move(state)));
}

void Lowerer::LowerGuard(const ir::Instruction& inst) {
  if (auto it = fused_guards_.find(&inst); it != fused_guards_.end()) {
    const ir::Instruction& ov = *it->second.overflow;
    const MOp op = ov.opcode() == Opcode::kIaddOverflows   ? MOp::kAddOvf
                   : ov.opcode() == Opcode::kIsubOverflows ? MOp::kSubOvf
                                                           : MOp::kMulOvf;
    const uint32_t d = it->second.arith != nullptr ? VRegOf(it->second.arith->result()) : Temp();
    const ir::Value* a = ov.operand(0);
    const ir::Value* b = ov.operand(1);
    if (op != MOp::kSubOvf && ConstantOf(a) && !ConstantOf(b)) std::swap(a, b);
    Op ra = Use(a);
    Op rb = UseOrImm(b, op);
    const int32_t state = AddDeopt(inst, DeoptEntry::Cause::kOverflow);
    Emit(mi::Binary(op, Op::VReg(d), ra, rb)).deopt = state;
    return;
  }
  const ir::Value* c = inst.operand(0);
  const ir::Instruction* def = c->instruction();
  if (def != nullptr && def->opcode() == Opcode::kIcmp && deferred_.contains(def)) {
    Compare cmp = LowerCompare(def->cond(), def->operand(0), def->operand(1), MOp::kDeoptIf);
    const int32_t state = AddDeopt(inst, DeoptEntry::Cause::kGuard);
    Emit(mi::DeoptIf(NegateCond(cmp.cond), cmp.a, cmp.b, state));
    return;
  }
  Op rc = Use(c);
  const int32_t state = AddDeopt(inst, DeoptEntry::Cause::kGuard);
  Emit(mi::DeoptIf(Cond::kEq, rc, Op::Imm(0), state));
}

// ------------------------------------------------------------------- calls

// call_target through the dispatcher: dispatch(id, operands, count) with the
// operands stored in the outgoing-argument area, so any number fits and the
// runtime can hand the area on as the callee's argument array unchanged.
absl::StatusOr<std::vector<Op>> Lowerer::DispatchArguments(const ir::Instruction& inst) {
  if (ri_.argument_regs.size() < 3) {
    return Unimplemented(inst, "the dispatcher convention needs 3 argument registers");
  }
  const Op id = Op::Phys(ri_.argument_regs[0]);
  const Op area = Op::Phys(ri_.argument_regs[1]);
  const Op count = Op::Phys(ri_.argument_regs[2]);
  const auto& operands = inst.operands();
  if (operands.empty()) {
    Emit(mi::MovImm(area, 0));
  } else {
    mf_.ReserveOutgoingArea(static_cast<uint32_t>(operands.size()));
    const uint32_t base = Temp();
    Emit(mi::OutgoingArea(Op::VReg(base)));
    for (size_t k = 0; k < operands.size(); ++k) {
      Op value = Use(operands[k]);
      Emit(mi::Store(Op::VReg(base), static_cast<int32_t>(8 * k), value));
    }
    Emit(mi::Mov(area, Op::VReg(base)));
  }
  Emit(mi::MovImm(id, inst.imm()));
  Emit(mi::MovImm(count, static_cast<int64_t>(operands.size())));
  return std::vector<Op>{id, area, count};
}


absl::Status Lowerer::LowerCall(const ir::Instruction& inst) {
  const void* address = nullptr;
  std::vector<Op> args;
  if (inst.opcode() == Opcode::kCallRuntime) {
    address = inst.callee()->address;
    if (address == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot lower '", ir::PrintInstruction(inst), "': runtime function @",
          inst.callee()->name, " has no address (only declared?)"));
    }
  } else {
    if (options_.resolve_call_target) address = options_.resolve_call_target(inst.imm());
    if (address == nullptr) {
      address = options_.call_target_dispatch;
      if (address == nullptr) {
        return absl::FailedPreconditionError(absl::StrCat(
            "cannot lower '", ir::PrintInstruction(inst),
            "': no LoweringOptions::call_target_dispatch and the target is not resolved"));
      }
      absl::StatusOr<std::vector<Op>> dispatch_args = DispatchArguments(inst);
      if (!dispatch_args.ok()) return dispatch_args.status();
      args = *std::move(dispatch_args);
    }
  }
  if (args.empty()) {  // a direct call: the operands in the argument registers
    if (inst.operands().size() > ri_.argument_regs.size()) {
      return Unimplemented(inst, absl::StrCat("more operands than argument registers (",
                                              ri_.argument_regs.size(),
                                              "): stack-passed arguments are not supported"));
    }
    size_t reg = 0;
    for (const ir::Value* v : inst.operands()) {
      const Op r = Op::Phys(ri_.argument_regs[reg++]);
      if (std::optional<int64_t> c = ConstantOf(v)) {
        Emit(mi::MovImm(r, *c));
      } else {
        Emit(mi::Mov(r, Op::VReg(VRegOf(v))));
      }
      args.push_back(r);
    }
  }
  std::vector<Op> results;
  for (size_t i = 0; i < inst.results().size(); ++i) {
    results.push_back(Op::Phys(ri_.return_regs[i]));
  }
  int32_t state = -1;
  if (inst.frame_state() != nullptr) {
    state = AddDeopt(inst.frame_state(), DeoptEntry::Cause::kCall, "");
  }
  Emit(mi::Call(address, std::move(args), results, ri_.caller_saved)).deopt = state;
  for (size_t i = 0; i < inst.results().size(); ++i) {
    Emit(mi::Mov(Op::VReg(VRegOf(inst.results()[i])), results[i]));
  }
  // The callee returns C types: only the low bits of an i32/i1 are defined.
  for (const ir::Value* r : inst.results()) {
    if (r->type() == Type::kI32 || r->type() == Type::kI1) {
      Normalize(r->type(), VRegOf(r), Op::VReg(VRegOf(r)));
    }
  }
  return absl::OkStatus();
}

// ------------------------------------------------------------ control flow

void Lowerer::EmitCopies(const ir::BlockCall& edge) {
  const auto& params = edge.block->params();
  bool overlap = false;  // an argument is itself a parameter of the target
  for (const ir::Value* a : edge.args) overlap |= a->param_block() == edge.block;
  if (!overlap) {
    for (size_t i = 0; i < params.size(); ++i) MoveInto(VRegOf(params[i]), edge.args[i]);
    return;
  }
  std::vector<std::pair<uint32_t, uint32_t>> pending;  // param vreg <- temp
  for (size_t i = 0; i < params.size(); ++i) {
    if (edge.args[i] == params[i]) continue;
    uint32_t t = Temp();
    MoveInto(t, edge.args[i]);
    pending.emplace_back(VRegOf(params[i]), t);
  }
  for (const auto& [param, t] : pending) Emit(mi::Mov(Op::VReg(param), Op::VReg(t)));
}

uint32_t Lowerer::EdgeBlock(const ir::BlockCall& edge) {
  if (edge.args.empty()) return mblock_.at(edge.block);
  const uint32_t saved = block_;
  block_ = mf_.NewBlock();
  const uint32_t edge_block = block_;
  EmitCopies(edge);
  Emit(mi::Jump(mblock_.at(edge.block)));
  block_ = saved;
  return edge_block;
}

absl::Status Lowerer::LowerTerminator(const ir::Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kJump:
      EmitCopies(inst.targets()[0]);
      Emit(mi::Jump(mblock_.at(inst.targets()[0].block)));
      return absl::OkStatus();
    case Opcode::kBr: {
      const ir::Value* c = inst.operand(0);
      const ir::Instruction* def = c->instruction();
      Compare cmp{Cond::kNe, {}, Op::Imm(0)};
      if (def != nullptr && def->opcode() == Opcode::kIcmp && deferred_.contains(def)) {
        cmp = LowerCompare(def->cond(), def->operand(0), def->operand(1), MOp::kBranch);
      } else {
        cmp.a = Use(c);
      }
      const uint32_t then_block = EdgeBlock(inst.targets()[0]);
      const uint32_t else_block = EdgeBlock(inst.targets()[1]);
      Emit(mi::Branch(cmp.cond, cmp.a, cmp.b, then_block, else_block));
      return absl::OkStatus();
    }
    case Opcode::kReturn: {
      if (inst.operands().size() > ri_.return_regs.size()) {
        return Unimplemented(inst, "more results than return registers");
      }
      std::vector<Op> regs;
      for (size_t i = 0; i < inst.operands().size(); ++i) {
        const Op r = Op::Phys(ri_.return_regs[i]);
        if (std::optional<int64_t> c = ConstantOf(inst.operand(i))) {
          Emit(mi::MovImm(r, *c));
        } else {
          Emit(mi::Mov(r, Op::VReg(VRegOf(inst.operand(i)))));
        }
        regs.push_back(r);
      }
      Emit(mi::Ret(std::move(regs)));
      return absl::OkStatus();
    }
    case Opcode::kDeopt:
      Emit(mi::Deopt(AddDeopt(inst, DeoptEntry::Cause::kDeopt)));
      return absl::OkStatus();
    case Opcode::kUnreachable:
      Emit(mi::Deopt(AddDeopt(nullptr, DeoptEntry::Cause::kUnreachable, "unreachable")));
      return absl::OkStatus();
    default:
      return Unimplemented(inst, "unknown terminator");
  }
}

absl::Status Lowerer::LowerInst(const ir::Instruction& inst) {
  switch (inst.opcode()) {
    case Opcode::kGuard: LowerGuard(inst); return absl::OkStatus();
    case Opcode::kSafepoint: {
      // The poll: one load and compare of the runtime's safepoint word; a
      // set word leaves for the interpreter at the eager frame state,
      // keeping the code (the interpreter polls the same word).
      if (options_.safepoint_word == nullptr) return absl::OkStatus();
      const uint32_t address = Temp();
      Emit(mi::MovImm(Op::VReg(address),
                      static_cast<int64_t>(reinterpret_cast<uintptr_t>(options_.safepoint_word))));
      const uint32_t word = Temp();
      Emit(mi::Load(Op::VReg(word), Op::VReg(address), 0));
      const int32_t state = AddDeopt(inst.frame_state(), DeoptEntry::Cause::kSafepoint,
                                     "safepoint", ir::DeoptAction::kKeepCode);
      Emit(mi::DeoptIf(Cond::kNe, Op::VReg(word), Op::Imm(0), state));
      return absl::OkStatus();
    }
    case Opcode::kLoad: {
      Op base = Use(inst.operand(0));
      Emit(mi::Load(Op::VReg(VRegOf(inst.result())), base, static_cast<int32_t>(inst.imm())));
      return absl::OkStatus();
    }
    case Opcode::kStore: {
      Op base = Use(inst.operand(1));
      Op value = Use(inst.operand(0));
      Emit(mi::Store(base, static_cast<int32_t>(inst.imm()), value));
      return absl::OkStatus();
    }
    case Opcode::kCallRuntime:
    case Opcode::kCallTarget: return LowerCall(inst);
    case Opcode::kAlloc: {
      const void* allocate = options_.heap.allocate;
      if (allocate == nullptr) {
        return absl::FailedPreconditionError(absl::StrCat(
            "cannot lower '", ir::PrintInstruction(inst), "': no LoweringOptions::heap.allocate"));
      }
      std::optional<int32_t> head;
      if (options_.heap.free_list_head) head = options_.heap.free_list_head(inst.imm());
      Emit(mi::Alloc(Op::VReg(VRegOf(inst.result())), inst.imm(), allocate, head));
      return absl::OkStatus();
    }
    default:
      if (inst.info().effects == ir::Effects::kTerminator) return LowerTerminator(inst);
      return LowerPure(inst);
  }
}

absl::StatusOr<LoweredFunction> Lowerer::Run() {
  const ir::Block* entry = f_.entry();
  if (entry == nullptr) return absl::InvalidArgumentError("function has no blocks");
  if (f_.result_types().size() > ri_.return_regs.size()) {
    return absl::UnimplementedError(absl::StrCat(f_.name(), ": ", f_.result_types().size(),
                                                 " results, at most ", ri_.return_regs.size()));
  }
  if (entry->params().size() > ri_.argument_regs.size()) {
    return absl::UnimplementedError(absl::StrCat(
        f_.name(), ": ", entry->params().size(), " parameters, at most ",
        ri_.argument_regs.size(), " (stack-passed arguments are not supported)"));
  }
  // Reachable blocks in layout order.
  absl::flat_hash_set<const ir::Block*> reachable;
  for (const ir::Block* b : ir::ReversePostorder(f_)) reachable.insert(b);
  std::vector<ir::Block*> blocks;
  for (ir::Block* b : f_.blocks()) {
    if (!reachable.contains(b)) continue;
    blocks.push_back(b);
    for (const ir::Value* p : b->params()) {
      if (p->type() == Type::kF64) {
        return absl::UnimplementedError(absl::StrCat(ir::PrintBlockHeader(*b),
                                                     " has an f64 parameter"));
      }
    }
    for (const ir::Instruction* inst : b->instructions()) {
      absl::Status s = CheckSupported(*inst);
      if (!s.ok()) return s;
    }
  }
  vregs_.assign(f_.value_id_bound(), kNoVReg);
  for (const ir::Block* b : blocks) mblock_[b] = mf_.NewBlock();
  CountUses(blocks);
  for (const ir::Block* b : blocks) PlanBlock(*b);
  for (const ir::Block* b : blocks) {
    block_ = mblock_.at(b);
    ir_block_ = b;
    if (b == entry) {
      for (size_t i = 0; i < b->params().size(); ++i) {
        Emit(mi::Mov(Op::VReg(VRegOf(b->params()[i])), Op::Phys(ri_.argument_regs[i])));
      }
    }
    for (const ir::Instruction* inst : b->instructions()) {
      if (deferred_.contains(inst)) continue;
      absl::Status s = LowerInst(*inst);
      if (!s.ok()) return s;
    }
  }
  mf_.ComputeSuccessors();
  LoweredFunction out{std::move(mf_), std::move(map_)};
  return out;
}

}  // namespace internal

absl::StatusOr<LoweredFunction> Lower(const ir::Function& function, const Backend& backend,
                                      const LoweringOptions& options) {
  return internal::Lowerer(function, backend, options).Run();
}

}  // namespace morel::codegen
