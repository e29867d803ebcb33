#include "engine/opt/canonicalize.h"

#include <utility>

#include "absl/container/flat_hash_set.h"
#include "engine/ir/cfg.h"
#include "engine/ir/semantics.h"
#include "engine/opt/rewrite_util.h"

namespace morel::opt {
namespace {

using ir::Instruction;
using ir::Opcode;
using ir::Type;
using ir::Value;

// The outcome of simplifying one instruction.
struct Simplified {
  enum Kind { kNone, kConstant, kValue, kInPlace } kind = kNone;
  int64_t constant = 0;
  Value* value = nullptr;

  static Simplified Constant(int64_t c) { return {kConstant, c, nullptr}; }
  static Simplified Replace(Value* v) { return {kValue, 0, v}; }
};

class Canonicalizer {
 public:
  Canonicalizer(ir::Function& f, PassContext& ctx) : f_(f), ctx_(ctx) {}

  // One sweep; returns whether anything changed.
  bool Sweep() {
    bool changed = false;
    for (ir::Block* block : ir::ReversePostorder(f_)) {
      absl::flat_hash_set<Instruction*> removed;
      for (Instruction* inst : block->instructions()) {
        if (out_of_fuel_) break;
        subst_.ResolveOperands(inst);
        if (ir::IsPure(inst->opcode())) {
          changed |= SimplifyPure(inst, &removed);
        } else if (inst->opcode() == Opcode::kBr) {
          changed |= SimplifyBr(inst);
        } else if (inst->opcode() == Opcode::kGuard) {
          std::optional<int64_t> c = ConstantOf(inst->operand(0));
          if (c && *c == 1 && Fuel()) {
            removed.insert(inst);
            changed = true;
          }
        }
      }
      if (!removed.empty()) {
        block->RemoveIf([&](Instruction* i) { return removed.contains(i); });
      }
      if (out_of_fuel_) break;
    }
    subst_.ApplyTo(f_);
    return changed;
  }

  bool out_of_fuel() const { return out_of_fuel_; }

 private:
  bool Fuel() {
    if (out_of_fuel_) return false;
    if (!ctx_.ConsumeFuel()) out_of_fuel_ = true;
    return !out_of_fuel_;
  }

  bool SimplifyPure(Instruction* inst, absl::flat_hash_set<Instruction*>* removed) {
    if (inst->results().size() != 1) return false;
    Simplified s = Simplify(inst);
    if (s.kind == Simplified::kNone) return false;
    if (s.kind == Simplified::kInPlace) return true;  // fuel paid in Simplify
    if (!Fuel()) return false;
    Value* result = inst->result();
    if (s.kind == Simplified::kConstant) {
      if (result->type() == Type::kPtr) {
        inst->MakeConstant(Type::kPtr, s.constant);
        inst->set_opcode(Opcode::kPconst);
        inst->set_type_suffix(Type::kInvalid);
      } else {
        inst->MakeConstant(result->type(), ir::Normalize(result->type(), s.constant));
      }
      return true;
    }
    subst_.Replace(result, s.value);
    removed->insert(inst);
    return true;
  }

  Simplified Simplify(Instruction* inst) {
    const Opcode op = inst->opcode();
    const auto& ops = inst->operands();
    const ir::OpFormat format = inst->info().format;
    if (format == ir::OpFormat::kConst || format == ir::OpFormat::kPointerConst) return {};
    // Full constant folding.
    bool all_constant = !ops.empty();
    std::vector<int64_t> c;
    for (Value* v : ops) {
      std::optional<int64_t> k = ConstantOf(v);
      all_constant &= k.has_value();
      c.push_back(k.value_or(0));
    }
    const Type result_type = inst->result()->type();
    if (all_constant && result_type != Type::kF64) {
      std::optional<int64_t> folded;
      if (format == ir::OpFormat::kBinary) {
        folded = ir::EvalBinary(op, ops[0]->type(), c[0], c[1]);
      } else if (format == ir::OpFormat::kUnary) {
        folded = ir::EvalUnary(op, ops[0]->type(), c[0]);
      } else if (format == ir::OpFormat::kCompare) {
        folded = ir::EvalCond(inst->cond(), ops[0]->type(), c[0], c[1]);
      } else if (format == ir::OpFormat::kConvert) {
        folded = ir::EvalConvert(op, ops[0]->type(), inst->type_suffix(), c[0]);
      } else if (format == ir::OpFormat::kSelectFormat) {
        folded = c[0] != 0 ? c[1] : c[2];
      }
      if (folded) return Simplified::Constant(*folded);
    }
    if (op == Opcode::kSelect) {
      std::optional<int64_t> k = ConstantOf(ops[0]);
      if (k) return Simplified::Replace(*k != 0 ? ops[1] : ops[2]);
      if (ops[1] == ops[2]) return Simplified::Replace(ops[1]);
      return {};
    }
    if (format == ir::OpFormat::kUnary) return SimplifyUnary(inst);
    if (format == ir::OpFormat::kCompare) return SimplifyCompare(inst);
    if (format == ir::OpFormat::kBinary) return SimplifyBinary(inst);
    return {};
  }

  Simplified SimplifyUnary(Instruction* inst) {
    Value* a = inst->operand(0);
    Instruction* def = a->instruction();
    if (def == nullptr) return {};
    if (def->opcode() == inst->opcode() &&
        (inst->opcode() == Opcode::kNot || inst->opcode() == Opcode::kIneg)) {
      return Simplified::Replace(def->operand(0));
    }
    if (inst->opcode() == Opcode::kNot && def->opcode() == Opcode::kIcmp) {
      if (!Fuel()) return {};
      inst->set_opcode(Opcode::kIcmp);
      inst->set_cond(ir::InverseCond(def->cond()));
      inst->mutable_operands() = def->operands();
      return {Simplified::kInPlace};
    }
    return {};
  }

  Simplified SimplifyCompare(Instruction* inst) {
    Value* a = inst->operand(0);
    Value* b = inst->operand(1);
    if (a == b) {
      switch (inst->cond()) {
        case ir::Cond::kEq: case ir::Cond::kSle: case ir::Cond::kSge:
        case ir::Cond::kUle: case ir::Cond::kUge:
          return Simplified::Constant(1);
        default:
          return Simplified::Constant(0);
      }
    }
    if (ConstantOf(a) && !ConstantOf(b)) {
      if (!Fuel()) return {};
      inst->set_operand(0, b);
      inst->set_operand(1, a);
      inst->set_cond(ir::SwapCond(inst->cond()));
      return {Simplified::kInPlace};
    }
    return SimplifyBooleanCompare(inst);
  }

  // `icmp eq|ne (zext x:i1), k`: the zext is 0 or 1, so the compare is x,
  // `not x` (which the next sweep inverts when x is an icmp), or a constant.
  // Folds the `icmp -> zext -> icmp eq 0 -> zext -> icmp ne 0` chains the PE
  // emits for guest booleans.
  Simplified SimplifyBooleanCompare(Instruction* inst) {
    const ir::Cond cond = inst->cond();
    if (cond != ir::Cond::kEq && cond != ir::Cond::kNe) return {};
    Instruction* def = inst->operand(0)->instruction();
    std::optional<int64_t> k = ConstantOf(inst->operand(1));
    if (def == nullptr || !k || def->opcode() != Opcode::kZext ||
        def->operand(0)->type() != Type::kI1) {
      return {};
    }
    Value* x = def->operand(0);
    if (*k != 0 && *k != 1) return Simplified::Constant(cond == ir::Cond::kNe ? 1 : 0);
    // eq 1 and ne 0 are x; eq 0 and ne 1 are not x.
    if ((*k == 1) == (cond == ir::Cond::kEq)) return Simplified::Replace(x);
    if (!Fuel()) return {};
    inst->set_opcode(Opcode::kNot);
    inst->mutable_operands() = {x};
    inst->set_cond(ir::Cond::kEq);
    return {Simplified::kInPlace};
  }

  Simplified SimplifyBinary(Instruction* inst) {
    const Opcode op = inst->opcode();
    Value* a = inst->operand(0);
    Value* b = inst->operand(1);
    if (ir::IsCommutative(op) && ConstantOf(a) && !ConstantOf(b)) {
      if (!Fuel()) return {};
      inst->set_operand(0, b);
      inst->set_operand(1, a);
      return {Simplified::kInPlace};
    }
    const Type t = a->type();
    if (t == Type::kF64) return {};
    const int64_t all_ones = ir::Normalize(t, -1);
    if (a == b) {
      switch (op) {
        case Opcode::kIsub: case Opcode::kXor: case Opcode::kIsubOverflows:
          return Simplified::Constant(0);
        case Opcode::kAnd: case Opcode::kOr:
          return Simplified::Replace(a);
        default:
          break;
      }
    }
    std::optional<int64_t> k = ConstantOf(b);
    if (!k) return {};
    switch (op) {
      case Opcode::kIadd: case Opcode::kIsub: case Opcode::kOr: case Opcode::kXor:
      case Opcode::kShl: case Opcode::kLshr: case Opcode::kAshr:
        if (*k == 0) return Simplified::Replace(a);
        if (op == Opcode::kOr && *k == all_ones) return Simplified::Constant(all_ones);
        break;
      case Opcode::kImul:
        if (*k == 1) return Simplified::Replace(a);
        if (*k == 0) return Simplified::Constant(0);
        break;
      case Opcode::kSdiv:
        if (*k == 1) return Simplified::Replace(a);
        break;
      case Opcode::kAnd:
        if (*k == 0) return Simplified::Constant(0);
        if (*k == all_ones) return Simplified::Replace(a);
        break;
      case Opcode::kIaddOverflows: case Opcode::kIsubOverflows:
        if (*k == 0) return Simplified::Constant(0);
        break;
      case Opcode::kImulOverflows:
        if (*k == 0 || *k == 1) return Simplified::Constant(0);
        break;
      default:
        break;
    }
    return {};
  }

  bool SimplifyBr(Instruction* inst) {
    Value* cond = inst->operand(0);
    if (std::optional<int64_t> k = ConstantOf(cond)) {
      if (!Fuel()) return false;
      inst->MakeJump(*k != 0 ? 0 : 1);
      return true;
    }
    const auto& t = inst->targets();
    if (t[0].block == t[1].block && t[0].args == t[1].args) {
      if (!Fuel()) return false;
      inst->MakeJump(0);
      return true;
    }
    Instruction* def = cond->instruction();
    if (def != nullptr && def->opcode() == Opcode::kNot) {
      if (!Fuel()) return false;
      inst->set_operand(0, def->operand(0));
      std::swap(inst->mutable_targets()[0], inst->mutable_targets()[1]);
      return true;
    }
    return false;
  }

  ir::Function& f_;
  PassContext& ctx_;
  Substitution subst_;
  bool out_of_fuel_ = false;
};

}  // namespace

absl::StatusOr<bool> Canonicalize::Run(ir::Function& function, PassContext& ctx) {
  Canonicalizer c(function, ctx);
  bool changed = false;
  // Each sweep sees the previous one's results; loops may need more than
  // one (values flowing around back edges). Bounded for safety.
  for (int i = 0; i < 16; ++i) {
    if (!c.Sweep()) break;
    changed = true;
    if (c.out_of_fuel()) break;
  }
  return changed;
}

}  // namespace morel::opt
