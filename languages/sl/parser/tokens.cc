#include "languages/sl/parser/tokens.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace morel::sl {

std::string TokenDisplayName(int type) {
  switch (type) {
    case kTokEof: return "<EOF>";
    case kTokFunction: return "'function'";
    case kTokLParen: return "'('";
    case kTokComma: return "','";
    case kTokRParen: return "')'";
    case kTokLBrace: return "'{'";
    case kTokRBrace: return "'}'";
    case kTokBreak: return "'break'";
    case kTokSemicolon: return "';'";
    case kTokContinue: return "'continue'";
    case kTokDebugger: return "'debugger'";
    case kTokWhile: return "'while'";
    case kTokIf: return "'if'";
    case kTokElse: return "'else'";
    case kTokReturn: return "'return'";
    case kTokAssign: return "'='";
    case kTokDot: return "'.'";
    case kTokLBracket: return "'['";
    case kTokRBracket: return "']'";
    case kTokOr: return "'||'";
    case kTokAnd: return "'&&'";
    case kTokCompare: return "OP_COMPARE";
    case kTokAdd: return "OP_ADD";
    case kTokMul: return "OP_MUL";
    case kTokIdentifier: return "IDENTIFIER";
    case kTokString: return "STRING_LITERAL";
    case kTokNumber: return "NUMERIC_LITERAL";
    case TokenSet::kEpsilon: return "<EPSILON>";
    default: return "<INVALID>";
  }
}

std::string TokenSet::ToString() const {
  std::vector<std::string> names;
  for (int bit = 0; bit < 32; ++bit) {
    if (!bits_.test(bit)) continue;
    int type = bit == 0 ? kTokEof : bit == 31 ? kEpsilon : bit;
    names.push_back(TokenDisplayName(type));
  }
  if (names.empty()) return "{}";
  if (names.size() == 1) return names[0];
  return absl::StrCat("{", absl::StrJoin(names, ", "), "}");
}

}  // namespace morel::sl
