#include "engine/ir/printer.h"

#include <map>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace morel::ir {
namespace {

std::string Types(const std::vector<Type>& types) {
  return absl::StrCat(
      "(", absl::StrJoin(types, ", ", [](std::string* out, Type t) {
        absl::StrAppend(out, TypeName(t));
      }),
      ")");
}

std::string Values(const std::vector<Value*>& values) {
  return absl::StrJoin(values, ", ", [](std::string* out, const Value* v) {
    absl::StrAppend(out, ValueName(v));
  });
}

std::string ObjectName(const VirtualObject* object) { return absl::StrCat("vo", object->id); }

std::string FrameStateName(const FrameState* fs) {
  return fs == nullptr ? "<null>" : absl::StrCat("fs", fs->id);
}

std::string BlockCallText(const BlockCall& call) {
  std::string s = call.block == nullptr ? "<null>" : absl::StrCat("block", call.block->id());
  if (!call.args.empty()) absl::StrAppend(&s, "(", Values(call.args), ")");
  return s;
}

std::string Pair(const ValuePair& p) {
  if (p.is_illegal()) return "illegal";
  return absl::StrCat(p.object != nullptr ? ObjectName(p.object) : ValueName(p.payload), ":",
                      ValueName(p.tag));
}

std::string Pairs(const std::vector<ValuePair>& pairs) {
  return absl::StrCat("[", absl::StrJoin(pairs, ", ", [](std::string* out, const ValuePair& p) {
                        absl::StrAppend(out, Pair(p));
                      }),
                      "]");
}

std::string Quoted(const std::string& s) { return absl::StrCat("\"", absl::CEscape(s), "\""); }

// The reason of a guard/deopt and, if it keeps the code, `, keep_code`.
std::string ReasonAndAction(const Instruction& inst) {
  return absl::StrCat(Quoted(inst.reason()),
                      inst.deopt_action() == DeoptAction::kKeepCode ? ", keep_code" : "");
}

}  // namespace

std::string ValueName(const Value* v) {
  return v == nullptr ? "<null>" : absl::StrCat("v", v->id());
}

std::string PrintInstruction(const Instruction& inst) {
  std::string s;
  if (!inst.results().empty()) absl::StrAppend(&s, Values(inst.results()), " = ");
  absl::StrAppend(&s, OpcodeName(inst.opcode()));
  if (HasTypeSuffix(inst.opcode())) absl::StrAppend(&s, ".", TypeName(inst.type_suffix()));
  const std::vector<Value*>& ops = inst.operands();
  switch (inst.info().format) {
    case OpFormat::kConst:
      absl::StrAppend(&s, " ", inst.imm());
      break;
    case OpFormat::kPointerConst:
      absl::StrAppend(&s, absl::StrFormat(" 0x%x", static_cast<uint64_t>(inst.imm())));
      break;
    case OpFormat::kAllocFormat:
      absl::StrAppend(&s, " ", inst.imm());
      break;
    case OpFormat::kUnary:
    case OpFormat::kBinary:
    case OpFormat::kSelectFormat:
    case OpFormat::kConvert:
    case OpFormat::kReturnFormat:
      if (!ops.empty()) absl::StrAppend(&s, " ", Values(ops));
      break;
    case OpFormat::kCompare:
      absl::StrAppend(&s, " ", CondName(inst.cond()), " ", Values(ops));
      break;
    case OpFormat::kLoadFormat:
    case OpFormat::kStoreFormat:
      absl::StrAppend(&s, " ", Values(ops), ", ", inst.imm());
      if (inst.alias_class() != nullptr) {
        absl::StrAppend(&s, ", alias ", Quoted(inst.alias_class()->name()));
      }
      break;
    case OpFormat::kCallRuntimeFormat:
    case OpFormat::kCallTargetFormat: {
      if (inst.opcode() == Opcode::kCallRuntime) {
        absl::StrAppend(&s, " @", inst.callee() == nullptr ? "<null>" : inst.callee()->name);
      } else {
        absl::StrAppend(&s, " @", inst.imm());
      }
      std::vector<Type> result_types;
      for (const Value* v : inst.results()) result_types.push_back(v->type());
      absl::StrAppend(&s, "(", Values(ops), ") -> ", Types(result_types));
      if (inst.frame_state() != nullptr) {
        absl::StrAppend(&s, ", ", FrameStateName(inst.frame_state()));
      }
      break;
    }
    case OpFormat::kGuardFormat:
      absl::StrAppend(&s, " ", Values(ops), ", ", FrameStateName(inst.frame_state()), ", ",
                      ReasonAndAction(inst));
      break;
    case OpFormat::kSafepointFormat:
      absl::StrAppend(&s, " ", FrameStateName(inst.frame_state()));
      break;
    case OpFormat::kDeoptFormat:
      absl::StrAppend(&s, " ", FrameStateName(inst.frame_state()), ", ", ReasonAndAction(inst));
      break;
    case OpFormat::kJumpFormat:
      for (const BlockCall& t : inst.targets()) absl::StrAppend(&s, " ", BlockCallText(t));
      break;
    case OpFormat::kBrFormat:
      absl::StrAppend(&s, " ", Values(ops));
      for (const BlockCall& t : inst.targets()) absl::StrAppend(&s, ", ", BlockCallText(t));
      break;
    case OpFormat::kNullary:
      break;
  }
  return s;
}

std::string PrintVirtualObject(const VirtualObject& object) {
  return absl::StrCat(
      ObjectName(&object), " = object ", object.size, " [",
      absl::StrJoin(object.fields, ", ",
                    [](std::string* out, const VirtualObject::Field& field) {
                      absl::StrAppend(out, field.offset, ": ", TypeName(field.type), " ",
                                      field.object != nullptr ? ObjectName(field.object)
                                                              : ValueName(field.value));
                    }),
      "]",
      object.existing_if != nullptr ? absl::StrCat(" existing ", ValueName(object.existing), " if ",
                                                   ValueName(object.existing_if))
                                    : "");
}

std::string PrintFrameState(const FrameState& fs) {
  std::string s = absl::StrCat(FrameStateName(&fs), " = ",
                               fs.deopt_kind == DeoptKind::kEager ? "eager" : "lazy",
                               " interpreter target ", fs.call_target_id, " resume ",
                               fs.resume_point, " locals ", Pairs(fs.locals), " stack ",
                               Pairs(fs.stack));
  if (fs.parent != nullptr) absl::StrAppend(&s, " parent ", FrameStateName(fs.parent));
  return s;
}

std::string PrintBlockHeader(const Block& block) {
  std::string s = absl::StrCat("block", block.id());
  if (!block.params().empty()) {
    absl::StrAppend(&s, "(",
                    absl::StrJoin(block.params(), ", ",
                                  [](std::string* out, const Value* v) {
                                    absl::StrAppend(out, ValueName(v), ": ",
                                                    TypeName(v->type()));
                                  }),
                    ")");
  }
  absl::StrAppend(&s, ":");
  return s;
}

std::string PrintFunction(const Function& function) {
  std::string s = absl::StrCat("func @", function.name(), Types(function.param_types()), " -> ",
                               Types(function.result_types()), " {\n");
  for (const VirtualObject* object : function.ReferencedVirtualObjects()) {
    absl::StrAppend(&s, "  ", PrintVirtualObject(*object), "\n");
  }
  for (const FrameState* fs : function.frame_states()) {
    absl::StrAppend(&s, "  ", PrintFrameState(*fs), "\n");
  }
  for (const Block* b : function.blocks()) {
    absl::StrAppend(&s, PrintBlockHeader(*b), "\n");
    for (const Instruction* inst : b->instructions()) {
      absl::StrAppend(&s, "  ", PrintInstruction(*inst), "\n");
    }
  }
  absl::StrAppend(&s, "}\n");
  return s;
}

std::string PrintRuntimeDeclaration(const RuntimeFunction& f) {
  std::string s = absl::StrCat("declare @", f.name, Types(f.signature.params), " -> ",
                               Types(f.signature.results));
  if (f.effects == RuntimeEffects::kMayDeopt) absl::StrAppend(&s, " may_deopt");
  return s;
}

std::string PrintRuntimeDeclarations(const Function& function) {
  std::map<std::string, const RuntimeFunction*> used;
  for (const Block* b : function.blocks()) {
    for (const Instruction* inst : b->instructions()) {
      if (inst->opcode() == Opcode::kCallRuntime && inst->callee() != nullptr) {
        used[inst->callee()->name] = inst->callee();
      }
    }
  }
  std::string s;
  for (const auto& [name, f] : used) absl::StrAppend(&s, PrintRuntimeDeclaration(*f), "\n");
  return s;
}

std::ostream& operator<<(std::ostream& os, const Function& function) {
  return os << PrintFunction(function);
}

}  // namespace morel::ir
