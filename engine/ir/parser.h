#ifndef MOREL_ENGINE_IR_PARSER_H_
#define MOREL_ENGINE_IR_PARSER_H_

// Parser for the text form printed by printer.h. Value, block and frame
// state numbers are kept as written, so printing a parsed function gives
// back the same text (modulo comments and spacing). Values may be used
// before the line that defines them (any layout order is accepted); result
// types are inferred from the opcode table.
//
// The parser checks syntax, names (undefined or twice-defined values,
// blocks, frame states, unknown runtime functions, opcodes, types) and the
// number of results; everything else (types, dominance, terminators) is the
// verifier's job, so ill-formed IR can be written down for verifier tests.
// Errors read "line L, column C: message".
//
// `@name` in call_runtime resolves through `registry`; `declare` lines in
// the text register into it (a declaration that conflicts with an existing
// entry is an error).

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"

namespace morel::ir {

// All functions in `text`, in order.
absl::StatusOr<std::vector<std::unique_ptr<Function>>> ParseFunctions(
    absl::string_view text, RuntimeRegistry* registry);

// Exactly one function.
absl::StatusOr<std::unique_ptr<Function>> ParseFunction(absl::string_view text,
                                                        RuntimeRegistry* registry);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_PARSER_H_
