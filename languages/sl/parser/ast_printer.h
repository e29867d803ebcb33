#ifndef MOREL_LANGUAGES_SL_PARSER_AST_PRINTER_H_
#define MOREL_LANGUAGES_SL_PARSER_AST_PRINTER_H_

// A compact S-expression dump of the SL AST, for tests and debugging.
//
// Expressions (one line): `42`, `"text"`, `x@1` (local slot 1), `fn:foo`
// (global function), `(= x@1 V)`, `(+ L R)` (source operator), `(&& L R)`,
// `(call F A...)`, `(. R name)`, `([] R K)`, `(.= R name V)`,
// `([]= R K V)`, `(paren E)`.
// Programs: one line per function and per statement, nested statements
// indented by two spaces:
//   function f(a) slots=[a, x]
//     block
//       expr (= x@1 1)
//       while (< x@1 10)
//         block
//       if C / else, return E, return, break, continue, debugger

#include <string>

#include "languages/sl/parser/ast.h"

namespace morel::sl {

std::string PrintExpression(const ast::Expression& expression);
std::string PrintStatement(const ast::Statement& statement, int indent = 0);
std::string PrintFunction(const ast::Function& function);
std::string PrintProgram(const ast::Program& program);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_AST_PRINTER_H_
