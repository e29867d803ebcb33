#include "engine/ir/lexer.h"

#include <cctype>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace morel::ir {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

}  // namespace

std::string PositionedMessage(int line, int column, absl::string_view message) {
  return absl::StrCat("line ", line, ", column ", column, ": ", message);
}

absl::StatusOr<std::vector<Token>> Tokenize(absl::string_view text) {
  std::vector<Token> tokens;
  int line = 1, column = 1;
  size_t i = 0;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n && i < text.size(); ++k, ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == ';') {
      while (i < text.size() && text[i] != '\n') advance(1);
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
      continue;
    }
    Token tok{TokenKind::kPunct, "", line, column};
    size_t start = i;
    if (IsIdentStart(c)) {
      while (i < text.size() && IsIdentChar(text[i])) advance(1);
      tok.kind = TokenKind::kIdent;
      tok.text = std::string(text.substr(start, i - start));
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      advance(2);
      tok.kind = TokenKind::kArrow;
      tok.text = "->";
    } else if (IsDigit(c) || (c == '-' && i + 1 < text.size() && IsDigit(text[i + 1]))) {
      advance(1);
      if (c == '0' && i < text.size() && (text[i] == 'x' || text[i] == 'X')) {
        advance(1);
        while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i]))) advance(1);
      } else {
        while (i < text.size() && IsDigit(text[i])) advance(1);
      }
      tok.kind = TokenKind::kInt;
      tok.text = std::string(text.substr(start, i - start));
    } else if (c == '@') {
      advance(1);
      size_t name_start = i;
      while (i < text.size() && (IsIdentChar(text[i]) || text[i] == '$')) advance(1);
      if (i == name_start) {
        return absl::InvalidArgumentError(
            PositionedMessage(tok.line, tok.column, "expected a name after '@'"));
      }
      tok.kind = TokenKind::kGlobal;
      tok.text = std::string(text.substr(name_start, i - name_start));
    } else if (c == '"') {
      advance(1);
      std::string raw;
      while (i < text.size() && text[i] != '"' && text[i] != '\n') {
        if (text[i] == '\\' && i + 1 < text.size()) {
          raw += text[i];
          advance(1);
        }
        raw += text[i];
        advance(1);
      }
      if (i >= text.size() || text[i] != '"') {
        return absl::InvalidArgumentError(
            PositionedMessage(tok.line, tok.column, "unterminated string"));
      }
      advance(1);
      std::string error;
      if (!absl::CUnescape(raw, &tok.text, &error)) {
        return absl::InvalidArgumentError(
            PositionedMessage(tok.line, tok.column, absl::StrCat("bad string: ", error)));
      }
      tok.kind = TokenKind::kString;
    } else if (std::string_view("(),:=[]{}").find(c) != std::string_view::npos) {
      advance(1);
      tok.text = std::string(1, c);
    } else {
      return absl::InvalidArgumentError(PositionedMessage(
          line, column, absl::StrCat("unexpected character '", std::string(1, c), "'")));
    }
    tokens.push_back(std::move(tok));
  }
  tokens.push_back(Token{TokenKind::kEof, "", line, column});
  return tokens;
}

}  // namespace morel::ir
