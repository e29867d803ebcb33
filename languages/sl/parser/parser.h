#ifndef MOREL_LANGUAGES_SL_PARSER_PARSER_H_
#define MOREL_LANGUAGES_SL_PARSER_PARSER_H_

// The SL front end: lexing, parsing, scoping and semantic checks
// (sl_spec.md §2-§4). See README.md in this directory.

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "languages/sl/parser/ast.h"

namespace morel::sl {

// Parses a whole SL source unit. On error returns InvalidArgumentError whose
// message is exactly "Error(s) parsing script:\n-- line L col C: <message>"
// (sl_spec §4.3; only the first error). Syntax errors win over semantic
// errors: the whole unit is parsed before scoping and semantic checks run.
absl::StatusOr<std::unique_ptr<ast::Program>> ParseProgram(
    absl::string_view source, absl::string_view source_name);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_PARSER_H_
