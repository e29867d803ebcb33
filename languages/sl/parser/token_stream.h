#ifndef MOREL_LANGUAGES_SL_PARSER_TOKEN_STREAM_H_
#define MOREL_LANGUAGES_SL_PARSER_TOKEN_STREAM_H_

// A buffered token stream with ANTLR's fetch discipline (tokens are "fetched"
// on demand: the current token after each consume, LT(k) up to k tokens
// ahead). A lexer error becomes visible only when its token is fetched, so
// whichever of a lexer or a syntax error the reference would report first is
// reported here too. The stream also latches the first error of a parse.

#include <optional>
#include <string>
#include <vector>

#include "languages/sl/parser/lexer.h"
#include "languages/sl/parser/tokens.h"

namespace morel::sl {

// The first error of a parse, reported at line:column.
struct SyntaxError {
  int line = 1;
  int column = 1;
  std::string message;
};

class TokenStream {
 public:
  explicit TokenStream(LexResult lexed);

  int index() const { return p_; }
  // The number of tokens lexed (up to a lexer error), EOF included.
  int size() const { return static_cast<int>(tokens_.size()); }
  void Seek(int index) { p_ = index; }

  // The k-th token from the current one (k >= 1). Past the end: the EOF
  // token. If the token's text could not be lexed, latches the lexer error and
  // returns an EOF token.
  const Token& LT(int k);
  int LA(int k) { return LT(k).type; }
  // The token before the current one (k = -1 in ANTLR), or null.
  const Token* Previous() const;
  // A token already fetched (prediction and error texts).
  const Token& Get(int index) const;
  // Moves to the next token (not past EOF) and fetches it.
  void Consume();

  // Records an error unless one is already recorded.
  void Fail(SyntaxError error);
  bool failed() const { return error_.has_value(); }
  const std::optional<SyntaxError>& error() const { return error_; }

 private:
  // Makes token `index` available; false (after latching the lexer error) if
  // it is the token the lexer failed on.
  bool Fetch(int index);

  std::vector<Token> tokens_;
  std::optional<LexError> lex_error_;
  Token eof_;  // returned on lexer failure
  int p_ = 0;
  std::optional<SyntaxError> error_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_TOKEN_STREAM_H_
