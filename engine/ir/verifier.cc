#include "engine/ir/verifier.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ir/dominators.h"
#include "engine/ir/printer.h"
#include "engine/ir/runtime_function.h"
#include "engine/ir/type_rules.h"

namespace morel::ir {
namespace {

class Verifier {
 public:
  explicit Verifier(const Function& f) : f_(f), dom_(f) {}

  absl::Status Run() {
    if (f_.entry() == nullptr) {
      Error("function has no blocks");
      return Result();
    }
    for (const Block* b : f_.blocks()) {
      in_function_.insert(b);
      for (size_t i = 0; i < b->instructions().size(); ++i) {
        position_[b->instructions()[i]] = static_cast<int>(i);
      }
    }
    CheckEntry();
    for (const Block* b : f_.blocks()) CheckBlock(b);
    for (const FrameState* fs : f_.frame_states()) CheckFrameState(fs);
    return Result();
  }

 private:
  absl::Status Result() const {
    if (errors_.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrJoin(errors_, "\n"));
  }
  void Error(std::string message) { errors_.push_back(std::move(message)); }
  void InstError(const Block* b, const Instruction* inst, absl::string_view message) {
    Error(absl::StrCat("block", b->id(), ": ", PrintInstruction(*inst), ": ", message));
  }

  void CheckEntry() {
    const Block* entry = f_.entry();
    bool ok = entry->params().size() == f_.param_types().size();
    for (size_t i = 0; ok && i < entry->params().size(); ++i) {
      ok = entry->params()[i]->type() == f_.param_types()[i];
    }
    if (!ok) {
      Error(absl::StrCat("entry block", entry->id(),
                         " parameters do not match the function's parameter types"));
    }
  }

  void CheckBlock(const Block* b) {
    if (b->empty()) {
      Error(absl::StrCat("block", b->id(), " is empty (needs a terminator)"));
      return;
    }
    const auto& insts = b->instructions();
    for (size_t i = 0; i < insts.size(); ++i) {
      const Instruction* inst = insts[i];
      if (inst->block() != b) {
        InstError(b, inst, "instruction's block() is not the block listing it");
      }
      bool last = i + 1 == insts.size();
      if (IsTerminator(inst->opcode()) && !last) {
        InstError(b, inst, "terminator is not the last instruction of its block");
      }
      if (last && !IsTerminator(inst->opcode())) {
        Error(absl::StrCat("block", b->id(), " does not end in a terminator"));
      }
      CheckInstruction(b, inst);
    }
  }

  // A use of `v` at instruction `user` of block `b`.
  void CheckUse(const Block* b, const Instruction* user, const Value* v,
                absl::string_view what) {
    if (v == nullptr) {
      InstError(b, user, absl::StrCat("null ", what));
      return;
    }
    const Block* def = v->defining_block();
    if (!v->is_attached() || !in_function_.contains(def)) {
      InstError(b, user, absl::StrCat(what, " ", ValueName(v),
                                      " is not defined in this function (removed?)"));
      return;
    }
    if (!dom_.IsReachable(b)) return;
    bool dominated;
    if (v->is_block_param()) {
      dominated = dom_.Dominates(def, b);
    } else if (def == b) {
      dominated = position_.at(v->instruction()) < position_.at(user);
    } else {
      dominated = dom_.Dominates(def, b);
    }
    if (!dominated) {
      InstError(b, user, absl::StrCat(what, " ", ValueName(v), " does not dominate this use"));
    }
  }

  void CheckInstruction(const Block* b, const Instruction* inst) {
    const OpcodeInfo& info = inst->info();
    // Uses first: type checks below assume non-null operands.
    for (const Value* v : inst->operands()) CheckUse(b, inst, v, "operand");
    for (const BlockCall& t : inst->targets()) {
      for (const Value* v : t.args) CheckUse(b, inst, v, "block argument");
    }
    absl::flat_hash_set<const FrameState*> seen;  // a cycle is reported elsewhere
    for (const FrameState* fs = inst->frame_state(); fs != nullptr && seen.insert(fs).second;
         fs = fs->parent) {
      const_cast<FrameState*>(fs)->ForEachValue([&](Value*& v) {
        CheckUse(b, inst, v, absl::StrCat("fs", fs->id, " input"));
      });
    }
    if (std::string e = CheckOperandTypes(*inst, f_); !e.empty()) InstError(b, inst, e);
    std::optional<std::vector<Type>> expected = InferResultTypes(*inst);
    if (info.result == ResultRule::kCallResults && inst->results().size() > 2) {
      InstError(b, inst, "a call returns at most 2 values");
    } else if (expected) {
      bool ok = expected->size() == inst->results().size();
      for (size_t i = 0; ok && i < expected->size(); ++i) {
        ok = (*expected)[i] == inst->results()[i]->type();
      }
      if (!ok) InstError(b, inst, "result types do not match the opcode table");
    }
    if (HasTypeSuffix(inst->opcode()) && inst->type_suffix() == Type::kInvalid) {
      InstError(b, inst, "missing type suffix");
    }
    if (HasReason(inst->opcode()) && inst->reason().empty()) {
      InstError(b, inst, "missing deoptimization reason");
    }
    if (!HasReason(inst->opcode()) && inst->deopt_action() != DeoptAction::kInvalidate) {
      InstError(b, inst, "a deopt action on an instruction that does not deoptimize");
    }
    if (inst->alias_class() != nullptr && inst->opcode() != Opcode::kLoad &&
        inst->opcode() != Opcode::kStore) {
      InstError(b, inst, "an alias class on an instruction that is not a load or store");
    }
    if (inst->opcode() == Opcode::kAlloc &&
        (inst->imm() <= 0 || inst->imm() % 8 != 0 || inst->imm() > kMaxAllocBytes)) {
      InstError(b, inst,
                absl::StrCat("allocates ", inst->imm(), " bytes; expects a multiple of 8 in 8..",
                             kMaxAllocBytes));
    }
    CheckFrameStateUse(b, inst);
    CheckTargets(b, inst);
  }

  void CheckFrameStateUse(const Block* b, const Instruction* inst) {
    const FrameState* fs = inst->frame_state();
    const Opcode op = inst->opcode();
    const bool is_call = op == Opcode::kCallRuntime || op == Opcode::kCallTarget;
    if (!UsesFrameState(op)) {
      if (fs != nullptr) InstError(b, inst, "this opcode takes no frame state");
      return;
    }
    if (fs == nullptr) {
      if (!is_call) {
        InstError(b, inst, "needs an eager frame state");
      } else if (op == Opcode::kCallRuntime && inst->callee() != nullptr &&
                 inst->callee()->effects == RuntimeEffects::kMayDeopt) {
        InstError(b, inst, "callee may deoptimize: the call needs a lazy frame state");
      }
      return;
    }
    if (!known_frame_states_.contains(fs)) {
      known_frame_states_.clear();
      for (const FrameState* k : f_.frame_states()) known_frame_states_.insert(k);
      if (!known_frame_states_.contains(fs)) {
        InstError(b, inst, absl::StrCat("fs", fs->id, " does not belong to this function"));
        return;
      }
    }
    // A call's callee may walk the stack and read this activation's frame
    // (compiled_frames.h), which must then see one object per allocation:
    // escape analysis materializes objects before calls instead.
    for (const FrameState* f = fs; is_call && f != nullptr; f = f->parent) {
      if (f->NamesVirtualObjects()) {
        InstError(b, inst, absl::StrCat("lazy frame state fs", f->id,
                                        " references a virtual object"));
        break;
      }
    }
    DeoptKind want = is_call ? DeoptKind::kLazy : DeoptKind::kEager;
    if (fs->deopt_kind != want) {
      InstError(b, inst, absl::StrCat("needs ", want == DeoptKind::kLazy ? "a lazy" : "an eager",
                                      " frame state, fs", fs->id, " is ",
                                      want == DeoptKind::kLazy ? "eager" : "lazy"));
    }
  }

  void CheckTargets(const Block* b, const Instruction* inst) {
    size_t want = inst->opcode() == Opcode::kJump ? 1 : inst->opcode() == Opcode::kBr ? 2 : 0;
    if (inst->targets().size() != want) {
      InstError(b, inst, absl::StrCat("expects ", want, " block targets, has ",
                                      inst->targets().size()));
      return;
    }
    for (const BlockCall& t : inst->targets()) {
      if (t.block == nullptr || !in_function_.contains(t.block)) {
        InstError(b, inst, "branch target is not a block of this function");
        continue;
      }
      if (t.block == f_.entry()) {
        InstError(b, inst, "branches to the entry block");
      }
      const auto& params = t.block->params();
      if (params.size() != t.args.size()) {
        InstError(b, inst, absl::StrCat("passes ", t.args.size(), " arguments to block",
                                        t.block->id(), ", which has ", params.size(),
                                        " parameters"));
        continue;
      }
      for (size_t i = 0; i < params.size(); ++i) {
        if (t.args[i] != nullptr && t.args[i]->type() != params[i]->type()) {
          InstError(b, inst, absl::StrCat("argument ", ValueName(t.args[i]), " is ",
                                          TypeName(t.args[i]->type()), " but block",
                                          t.block->id(), " parameter ",
                                          ValueName(params[i]), " is ",
                                          TypeName(params[i]->type())));
        }
      }
    }
  }

  void CheckFrameState(const FrameState* fs) {
    std::string name = absl::StrCat("fs", fs->id);
    auto check_pair = [&](const ValuePair& p, absl::string_view where, bool allow_illegal) {
      if (p.is_illegal()) {
        if (!allow_illegal) Error(absl::StrCat(name, ": ", where, " entry is illegal"));
        return;
      }
      for (const Value* v : {p.payload, p.tag}) {
        if (v == nullptr && v == p.payload && p.object != nullptr) continue;
        if (v != nullptr && v == p.payload && p.object != nullptr) {
          Error(absl::StrCat(name, ": ", where, " pair has both a payload and an object"));
        } else if (v == nullptr) {
          Error(absl::StrCat(name, ": ", where, " pair has a missing half"));
        } else if (v->type() != Type::kI64) {
          Error(absl::StrCat(name, ": ", where, " value ", ValueName(v), " is ",
                             TypeName(v->type()), ", not i64"));
        }
      }
    };
    for (const ValuePair& p : fs->locals) check_pair(p, "local", true);
    for (const ValuePair& p : fs->stack) check_pair(p, "stack", false);
    for (const VirtualObject* object : const_cast<FrameState*>(fs)->VirtualObjects()) {
      CheckVirtualObject(name, *object);
    }
    absl::flat_hash_set<const FrameState*> seen = {fs};
    for (const FrameState* p = fs->parent; p != nullptr; p = p->parent) {
      if (!seen.insert(p).second) {
        Error(absl::StrCat(name, ": parent chain is cyclic"));
        break;
      }
    }
  }

  void CheckVirtualObject(absl::string_view fs_name, const VirtualObject& object) {
    std::string name = absl::StrCat(fs_name, ": vo", object.id);
    if (object.size <= 0 || object.size % 8 != 0 || object.size > kMaxAllocBytes) {
      Error(absl::StrCat(name, ": size ", object.size, " is not a multiple of 8 in 8..",
                         kMaxAllocBytes));
    }
    int64_t end = 0;  // of the previous field
    for (const VirtualObject::Field& field : object.fields) {
      const int width = ByteWidth(field.type);
      if (field.type != Type::kI32 && field.type != Type::kI64 && field.type != Type::kF64 &&
          field.type != Type::kPtr) {
        Error(absl::StrCat(name, ": field at ", field.offset, " has type ",
                           TypeName(field.type), " (i32, i64, f64 or ptr)"));
        continue;
      }
      if (field.offset < end || field.offset % width != 0 ||
          field.offset + width > object.size) {
        Error(absl::StrCat(name, ": field at ", field.offset,
                           " is out of order, misaligned, overlapping or out of bounds"));
      }
      end = field.offset + width;
      if ((field.value == nullptr) == (field.object == nullptr)) {
        Error(absl::StrCat(name, ": field at ", field.offset,
                           " needs exactly one of a value and an object"));
      } else if (field.object != nullptr
                     ? field.type != Type::kPtr && field.type != Type::kI64
                     : field.value->type() != field.type) {
        Error(absl::StrCat(name, ": field at ", field.offset, " stores a value of another type"));
      }
    }
    if ((object.existing_if == nullptr) != (object.existing == nullptr)) {
      Error(absl::StrCat(name, ": an existing value needs both its value and its condition"));
    } else if (object.existing_if != nullptr && (object.existing_if->type() != Type::kI64 ||
                                                 object.existing->type() != Type::kI64)) {
      Error(absl::StrCat(name, ": the existing value and its condition must be i64"));
    }
  }

  const Function& f_;
  DominatorTree dom_;
  absl::flat_hash_set<const Block*> in_function_;
  absl::flat_hash_map<const Instruction*, int> position_;
  absl::flat_hash_set<const FrameState*> known_frame_states_;
  std::vector<std::string> errors_;
};

}  // namespace

absl::Status Verify(const Function& function) { return Verifier(function).Run(); }

}  // namespace morel::ir
