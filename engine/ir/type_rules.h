#ifndef MOREL_ENGINE_IR_TYPE_RULES_H_
#define MOREL_ENGINE_IR_TYPE_RULES_H_

// The typing rules of the opcode table (OperandRule, ResultRule), used by
// the builder and parser (result types) and the verifier (checks).

#include <optional>
#include <string>
#include <vector>

#include "engine/ir/instruction.h"
#include "engine/ir/types.h"

namespace morel::ir {

class Function;

// The result types the opcode table gives `inst`, from its operands' types
// (and type suffix, callee). nullopt if an operand type needed is
// kInvalid. For call_target the declared result types are the rule.
std::optional<std::vector<Type>> InferResultTypes(const Instruction& inst);

// The same rule for a not-yet-created single-result, non-call instruction.
std::optional<Type> InferSingleResultType(Opcode op, const std::vector<Value*>& operands,
                                          Type suffix);

// Checks the operand types of `inst` against its OperandRule (and, for
// return, `function`'s result types; for call_runtime, the callee's
// signature). Returns "" if they are fine, else a one-line description.
std::string CheckOperandTypes(const Instruction& inst, const Function& function);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_TYPE_RULES_H_
