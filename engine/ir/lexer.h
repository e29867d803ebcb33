#ifndef MOREL_ENGINE_IR_LEXER_H_
#define MOREL_ENGINE_IR_LEXER_H_

// Tokens of the IR text form (see printer.h for the grammar). Internal to
// the parser; exposed for its tests.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace morel::ir {

enum class TokenKind {
  kIdent,   // [A-Za-z_][A-Za-z0-9_.]*: keywords, v3, block2, fs1, iadd, load.i64
  kInt,     // -?[0-9]+ or 0x[0-9a-fA-F]+ (text kept verbatim)
  kString,  // "..." with C escapes; text is the unescaped contents
  kGlobal,  // @name or @123; text is without the '@'
  kPunct,   // ( ) , : = [ ] { }
  kArrow,   // ->
  kEof,
};

struct Token {
  TokenKind kind;
  std::string text;
  int line;    // 1-based
  int column;  // 1-based
};

// Splits `text` into tokens; comments (';' to end of line) are dropped. The
// last token is kEof. Errors read "line L, column C: ...".
absl::StatusOr<std::vector<Token>> Tokenize(absl::string_view text);

// "line L, column C: message".
std::string PositionedMessage(int line, int column, absl::string_view message);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_LEXER_H_
