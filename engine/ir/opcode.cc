#include "engine/ir/opcode.h"

#include <array>

namespace morel::ir {
namespace {

constexpr std::array<OpcodeInfo, kNumOpcodes> kOpcodeTable = {{
#define MOREL_IR_OPCODE(id, name, format, arity, operands, result, effects, doc) \
  {Opcode::id,        name,                 OpFormat::format,                   \
   arity,             OperandRule::operands, ResultRule::result,                \
   Effects::effects,  doc},
#include "engine/ir/opcodes.def"
#undef MOREL_IR_OPCODE
}};

// The table is indexed by the enum; make sure the two orders agree.
constexpr bool TableIsInEnumOrder() {
  for (int i = 0; i < kNumOpcodes; ++i) {
    if (static_cast<int>(kOpcodeTable[i].opcode) != i) return false;
  }
  return true;
}
static_assert(TableIsInEnumOrder());

}  // namespace

const OpcodeInfo& GetOpcodeInfo(Opcode opcode) {
  return kOpcodeTable[static_cast<int>(opcode)];
}

absl::string_view OpcodeName(Opcode opcode) { return GetOpcodeInfo(opcode).name; }

std::optional<Opcode> OpcodeFromName(absl::string_view name) {
  for (const OpcodeInfo& info : kOpcodeTable) {
    if (info.name == name) return info.opcode;
  }
  return std::nullopt;
}

bool HasTypeSuffix(Opcode op) {
  switch (GetOpcodeInfo(op).format) {
    case OpFormat::kConst:
    case OpFormat::kConvert:
    case OpFormat::kLoadFormat:
    case OpFormat::kStoreFormat:
      return true;
    default:
      return false;
  }
}

bool UsesFrameState(Opcode op) {
  switch (GetOpcodeInfo(op).format) {
    case OpFormat::kGuardFormat:
    case OpFormat::kSafepointFormat:
    case OpFormat::kDeoptFormat:
    case OpFormat::kCallRuntimeFormat:
    case OpFormat::kCallTargetFormat:
      return true;
    default:
      return false;
  }
}

bool HasReason(Opcode op) { return op == Opcode::kGuard || op == Opcode::kDeopt; }

bool IsCommutative(Opcode op) {
  switch (op) {
    case Opcode::kIadd:
    case Opcode::kImul:
    case Opcode::kIaddOverflows:
    case Opcode::kImulOverflows:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
    case Opcode::kFadd:
    case Opcode::kFmul:
      return true;
    default:
      return false;
  }
}

}  // namespace morel::ir
