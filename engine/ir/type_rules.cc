#include "engine/ir/type_rules.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"
#include "engine/ir/value.h"

namespace morel::ir {
namespace {

Type TypeOf(const Value* v) { return v == nullptr ? Type::kInvalid : v->type(); }

std::string TypeList(const std::vector<Value*>& values) {
  return absl::StrJoin(values, ", ", [](std::string* out, const Value* v) {
    absl::StrAppend(out, TypeName(TypeOf(v)));
  });
}

std::string TypeList(const std::vector<Type>& types) {
  return absl::StrJoin(types, ", ", [](std::string* out, Type t) {
    absl::StrAppend(out, TypeName(t));
  });
}

bool OneOf(Type t, std::initializer_list<Type> allowed) {
  for (Type a : allowed) {
    if (t == a) return true;
  }
  return false;
}

std::string ExpectSame(const Instruction& inst, std::initializer_list<Type> allowed,
                       absl::string_view what) {
  Type a = TypeOf(inst.operand(0)), b = TypeOf(inst.operand(1));
  if (a != b) {
    return absl::StrCat("operand types differ (", TypeName(a), " vs ", TypeName(b), ")");
  }
  if (!OneOf(a, allowed)) return absl::StrCat("operands must be ", what, ", not ", TypeName(a));
  return "";
}

std::string ExpectOne(const Instruction& inst, std::initializer_list<Type> allowed,
                      absl::string_view what) {
  Type a = TypeOf(inst.operand(0));
  if (!OneOf(a, allowed)) return absl::StrCat("operand must be ", what, ", not ", TypeName(a));
  return "";
}

}  // namespace

std::optional<Type> InferSingleResultType(Opcode op, const std::vector<Value*>& operands,
                                          Type suffix) {
  const ResultRule rule = GetOpcodeInfo(op).result;
  switch (rule) {
    case ResultRule::kSuffixType: return suffix;
    case ResultRule::kPtrResult: return Type::kPtr;
    case ResultRule::kBoolResult: return Type::kI1;
    case ResultRule::kSameAsOperand0:
    case ResultRule::kSameAsOperand1: {
      size_t i = rule == ResultRule::kSameAsOperand0 ? 0 : 1;
      Type t = i < operands.size() ? TypeOf(operands[i]) : Type::kInvalid;
      if (t == Type::kInvalid) return std::nullopt;
      return t;
    }
    default: return std::nullopt;
  }
}

std::optional<std::vector<Type>> InferResultTypes(const Instruction& inst) {
  const OpcodeInfo& info = inst.info();
  auto operand_type = [&](int i) -> Type {
    return i < static_cast<int>(inst.operands().size()) ? TypeOf(inst.operand(i))
                                                        : Type::kInvalid;
  };
  switch (info.result) {
    case ResultRule::kNoResult: return std::vector<Type>{};
    case ResultRule::kSuffixType: return std::vector<Type>{inst.type_suffix()};
    case ResultRule::kPtrResult: return std::vector<Type>{Type::kPtr};
    case ResultRule::kBoolResult: return std::vector<Type>{Type::kI1};
    case ResultRule::kSameAsOperand0:
    case ResultRule::kSameAsOperand1: {
      Type t = operand_type(info.result == ResultRule::kSameAsOperand0 ? 0 : 1);
      if (t == Type::kInvalid) return std::nullopt;
      return std::vector<Type>{t};
    }
    case ResultRule::kCallResults: {
      if (inst.opcode() == Opcode::kCallRuntime && inst.callee() != nullptr) {
        return inst.callee()->signature.results;
      }
      std::vector<Type> types;
      for (const Value* v : inst.results()) types.push_back(v->type());
      return types;
    }
  }
  return std::nullopt;
}

std::string CheckOperandTypes(const Instruction& inst, const Function& function) {
  const OpcodeInfo& info = inst.info();
  const int n = static_cast<int>(inst.operands().size());
  if (info.arity >= 0 && n != info.arity) {
    return absl::StrCat("expects ", info.arity, " operands, has ", n);
  }
  for (const Value* v : inst.operands()) {
    if (v == nullptr) return "null operand";
  }
  const Type suffix = inst.type_suffix();
  switch (info.operands) {
    case OperandRule::kNoOperands:
      if (inst.opcode() == Opcode::kIconst && !IsInteger(suffix)) {
        return absl::StrCat("iconst type must be i1, i32 or i64, not ", TypeName(suffix));
      }
      return "";
    case OperandRule::kInt: return ExpectOne(inst, {Type::kI32, Type::kI64}, "i32 or i64");
    case OperandRule::kBits:
      return ExpectOne(inst, {Type::kI1, Type::kI32, Type::kI64}, "i1, i32 or i64");
    case OperandRule::kSameInt: return ExpectSame(inst, {Type::kI32, Type::kI64}, "i32 or i64");
    case OperandRule::kSameBits:
      return ExpectSame(inst, {Type::kI1, Type::kI32, Type::kI64}, "i1, i32 or i64");
    case OperandRule::kSameComparable:
      return ExpectSame(inst, {Type::kI1, Type::kI32, Type::kI64, Type::kPtr},
                        "i1, i32, i64 or ptr");
    case OperandRule::kSameF64: return ExpectSame(inst, {Type::kF64}, "f64");
    case OperandRule::kSelectOperands: {
      if (TypeOf(inst.operand(0)) != Type::kI1) {
        return absl::StrCat("select condition must be i1, not ",
                            TypeName(TypeOf(inst.operand(0))));
      }
      Type a = TypeOf(inst.operand(1)), b = TypeOf(inst.operand(2));
      if (a != b) {
        return absl::StrCat("select operand types differ (", TypeName(a), " vs ",
                            TypeName(b), ")");
      }
      return "";
    }
    case OperandRule::kExtend: {
      Type a = TypeOf(inst.operand(0));
      if (!OneOf(a, {Type::kI1, Type::kI32}) || !OneOf(suffix, {Type::kI32, Type::kI64}) ||
          BitWidth(a) >= BitWidth(suffix)) {
        return absl::StrCat("cannot extend ", TypeName(a), " to ", TypeName(suffix));
      }
      return "";
    }
    case OperandRule::kTruncate: {
      Type a = TypeOf(inst.operand(0));
      if (!OneOf(a, {Type::kI32, Type::kI64}) || !OneOf(suffix, {Type::kI1, Type::kI32}) ||
          BitWidth(a) <= BitWidth(suffix)) {
        return absl::StrCat("cannot truncate ", TypeName(a), " to ", TypeName(suffix));
      }
      return "";
    }
    case OperandRule::kBitcastOperand: {
      Type a = TypeOf(inst.operand(0));
      if (!OneOf(a, {Type::kI64, Type::kF64, Type::kPtr}) ||
          !OneOf(suffix, {Type::kI64, Type::kF64, Type::kPtr}) || a == suffix) {
        return absl::StrCat("cannot bitcast ", TypeName(a), " to ", TypeName(suffix));
      }
      return "";
    }
    case OperandRule::kAddress:
      if (suffix == Type::kInvalid) return "load needs a type suffix";
      return ExpectOne(inst, {Type::kPtr}, "ptr");
    case OperandRule::kValueAndAddress:
      if (TypeOf(inst.operand(0)) != suffix) {
        return absl::StrCat("stored value is ", TypeName(TypeOf(inst.operand(0))),
                            ", not ", TypeName(suffix));
      }
      if (TypeOf(inst.operand(1)) != Type::kPtr) {
        return absl::StrCat("address must be ptr, not ", TypeName(TypeOf(inst.operand(1))));
      }
      return "";
    case OperandRule::kCondition: return ExpectOne(inst, {Type::kI1}, "i1");
    case OperandRule::kCallArguments: {
      if (inst.opcode() != Opcode::kCallRuntime) return "";
      if (inst.callee() == nullptr) return "call_runtime without a callee";
      const RuntimeSignature& sig = inst.callee()->signature;
      bool ok = sig.params.size() == inst.operands().size();
      for (size_t i = 0; ok && i < sig.params.size(); ++i) {
        ok = sig.params[i] == TypeOf(inst.operand(static_cast<int>(i)));
      }
      if (!ok) {
        return absl::StrCat("arguments (", TypeList(inst.operands()), ") do not match @",
                            inst.callee()->name, "(", TypeList(sig.params), ")");
      }
      return "";
    }
    case OperandRule::kReturnValues: {
      bool ok = function.result_types().size() == inst.operands().size();
      for (size_t i = 0; ok && i < function.result_types().size(); ++i) {
        ok = function.result_types()[i] == TypeOf(inst.operand(static_cast<int>(i)));
      }
      if (!ok) {
        return absl::StrCat("returns (", TypeList(inst.operands()),
                            ") but the function returns (",
                            TypeList(function.result_types()), ")");
      }
      return "";
    }
  }
  return "";
}

}  // namespace morel::ir
