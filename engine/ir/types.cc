#include "engine/ir/types.h"

#include <array>

namespace morel::ir {
namespace {

constexpr std::array<absl::string_view, kNumConds> kCondNames = {
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};

}  // namespace

absl::string_view TypeName(Type type) {
  switch (type) {
    case Type::kInvalid: return "<invalid>";
    case Type::kI1: return "i1";
    case Type::kI32: return "i32";
    case Type::kI64: return "i64";
    case Type::kF64: return "f64";
    case Type::kPtr: return "ptr";
  }
  return "<invalid>";
}

std::optional<Type> ParseType(absl::string_view name) {
  for (Type t : {Type::kI1, Type::kI32, Type::kI64, Type::kF64, Type::kPtr}) {
    if (TypeName(t) == name) return t;
  }
  return std::nullopt;
}

int BitWidth(Type type) {
  switch (type) {
    case Type::kI1: return 1;
    case Type::kI32: return 32;
    default: return 64;
  }
}

int ByteWidth(Type type) {
  switch (type) {
    case Type::kI1: return 1;
    case Type::kI32: return 4;
    default: return 8;
  }
}

bool IsInteger(Type type) {
  return type == Type::kI1 || type == Type::kI32 || type == Type::kI64;
}

absl::string_view CondName(Cond cond) { return kCondNames[static_cast<int>(cond)]; }

std::optional<Cond> ParseCond(absl::string_view name) {
  for (int i = 0; i < kNumConds; ++i) {
    if (kCondNames[i] == name) return static_cast<Cond>(i);
  }
  return std::nullopt;
}

Cond InverseCond(Cond cond) {
  switch (cond) {
    case Cond::kEq: return Cond::kNe;
    case Cond::kNe: return Cond::kEq;
    case Cond::kSlt: return Cond::kSge;
    case Cond::kSle: return Cond::kSgt;
    case Cond::kSgt: return Cond::kSle;
    case Cond::kSge: return Cond::kSlt;
    case Cond::kUlt: return Cond::kUge;
    case Cond::kUle: return Cond::kUgt;
    case Cond::kUgt: return Cond::kUle;
    case Cond::kUge: return Cond::kUlt;
  }
  return cond;
}

Cond SwapCond(Cond cond) {
  switch (cond) {
    case Cond::kEq: return Cond::kEq;
    case Cond::kNe: return Cond::kNe;
    case Cond::kSlt: return Cond::kSgt;
    case Cond::kSle: return Cond::kSge;
    case Cond::kSgt: return Cond::kSlt;
    case Cond::kSge: return Cond::kSle;
    case Cond::kUlt: return Cond::kUgt;
    case Cond::kUle: return Cond::kUge;
    case Cond::kUgt: return Cond::kUlt;
    case Cond::kUge: return Cond::kUle;
  }
  return cond;
}

}  // namespace morel::ir
