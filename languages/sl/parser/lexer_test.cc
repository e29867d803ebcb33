#include "languages/sl/parser/lexer.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "languages/sl/parser/tokens.h"

namespace morel::sl {
namespace {

// "type:text" for every token but EOF.
std::vector<std::string> Describe(const LexResult& result) {
  std::vector<std::string> out;
  for (const Token& t : result.tokens) {
    if (t.type == kTokEof) break;
    out.push_back(std::to_string(t.type) + ":" + t.text);
  }
  return out;
}

std::vector<std::string> LexOk(const std::string& source) {
  LexResult result = Lex(source);
  EXPECT_FALSE(result.error.has_value()) << source;
  return Describe(result);
}

std::string LexErrorOf(const std::string& source) {
  LexResult result = Lex(source);
  if (!result.error.has_value()) return "<no error>";
  return result.error->message;
}

TEST(LexerTest, KeywordsBeatIdentifiersButLongestMatchWins) {
  EXPECT_EQ(LexOk("function functionX if iffy else return while break "
                  "continue debugger"),
            (std::vector<std::string>{"1:function", "27:functionX", "12:if",
                                      "27:iffy", "13:else", "14:return",
                                      "11:while", "7:break", "9:continue",
                                      "10:debugger"}));
}

TEST(LexerTest, IdentifiersUseAsciiLettersDigitsUnderscoreDollar) {
  EXPECT_EQ(LexOk("_a $b c9 null true"),
            (std::vector<std::string>{"27:_a", "27:$b", "27:c9", "27:null",
                                      "27:true"}));
}

TEST(LexerTest, Punctuation) {
  EXPECT_EQ(LexOk("(),{};=.[]"),
            (std::vector<std::string>{"2:(", "4:)", "3:,", "5:{", "6:}", "8:;",
                                      "15:=", "16:.", "17:[", "18:]"}));
}

TEST(LexerTest, OperatorsUseLongestMatch) {
  EXPECT_EQ(LexOk("< <= > >= == != = || && + - * /"),
            (std::vector<std::string>{"24:<", "24:<=", "24:>", "24:>=",
                                      "24:==", "24:!=", "15:=", "22:||",
                                      "23:&&", "25:+", "25:-", "26:*",
                                      "26:/"}));
  EXPECT_EQ(LexOk("a===b"),
            (std::vector<std::string>{"27:a", "24:==", "15:=", "27:b"}));
}

TEST(LexerTest, NumbersAreDecimalAndLeadingZeroStandsAlone) {
  EXPECT_EQ(LexOk("007 10 0x 1abc"),
            (std::vector<std::string>{"29:0", "29:0", "29:7", "29:10", "29:0",
                                      "27:x", "29:1", "27:abc"}));
  EXPECT_EQ(LexOk("123456789012345678901234567890"),
            (std::vector<std::string>{"29:123456789012345678901234567890"}));
}

TEST(LexerTest, StringsHaveNoEscapes) {
  EXPECT_EQ(LexOk(R"("a\b" "" "%d é")"),
            (std::vector<std::string>{R"(28:"a\b")", R"(28:"")",
                                      "28:\"%d é\""}));
}

TEST(LexerTest, CommentsAndWhitespaceAreSkipped) {
  EXPECT_EQ(LexOk("a /* x \n y */ b // c\r\nd\f\te"),
            (std::vector<std::string>{"27:a", "27:b", "27:d", "27:e"}));
  EXPECT_EQ(LexOk("a /* x */ */"),
            (std::vector<std::string>{"27:a", "26:*", "26:/"}));
  EXPECT_EQ(LexOk("a // only comment"), (std::vector<std::string>{"27:a"}));
}

TEST(LexerTest, UnterminatedBlockCommentIsSlashStar) {
  EXPECT_EQ(LexOk("/* abc }"),
            (std::vector<std::string>{"26:/", "26:*", "27:abc", "6:}"}));
}

TEST(LexerTest, PositionsCountLinesColumnsAndCharacters) {
  LexResult result = Lex("a\n\tbb  c\r\n\"é\" d");
  ASSERT_FALSE(result.error.has_value());
  const std::vector<Token>& t = result.tokens;
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].line, 1);
  EXPECT_EQ(t[0].column, 1);
  EXPECT_EQ(t[0].char_index, 0);
  EXPECT_EQ(t[1].line, 2);
  EXPECT_EQ(t[1].column, 2);  // TAB counts as one column
  EXPECT_EQ(t[1].char_index, 3);
  EXPECT_EQ(t[1].char_length, 2);
  EXPECT_EQ(t[2].column, 6);
  EXPECT_EQ(t[3].line, 3);  // CR does not start a line; LF does
  EXPECT_EQ(t[3].column, 1);
  EXPECT_EQ(t[3].char_length, 3);  // "é" is one character
  EXPECT_EQ(t[4].column, 5);
  EXPECT_EQ(t[4].char_index, 14);
  EXPECT_EQ(t[5].type, kTokEof);
  EXPECT_EQ(t[5].text, "<EOF>");
  EXPECT_EQ(t[5].line, 3);
  EXPECT_EQ(t[5].column, 6);
  for (int i = 0; i < static_cast<int>(t.size()); ++i) EXPECT_EQ(t[i].index, i);
}

TEST(LexerTest, EofPositionAfterTrailingNewline) {
  LexResult result = Lex("function\n");
  ASSERT_EQ(result.tokens.size(), 2u);
  EXPECT_EQ(result.tokens[1].line, 2);
  EXPECT_EQ(result.tokens[1].column, 1);
}

TEST(LexerTest, RecognitionErrorTextRunsToTheFailingCharacter) {
  EXPECT_EQ(LexErrorOf("x = !y;"), "token recognition error at: '!y'");
  EXPECT_EQ(LexErrorOf("!"), "token recognition error at: '!'");
  EXPECT_EQ(LexErrorOf("a & b"), "token recognition error at: '& '");
  EXPECT_EQ(LexErrorOf("a |b"), "token recognition error at: '|b'");
  EXPECT_EQ(LexErrorOf("#"), "token recognition error at: '#'");
  EXPECT_EQ(LexErrorOf("é"), "token recognition error at: 'é'");
  EXPECT_EQ(LexErrorOf("\\"), "token recognition error at: '\\'");
  EXPECT_EQ(LexErrorOf("50%"), "token recognition error at: '%'");
  EXPECT_EQ(LexErrorOf("println(\"abc); }"),
            "token recognition error at: '\"abc); }'");
  EXPECT_EQ(LexErrorOf("\"a\nb\""), "token recognition error at: '\"a\\n'");
  EXPECT_EQ(LexErrorOf("\"a\rb\""), "token recognition error at: '\"a\\r'");
  EXPECT_EQ(LexErrorOf("!\t"), "token recognition error at: '!\\t'");
}

TEST(LexerTest, RecognitionErrorKeepsEarlierTokensAndPosition) {
  LexResult result = Lex("a b\n  ? c");
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->token_index, 2);
  EXPECT_EQ(result.error->line, 2);
  EXPECT_EQ(result.error->column, 3);
  EXPECT_EQ(Describe(result), (std::vector<std::string>{"27:a", "27:b"}));
}

TEST(TokenSetTest, PrintsLikeAntlr) {
  TokenSet set;
  EXPECT_EQ(set.ToString(), "{}");
  set.Add(kTokSemicolon);
  EXPECT_EQ(set.ToString(), "';'");
  set.Add(kTokEof);
  set.Add(kTokNumber);
  set.Add(kTokOr);
  EXPECT_EQ(set.ToString(), "{<EOF>, ';', '||', NUMERIC_LITERAL}");
}

}  // namespace
}  // namespace morel::sl
