#include "languages/sl/parser/lexer.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace morel::sl {
namespace {

constexpr uint32_t kEndOfInput = 0xFFFFFFFF;

// One decoded character and where it starts.
struct Char {
  uint32_t code_point;
  int byte_offset;
  int byte_length;
};

std::vector<Char> Decode(absl::string_view source) {
  std::vector<Char> chars;
  chars.reserve(source.size());
  int i = 0;
  const int n = static_cast<int>(source.size());
  while (i < n) {
    const auto b0 = static_cast<unsigned char>(source[i]);
    int length = 1;
    uint32_t cp = b0;
    if (b0 >= 0xC0 && b0 < 0xF8) {
      length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2;
      cp = b0 & (0x3F >> (length - 1));
      bool ok = i + length <= n;
      for (int k = 1; ok && k < length; ++k) {
        const auto b = static_cast<unsigned char>(source[i + k]);
        if ((b & 0xC0) != 0x80) ok = false;
        cp = (cp << 6) | (b & 0x3F);
      }
      if (!ok) {  // malformed: one character, like the decoder's U+FFFD
        length = 1;
        cp = 0xFFFD;
      }
    } else if (b0 >= 0x80) {
      cp = 0xFFFD;
    }
    chars.push_back({cp, i, length});
    i += length;
  }
  return chars;
}

bool IsLetter(uint32_t c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
         c == '$';
}
bool IsDigit(uint32_t c) { return c >= '0' && c <= '9'; }
bool IsWhitespace(uint32_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}

int KeywordType(absl::string_view text) {
  if (text == "function") return kTokFunction;
  if (text == "break") return kTokBreak;
  if (text == "continue") return kTokContinue;
  if (text == "debugger") return kTokDebugger;
  if (text == "while") return kTokWhile;
  if (text == "if") return kTokIf;
  if (text == "else") return kTokElse;
  if (text == "return") return kTokReturn;
  return kTokIdentifier;
}

class Lexer {
 public:
  explicit Lexer(absl::string_view source)
      : source_(source), chars_(Decode(source)) {}

  LexResult Run() {
    LexResult result;
    while (true) {
      const int start = pos_;
      const int start_line = line_, start_column = column_;
      const int start_char_index = char_index_;
      const uint32_t c = At(pos_);
      if (c == kEndOfInput) {
        Token eof;
        eof.type = kTokEof;
        eof.text = "<EOF>";
        eof.index = static_cast<int>(result.tokens.size());
        eof.line = line_;
        eof.column = column_;
        eof.char_index = char_index_;
        result.tokens.push_back(std::move(eof));
        return result;
      }
      int type = 0;
      int end = MatchToken(start, &type);  // exclusive; or -(fail pos) - 1
      if (end < 0) {
        const int fail = -end - 1;  // the character where matching failed
        const int last = fail < static_cast<int>(chars_.size())
                             ? fail
                             : static_cast<int>(chars_.size()) - 1;
        LexError error;
        error.token_index = static_cast<int>(result.tokens.size());
        error.line = start_line;
        error.column = start_column;
        error.message = absl::StrCat("token recognition error at: '",
                                     EscapeForError(start, last + 1), "'");
        result.error = std::move(error);
        return result;
      }
      Advance(end);
      if (type == 0) continue;  // whitespace or comment
      Token token;
      token.type = type;
      token.text = std::string(Text(start, end));
      if (type == kTokIdentifier) token.type = KeywordType(token.text);
      token.index = static_cast<int>(result.tokens.size());
      token.line = start_line;
      token.column = start_column;
      token.char_index = start_char_index;
      token.char_length = char_index_ - start_char_index;
      result.tokens.push_back(std::move(token));
    }
  }

 private:
  uint32_t At(int pos) const {
    return pos < static_cast<int>(chars_.size()) ? chars_[pos].code_point
                                                 : kEndOfInput;
  }

  absl::string_view Text(int begin, int end) const {
    if (begin >= end) return "";
    const int b = chars_[begin].byte_offset;
    const int e = chars_[end - 1].byte_offset + chars_[end - 1].byte_length;
    return source_.substr(b, e - b);
  }

  std::string EscapeForError(int begin, int end) const {
    std::string out;
    for (int i = begin; i < end; ++i) {
      switch (chars_[i].code_point) {
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default: out += std::string(Text(i, i + 1));
      }
    }
    return out;
  }

  void Advance(int end) {
    for (; pos_ < end; ++pos_) {
      const uint32_t c = chars_[pos_].code_point;
      const int units = c >= 0x10000 && c != 0xFFFD ? 2 : 1;
      char_index_ += units;
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else {
        column_ += units;
      }
    }
  }

  // Matches the longest token at `start`. Returns its exclusive end and sets
  // *type (0 for skipped text), or returns -(failing position) - 1.
  int MatchToken(int start, int* type) const {
    const uint32_t c = At(start);
    const uint32_t next = At(start + 1);
    auto fail_at = [](int pos) { return -pos - 1; };
    if (IsWhitespace(c)) {
      int p = start;
      while (IsWhitespace(At(p))) ++p;
      *type = 0;
      return p;
    }
    if (c == '/') {
      if (next == '/') {
        int p = start + 2;
        while (At(p) != kEndOfInput && At(p) != '\r' && At(p) != '\n') ++p;
        *type = 0;
        return p;
      }
      if (next == '*') {
        for (int p = start + 2; At(p) != kEndOfInput; ++p) {
          if (At(p) == '*' && At(p + 1) == '/') {
            *type = 0;
            return p + 2;
          }
        }
        // Unterminated: the comment rule never accepts; "/" alone does.
      }
      *type = kTokMul;
      return start + 1;
    }
    if (c == '*') { *type = kTokMul; return start + 1; }
    if (c == '+' || c == '-') { *type = kTokAdd; return start + 1; }
    if (c == '<' || c == '>') {
      *type = kTokCompare;
      return next == '=' ? start + 2 : start + 1;
    }
    if (c == '=') {
      if (next == '=') { *type = kTokCompare; return start + 2; }
      *type = kTokAssign;
      return start + 1;
    }
    if (c == '!') {
      if (next == '=') { *type = kTokCompare; return start + 2; }
      return fail_at(start + 1);
    }
    if (c == '&' || c == '|') {
      if (next == c) {
        *type = c == '&' ? kTokAnd : kTokOr;
        return start + 2;
      }
      return fail_at(start + 1);
    }
    switch (c) {
      case '(': *type = kTokLParen; return start + 1;
      case ')': *type = kTokRParen; return start + 1;
      case '{': *type = kTokLBrace; return start + 1;
      case '}': *type = kTokRBrace; return start + 1;
      case ',': *type = kTokComma; return start + 1;
      case ';': *type = kTokSemicolon; return start + 1;
      case '.': *type = kTokDot; return start + 1;
      case '[': *type = kTokLBracket; return start + 1;
      case ']': *type = kTokRBracket; return start + 1;
      default: break;
    }
    if (IsLetter(c)) {
      int p = start + 1;
      while (IsLetter(At(p)) || IsDigit(At(p))) ++p;
      *type = kTokIdentifier;  // keywords are recognized by the caller
      return p;
    }
    if (c == '0') { *type = kTokNumber; return start + 1; }
    if (IsDigit(c)) {
      int p = start + 1;
      while (IsDigit(At(p))) ++p;
      *type = kTokNumber;
      return p;
    }
    if (c == '"') {
      for (int p = start + 1;; ++p) {
        const uint32_t s = At(p);
        if (s == '"') { *type = kTokString; return p + 1; }
        if (s == kEndOfInput || s == '\r' || s == '\n') return fail_at(p);
      }
    }
    // TODO(#3): the reference works on UTF-16, so for a character outside
    // the BMP it reports only the first surrogate ('?'); we report the whole
    // character. Malformed UTF-8 bytes count as one character each.
    return fail_at(start);
  }

  absl::string_view source_;
  std::vector<Char> chars_;
  int pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  int char_index_ = 0;
};

}  // namespace

LexResult Lex(absl::string_view source) { return Lexer(source).Run(); }

}  // namespace morel::sl
