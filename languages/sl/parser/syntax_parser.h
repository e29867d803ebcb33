#ifndef MOREL_LANGUAGES_SL_PARSER_SYNTAX_PARSER_H_
#define MOREL_LANGUAGES_SL_PARSER_SYNTAX_PARSER_H_

// Recursive-descent parser for the reference SL grammar (sl_spec.md §3.1):
//
//   simplelanguage : function function* EOF ;
//   function   : 'function' IDENTIFIER '(' (IDENTIFIER (',' IDENTIFIER)*)? ')'
//                block ;
//   block      : '{' statement* '}' ;
//   statement  : while_statement | break_statement | continue_statement
//              | if_statement | return_statement | expression_statement
//              | debugger_statement ;
//   expression : logic_term (OP_OR logic_term)* ;            (and so on down)
//   factor     : IDENTIFIER member_expression* | STRING_LITERAL
//              | NUMERIC_LITERAL | '(' expression ')' ;
//   member_expression : '(' (expression (',' expression)*)? ')'
//              | '=' expression | '.' IDENTIFIER | '[' expression ']' ;
//
// Each rule follows the code ANTLR generates for it (the same states, syncs,
// LL(1) tests and adaptive predictions), so the first syntax error and its
// message are the reference's.

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "languages/sl/parser/syntax.h"
#include "languages/sl/parser/token_stream.h"

namespace morel::sl {

// The deepest syntax tree ParseSyntax accepts, in tree levels: a block, a
// statement, a binary operator, a parenthesized expression and each element
// of a member chain is one level below its parent (`1 + 1 + ... + 1` with n
// terms is n levels deep, as its AST is). Everything downstream (scoping,
// node building, the interpreter, partial evaluation) recurses over the tree,
// so this bounds their native stack; README.md gives the measurements the
// value comes from. Deeper sources get the syntax error "nesting too deep".
inline constexpr int kMaxNestingDepth = 1000;

// "nesting too deep (more than <kMaxNestingDepth> levels)".
std::string NestingTooDeepMessage();

// Formats a parse error the way the reference does (sl_spec.md §4.3).
std::string FormatParseError(int line, int column, absl::string_view message);

// How ParseSyntax predicts. Both give the same tree or the same error on
// every input; kLlOnly is the reference's algorithm as it is (quadratic on
// ambiguous expressions such as `x = 1 + 1 + ... + 1`), kept to test
// kSllThenLl against.
enum class ParseStrategy {
  kSllThenLl,  // PredictionMode::kSll; on an error, again in kLl
  kLlOnly,     // PredictionMode::kLl
};

// Lexes and parses a source unit. On the first lexer or syntax error returns
// InvalidArgumentError with FormatParseError's text. A unit without syntax
// errors but nested deeper than kMaxNestingDepth gets the error "nesting too
// deep (more than N levels)" at the earliest token of a construct below
// that depth; a unit nested so deep that the parser's own recursion would
// exceed Recognizer::kMaxRuleDepth gets it where the parser stops, unless a
// syntax error comes first.
absl::StatusOr<syntax::Unit> ParseSyntax(
    absl::string_view source,
    ParseStrategy strategy = ParseStrategy::kSllThenLl);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_SYNTAX_PARSER_H_
