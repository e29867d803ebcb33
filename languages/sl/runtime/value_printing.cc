#include "languages/sl/runtime/value_printing.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "languages/sl/runtime/big_integer.h"
#include "languages/sl/runtime/sl_function.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/values.h"

namespace morel::sl {
namespace {

const char* TypeKindName(SLTypeKind kind) {
  switch (kind) {
    case SLTypeKind::kNull:
      return "NULL";
    case SLTypeKind::kNumber:
      return "Number";
    case SLTypeKind::kString:
      return "String";
    case SLTypeKind::kBoolean:
      return "Boolean";
    case SLTypeKind::kFunction:
      return "Function";
    case SLTypeKind::kObject:
      return "Object";
  }
  return "?";
}

SLTypeKind KindOfType(const Value& v) { return static_cast<SLTypeKind>(v.bits); }

}  // namespace

const char* TypeName(const Value& v) {
  switch (v.tag) {
    case kLongTag:
    case kBigIntegerTag:
      return "Number";
    case kBooleanTag:
      return "Boolean";
    case kStringTag:
      return "String";
    case kFunctionTag:
      return "Function";
    case kObjectTag:
      return "Object";
    case kNullTag:
      return "NULL";
    case kTypeTag:
      return TypeKindName(KindOfType(v));
    default:
      return "ANY";
  }
}

std::string DisplayString(const Value& v) {
  switch (v.tag) {
    case kLongTag:
    case kBigIntegerTag:
      return NumberToString(v);
    case kBooleanTag:
      return v.AsBoolean() ? "true" : "false";
    case kStringTag:
      return std::string(StringView(v));
    case kFunctionTag:
      return v.As<SLFunction>()->name();
    case kObjectTag:
      return "Object";
    case kNullTag:
      return "NULL";
    case kTypeTag:
      return TypeKindName(KindOfType(v));
    default:
      return "ANY";
  }
}

std::string ConcatString(const Value& v) {
  if (v.tag == kObjectTag || v.tag == kTypeTag) return "[foreign object]";
  return DisplayString(v);
}

std::string HostString(const Value& v) {
  switch (v.tag) {
    case kObjectTag:
      // The reference prints Java's identity hash here (IMPL-DEFINED).
      return absl::StrFormat("SLObject@%x",
                             static_cast<uint32_t>(v.bits >> 4));
    case kTypeTag:
      return absl::StrCat("SLType[", TypeKindName(KindOfType(v)), "]");
    default:
      return DisplayString(v);
  }
}

std::string TypeErrorValue(const Value& v) {
  switch (v.tag) {
    case kNullTag:
      return "NULL";
    case kTypeTag:
      return TypeKindName(KindOfType(v));
    case kStringTag:
      return absl::StrCat("String \"", StringView(v), "\"");
    case kIllegalTag:
      return "ANY";
    default:
      return absl::StrCat(TypeName(v), " ", DisplayString(v));
  }
}

}  // namespace morel::sl
