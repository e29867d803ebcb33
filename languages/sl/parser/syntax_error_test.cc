// Syntax errors: every row of sl_spec.md §4.4 "Messages observed for the
// reference grammar", the two suite tests ParseError01/02 byte for byte, and
// further consequences of ANTLR's DefaultErrorStrategy.

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "languages/sl/parser/parser.h"

namespace morel::sl {
namespace {

// The error message of parsing `source`, or "<ok>".
std::string ErrorOf(const std::string& source) {
  auto program = ParseProgram(source, "test.sl");
  if (program.ok()) return "<ok>";
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(program.status().message());
}

std::string Expected(const std::string& where_and_message) {
  return "Error(s) parsing script:\n-- " + where_and_message;
}

struct Row {
  const char* name;
  const char* source;
  const char* error;  // "line L col C: message"
};

// `function main() { ` is 18 characters: the body starts at column 19.
const Row kObservedRows[] = {
    {"UnaryMinusInReturn", "function main() { return -1; }",
     "line 1 col 26: extraneous input '-' expecting {'(', ';', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"UnaryMinusInNestedAssignment",
     "function main() { if (1 == 1) { a = -1; } }",
     "line 1 col 37: extraneous input '-' expecting {'(', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"EmptyFile", "",
     "line 1 col 1: mismatched input '<EOF>' expecting 'function'"},
    {"FunctionWithoutParameters", "function main",
     "line 1 col 14: mismatched input '<EOF>' expecting '('"},
    {"FunctionKeywordAlone", "function\n",
     "line 2 col 1: mismatched input '<EOF>' expecting IDENTIFIER"},
    {"KeywordAsFunctionName", "function if() {}",
     "line 1 col 10: mismatched input 'if' expecting IDENTIFIER"},
    {"TrailingCommaInParameters", "function main(a,) {}",
     "line 1 col 17: missing IDENTIFIER at ')'"},
    {"NumberAsParameter", "function main(1) {}",
     "line 1 col 15: extraneous input '1' expecting {')', IDENTIFIER}"},
    {"TopLevelStatement", "x = 1; function main() {}",
     "line 1 col 1: missing 'function' at 'x'"},
    {"ExtraClosingBrace", "function main() { } }",
     "line 1 col 21: extraneous input '}' expecting {<EOF>, 'function'}"},
    {"UnclosedBody", "function main() {",
     "line 1 col 18: mismatched input '<EOF>' expecting {'(', '}', 'break', "
     "'continue', 'debugger', 'while', 'if', 'return', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"BareBlock", "function main() { { x = 1; } }",
     "line 1 col 19: extraneous input '{' expecting {'(', '}', 'break', "
     "'continue', 'debugger', 'while', 'if', 'return', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"EmptyStatement", "function main() { ; }",
     "line 1 col 19: extraneous input ';' expecting {'(', '}', 'break', "
     "'continue', 'debugger', 'while', 'if', 'return', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"NestedFunction", "function main() { function f() {} }",
     "line 1 col 19: extraneous input 'function' expecting {'(', '}', "
     "'break', 'continue', 'debugger', 'while', 'if', 'return', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"ElseIf", "function main() { if (1 == 1) { } else if (1 == 2) { } }",
     "line 1 col 40: missing '{' at 'if'"},
    {"ElseWithoutBlock", "function main() { if (1 == 1) { } else }",
     "line 1 col 40: missing '{' at '}'"},
    {"IfWithoutBraces", "function main() { if (1 == 1) x = 1; }",
     "line 1 col 31: missing '{' at 'x'"},
    {"IfWithoutParentheses", "function main() { if 1 == 1 { } }",
     "line 1 col 22: missing '(' at '1'"},
    {"WhileWithEmptyStatement", "function main() { while (1 == 1); }",
     "line 1 col 33: mismatched input ';' expecting {')', '||', '&&', OP_ADD, "
     "OP_MUL}"},
    {"MissingSemicolonBeforeNextLine", "function main() {\n  x = 1\n  y = 2;\n}",
     "line 3 col 3: missing ';' at 'y'"},
    {"ReturnWithoutSemicolon", "function main() { return }",
     "line 1 col 26: mismatched input '}' expecting {'(', ';', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"AssignmentWithoutValue", "function main() { x = ; }",
     "line 1 col 23: mismatched input ';' expecting {'(', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"TrailingCommaInArguments", "function main() { f(1,); }",
     "line 1 col 23: mismatched input ')' expecting {'(', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
    {"DotWithoutName", "function main() { x.; }",
     "line 1 col 21: missing IDENTIFIER at ';'"},
    {"UnclosedIndex", "function main() { a[1; }",
     "line 1 col 22: missing ']' at ';'"},
    {"UnclosedParenthesis", "function main() { x = (1 + 2; }",
     "line 1 col 29: missing ')' at ';'"},
    {"TwoOperators", "function main() { x = 1 + * 2; }",
     "line 1 col 27: no viable alternative at input '+*'"},
    {"ChainedComparison", "function main() { 1 < 2 < 3; }",
     "line 1 col 25: mismatched input '<' expecting {';', '||', '&&', OP_ADD, "
     "OP_MUL}"},
    {"CallOfParenthesizedCallee", "function main() { (f)(1); }",
     "line 1 col 22: missing ';' at '('"},
    {"FieldOfStringLiteral", "function main() { \"abc\".x; }",
     "line 1 col 24: mismatched input '.' expecting {';', '||', '&&', "
     "OP_COMPARE, OP_ADD, OP_MUL}"},
    {"FieldOfParenthesizedReceiver", "function main() { (a).b = 1; }",
     "line 1 col 22: mismatched input '.' expecting {'(', ')', '=', '.', '[', "
     "'||', '&&', OP_COMPARE, OP_ADD, OP_MUL}"},
    {"OctalLookingNumber", "function main() { return 007; }",
     "line 1 col 27: missing ';' at '0'"},
    {"NumberFollowedByName", "function main() { x = 1abc; }",
     "line 1 col 24: extraneous input 'abc' expecting ';'"},
    {"TwoStrings", "function main() { x = \"a\" \"b\"; }",
     "line 1 col 27: extraneous input '\"b\"' expecting ';'"},
    {"AssignmentToKeyword", "function main() { while = 1; }",
     "line 1 col 25: mismatched input '=' expecting '('"},
    {"LogicalNot", "function main() { x = !y; }",
     "line 1 col 23: token recognition error at: '!y'"},
    {"Hash", "function main() { # }",
     "line 1 col 19: token recognition error at: '#'"},
    {"NonAsciiLetter", "function main() { é }",
     "line 1 col 19: token recognition error at: 'é'"},
    {"Backslash", "function main() { \\ }",
     "line 1 col 19: token recognition error at: '\\'"},
    {"UnterminatedString", "function main() { println(\"abc); }",
     "line 1 col 27: token recognition error at: '\"abc); }'"},
    {"UnterminatedComment", "function main() { /* abc }",
     "line 1 col 19: mismatched input '/' expecting {'(', '}', 'break', "
     "'continue', 'debugger', 'while', 'if', 'return', IDENTIFIER, "
     "STRING_LITERAL, NUMERIC_LITERAL}"},
};

class ObservedSyntaxErrorTest : public testing::TestWithParam<Row> {};

TEST_P(ObservedSyntaxErrorTest, MatchesReference) {
  EXPECT_EQ(ErrorOf(GetParam().source), Expected(GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(
    Spec44, ObservedSyntaxErrorTest, testing::ValuesIn(kObservedRows),
    [](const testing::TestParamInfo<Row>& info) { return info.param.name; });

TEST(SyntaxErrorTest, ParseError01) {
  const char* source =
      "/*\n"
      " * A unary minus is not part of the language.\n"
      " */\n"
      "\n"
      "\n"
      "function main() {\n"
      "  return -1;\n"
      "}\n";
  EXPECT_EQ(ErrorOf(source),
            "Error(s) parsing script:\n"
            "-- line 7 col 10: extraneous input '-' expecting {'(', ';', "
            "IDENTIFIER, STRING_LITERAL, NUMERIC_LITERAL}");
}

TEST(SyntaxErrorTest, ParseError02) {
  // The later `\"` would be a lexer error; the syntax error comes first.
  const char* source =
      "/*\n"
      " * A unary minus deep inside nested blocks.\n"
      " */\n"
      "\n"
      "\n"
      "function test(n) {\n"
      "  a = 1;\n"
      "  if (a > 0) {\n"
      "    b = 10;\n"
      "    println(b);\n"
      "  } else {\n"
      "    b = 20;\n"
      "    a = 0;\n"
      "    c = 1;\n"
      "    if (b > 0) {\n"
      "      a = -1;\n"
      "      b = -1;\n"
      "      c = -1;\n"
      "      d = -1;\n"
      "      print(d);\n"
      "    }\n"
      "  }\n"
      "  println(b);\n"
      "  println(a);\n"
      "}\n"
      "function main() {\n"
      "  test(\\\"n_n\\\");\n"
      "}\n";
  EXPECT_EQ(ErrorOf(source),
            "Error(s) parsing script:\n"
            "-- line 16 col 11: extraneous input '-' expecting {'(', "
            "IDENTIFIER, STRING_LITERAL, NUMERIC_LITERAL}");
}

// The cases below are not in the spec's table; their expected texts follow
// from ANTLR's DefaultErrorStrategy and adaptive prediction.

TEST(SyntaxErrorTest, UnexpectedTokenAfterAStatementIsExtraneous) {
  // The statement loop's iteration sync (StarLoopBack) reports the token
  // whatever follows it.
  EXPECT_EQ(ErrorOf("function main() { x = 1; ) }"),
            Expected("line 1 col 26: extraneous input ')' expecting {'(', "
                     "'}', 'break', 'continue', 'debugger', 'while', 'if', "
                     "'return', IDENTIFIER, STRING_LITERAL, "
                     "NUMERIC_LITERAL}"));
  EXPECT_EQ(ErrorOf("function a() {} function b() {} }"),
            Expected("line 1 col 33: extraneous input '}' expecting {<EOF>, "
                     "'function'}"));
}

TEST(SyntaxErrorTest, MismatchReportsTheEarliestExpectedSet) {
  // The term loop's sync saw <EOF> first; its expected set is reported.
  EXPECT_EQ(ErrorOf("function main() { x = 1"),
            Expected("line 1 col 24: mismatched input '<EOF>' expecting {'(', "
                     "';', '=', '.', '[', '||', '&&', OP_COMPARE, OP_ADD, "
                     "OP_MUL}"));
}

TEST(SyntaxErrorTest, ParameterListErrors) {
  EXPECT_EQ(ErrorOf("function f(a b) {}"),
            Expected("line 1 col 14: extraneous input 'b' expecting {',', "
                     "')'}"));
  EXPECT_EQ(ErrorOf("function f(a, 1) {}"),
            Expected("line 1 col 15: mismatched input '1' expecting "
                     "IDENTIFIER"));
}

TEST(SyntaxErrorTest, ErrorTokensShowEscapedWhitespace) {
  EXPECT_EQ(ErrorOf("function main() { x = \"a\nb\"; }"),
            Expected("line 1 col 23: token recognition error at: '\"a\\n'"));
}

TEST(SyntaxErrorTest, PercentIsPrintedLiterally) {
  EXPECT_EQ(ErrorOf("function main() { x = 50%; }"),
            Expected("line 1 col 25: token recognition error at: '%'"));
  EXPECT_EQ(ErrorOf("function main() { x = 1 \"50%\"; }"),
            Expected("line 1 col 25: extraneous input '\"50%\"' expecting "
                     "';'"));
}

TEST(SyntaxErrorTest, LexerErrorWinsOnlyWhenItsTokenIsFetchedFirst) {
  // Single-token deletion looks at the token after '-': the lexer fails there.
  EXPECT_EQ(ErrorOf("function main() { return -#1; }"),
            Expected("line 1 col 27: token recognition error at: '#'"));
  // The syntax error is found before the parser reaches the '#'.
  EXPECT_EQ(ErrorOf("function main() { x = 1 + * 2; } #"),
            Expected("line 1 col 27: no viable alternative at input '+*'"));
  EXPECT_EQ(ErrorOf("# function"),
            Expected("line 1 col 1: token recognition error at: '#'"));
}

TEST(SyntaxErrorTest, SyntaxErrorsWinOverSemanticErrors) {
  EXPECT_EQ(ErrorOf("function main() { break; }\nfunction g() { return -1; }"),
            Expected("line 2 col 23: extraneous input '-' expecting {'(', "
                     "';', IDENTIFIER, STRING_LITERAL, NUMERIC_LITERAL}"));
}

TEST(SyntaxErrorTest, UnaryMinusAfterOperator) {
  EXPECT_EQ(ErrorOf("function main() { x = 0 - -1; }"),
            Expected("line 1 col 27: no viable alternative at input '--'"));
}

}  // namespace
}  // namespace morel::sl
