#ifndef MOREL_LANGUAGES_SL_PARSER_LEXER_H_
#define MOREL_LANGUAGES_SL_PARSER_LEXER_H_

// The SL lexer (sl_spec.md §2): ANTLR-style longest match, keywords beat
// identifiers, whitespace and comments skipped, an unterminated "/*" lexes as
// "/" "*", strings without escapes, "007" is three literals.

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "languages/sl/parser/tokens.h"

namespace morel::sl {

// A character sequence no token rule matches. The reference reports it only
// when the parser first asks for the token at `token_index`, so a syntax
// error found earlier wins.
struct LexError {
  int token_index = 0;  // index the failing token would have had
  int line = 1;         // position of the first character of the bad text
  int column = 1;
  // "token recognition error at: '<text>'" where <text> runs from the start of
  // the failed token up to and including the character where matching failed
  // (CR, LF, TAB shown as \r, \n, \t).
  std::string message;
};

struct LexResult {
  // Without an error: every token, the last one of type kTokEof. With an
  // error: the tokens before the failing one (no EOF token).
  std::vector<Token> tokens;
  std::optional<LexError> error;
};

// Lexes a whole source unit (UTF-8; malformed bytes count as one character
// each). Stops at the first unmatchable character.
LexResult Lex(absl::string_view source);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_LEXER_H_
