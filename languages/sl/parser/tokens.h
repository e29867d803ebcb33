#ifndef MOREL_LANGUAGES_SL_PARSER_TOKENS_H_
#define MOREL_LANGUAGES_SL_PARSER_TOKENS_H_

// SL token types and token sets (sl_spec.md §2, §4.4). Token type numbers are
// those of the reference grammar; they order the "expecting {...}" sets of
// syntax-error messages.

#include <bitset>
#include <string>

namespace morel::sl {

enum TokenType : int {
  kTokEof = -1,
  kTokFunction = 1,
  kTokLParen = 2,
  kTokComma = 3,
  kTokRParen = 4,
  kTokLBrace = 5,
  kTokRBrace = 6,
  kTokBreak = 7,
  kTokSemicolon = 8,
  kTokContinue = 9,
  kTokDebugger = 10,
  kTokWhile = 11,
  kTokIf = 12,
  kTokElse = 13,
  kTokReturn = 14,
  kTokAssign = 15,
  kTokDot = 16,
  kTokLBracket = 17,
  kTokRBracket = 18,
  // 19-21 are the skipped WS, COMMENT and LINE_COMMENT rules.
  kTokOr = 22,
  kTokAnd = 23,
  kTokCompare = 24,
  kTokAdd = 25,
  kTokMul = 26,
  kTokIdentifier = 27,
  kTokString = 28,
  kTokNumber = 29,
};

// The name of a token type in "expecting" sets: the quoted literal for literal
// tokens, the rule name otherwise, "<EOF>" for end of input.
std::string TokenDisplayName(int type);

// One lexed token. Positions count UTF-16 code units like the reference
// (identical to characters for all-BMP text).
struct Token {
  int type = kTokEof;
  std::string text;     // the token's characters (UTF-8); "<EOF>" for EOF
  int index = 0;        // position in the token stream
  int line = 1;         // 1-based, counts LF
  int column = 1;       // 1-based, TAB counts as one
  int char_index = 0;   // 0-based offset of the first character
  int char_length = 0;  // 0 for EOF
};

// A set of token types plus the pseudo-types <EOF> and epsilon (the end of
// the rule is reachable), as ANTLR's IntervalSet used by the error strategy.
class TokenSet {
 public:
  static constexpr int kEpsilon = -2;

  void Add(int type) { bits_.set(Bit(type)); }
  void Remove(int type) { bits_.reset(Bit(type)); }
  bool Contains(int type) const { return bits_.test(Bit(type)); }
  void AddAll(const TokenSet& other) { bits_ |= other.bits_; }
  bool empty() const { return bits_.none(); }
  int size() const { return static_cast<int>(bits_.count()); }

  // ANTLR's IntervalSet.toString(vocabulary): one element bare, several as
  // "{a, b, c}" in token type order (<EOF> first).
  std::string ToString() const;

 private:
  // EOF -> 0 (type 0 is unused), epsilon -> 31, other types map to themselves.
  static int Bit(int type) {
    if (type == kTokEof) return 0;
    if (type == kEpsilon) return 31;
    return type;
  }
  std::bitset<32> bits_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_TOKENS_H_
