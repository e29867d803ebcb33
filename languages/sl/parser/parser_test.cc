// Tree shapes, precedence, literals and source spans of ParseProgram.

#include "languages/sl/parser/parser.h"

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "languages/sl/parser/ast.h"
#include "languages/sl/parser/ast_printer.h"

namespace morel::sl {
namespace {

std::unique_ptr<ast::Program> ParseOk(const std::string& source) {
  auto program = ParseProgram(source, "test.sl");
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? std::move(*program) : nullptr;
}

// The printed expression of the single statement of `function main() {...}`.
std::string Expr(const std::string& body) {
  std::unique_ptr<ast::Program> program =
      ParseOk("function main() { " + body + " }");
  if (program == nullptr) return "<error>";
  const ast::Statement& block = *program->functions[0].body;
  EXPECT_EQ(block.statements.size(), 1u);
  const ast::Statement& s = *block.statements[0];
  EXPECT_EQ(s.kind, ast::StatementKind::kExpression);
  return PrintExpression(*s.expression);
}

// The first statement's expression of `function main() { body }`.
const ast::Expression& FirstExpression(const ast::Program& program) {
  return *program.functions[0].body->statements[0]->expression;
}

TEST(ParserTest, ProgramStructure) {
  std::unique_ptr<ast::Program> program = ParseOk(
      "function f(a, b) { return a; }\nfunction main() { debugger; }");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(program->source_name, "test.sl");
  ASSERT_EQ(program->functions.size(), 2u);
  EXPECT_EQ(program->functions[0].name, "f");
  EXPECT_EQ(program->functions[0].parameter_count, 2);
  EXPECT_EQ(program->functions[1].name, "main");
  EXPECT_EQ(PrintProgram(*program),
            "function f(a, b) slots=[a, b]\n"
            "  block\n"
            "    return a@0\n"
            "function main() slots=[]\n"
            "  block\n"
            "    debugger\n");
}

TEST(ParserTest, SourceNameIsKept) {
  auto program = ParseProgram("function f() {}", "[defineFunction]");
  ASSERT_TRUE(program.ok());
  EXPECT_EQ((*program)->source_name, "[defineFunction]");
}

TEST(ParserTest, Statements) {
  std::unique_ptr<ast::Program> program =
      ParseOk("function main() { while (i < 3) { i = i + 1; } "
              "if (a) { b(); } else { return; } if (c) { } }");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(PrintProgram(*program),
            "function main() slots=[i]\n"
            "  block\n"
            "    while (< fn:i 3)\n"
            "      block\n"
            "        expr (= i@0 (+ i@0 1))\n"
            "    if fn:a\n"
            "      block\n"
            "        expr (call fn:b)\n"
            "    else\n"
            "      block\n"
            "        return\n"
            "    if fn:c\n"
            "      block\n");
}

TEST(ParserTest, PrecedenceAndAssociativity) {
  EXPECT_EQ(Expr("1 + 2 * 3 - 4 / 5;"), "(- (+ 1 (* 2 3)) (/ 4 5))");
  EXPECT_EQ(Expr("a || b && c || d;"), "(|| (|| fn:a (&& fn:b fn:c)) fn:d)");
  EXPECT_EQ(Expr("1 + 2 < 3 * 4 && 5 != 6;"),
            "(&& (< (+ 1 2) (* 3 4)) (!= 5 6))");
  EXPECT_FALSE(ParseProgram("function main() { 1 <= 2 == 3; }", "t").ok());
}

TEST(ParserTest, ComparisonOperators) {
  EXPECT_EQ(Expr("a < b;"), "(< fn:a fn:b)");
  EXPECT_EQ(Expr("a <= b;"), "(<= fn:a fn:b)");
  EXPECT_EQ(Expr("a > b;"), "(> fn:a fn:b)");
  EXPECT_EQ(Expr("a >= b;"), "(>= fn:a fn:b)");
  EXPECT_EQ(Expr("a == b;"), "(== fn:a fn:b)");
  EXPECT_EQ(Expr("a != b;"), "(!= fn:a fn:b)");
}

TEST(ParserTest, AssignmentIsAPostfixMemberWithAFullExpression) {
  EXPECT_EQ(Expr("a = b = 3;"), "(= a@0 (= b@1 3))");
  EXPECT_EQ(Expr("y = 5 + x = 4;"), "(= y@0 (+ 5 (= x@1 4)))");
  EXPECT_EQ(Expr("x = 1 < 2 < 3;"), "(< (= x@0 (< 1 2)) 3)");
  EXPECT_EQ(Expr("5 + x = 4;"), "(+ 5 (= x@0 4))");
  EXPECT_EQ(Expr("x = a || b;"), "(= x@0 (|| fn:a fn:b))");
  EXPECT_EQ(Expr("x = 1 * 2 + 3;"), "(= x@0 (+ (* 1 2) 3))");
}

TEST(ParserTest, MemberChains) {
  EXPECT_EQ(Expr("f()(2);"), "(call (call fn:f) 2)");
  EXPECT_EQ(Expr("a.b.c[1](2).d;"),
            "(. (call ([] (. (. fn:a b) c) 1) 2) d)");
  EXPECT_EQ(Expr("mk().z = 1;"), "(.= (call fn:mk) z 1)");
  EXPECT_EQ(Expr("o[k] = v;"), "([]= fn:o fn:k fn:v)");
  EXPECT_EQ(Expr("obj.fn(1, 2, 3);"), "(call (. fn:obj fn) 1 2 3)");
  EXPECT_EQ(Expr("x = 1 (2);"), "(call (= x@0 1) 2)");
  EXPECT_EQ(Expr("f(g(1), h[2]);"),
            "(call fn:f (call fn:g 1) ([] fn:h 2))");
}

TEST(ParserTest, ParenthesesAreKept) {
  EXPECT_EQ(Expr("(1 + 2) * 3;"), "(* (paren (+ 1 2)) 3)");
  EXPECT_EQ(Expr("((a));"), "(paren (paren fn:a))");
}

TEST(ParserTest, NumberLiteralsAreKeptAsText) {
  EXPECT_EQ(Expr("9223372036854775807;"), "9223372036854775807");
  EXPECT_EQ(Expr("123456789012345678901234567890;"),
            "123456789012345678901234567890");
  EXPECT_EQ(Expr("0;"), "0");
}

TEST(ParserTest, StringLiteralsAreRaw) {
  // A backslash does not escape the closing quote.
  std::unique_ptr<ast::Program> program =
      ParseOk(R"(function main() { "a\nb \" ; })");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(FirstExpression(*program).string_value, R"(a\nb \)");
  program = ParseOk("function main() { \"a\\n%d\\\\ é\"; \"\"; }");
  ASSERT_NE(program, nullptr);
  const ast::Expression& s = FirstExpression(*program);
  EXPECT_EQ(s.kind, ast::ExpressionKind::kStringLiteral);
  EXPECT_EQ(s.string_value, "a\\n%d\\\\ é");
  EXPECT_EQ(program->functions[0].body->statements[1]->expression->string_value,
            "");
}

TEST(ParserTest, IdentifiersThatLookLikeValues) {
  EXPECT_EQ(Expr("println(true, null, null());"),
            "(call fn:println fn:true fn:null (call fn:null))");
}

TEST(ParserTest, BinarySpanStartsAtTheLeftOperand) {
  // col:      19   24
  std::unique_ptr<ast::Program> program =
      ParseOk("function main() { (1 > 2) || 4;\n  x = \"4\" && 4; }");
  ASSERT_NE(program, nullptr);
  const ast::Expression& logical = FirstExpression(*program);
  EXPECT_EQ(logical.kind, ast::ExpressionKind::kLogical);
  EXPECT_EQ(logical.span.line, 1);
  EXPECT_EQ(logical.span.column, 19);
  EXPECT_EQ(logical.span.char_index, 18);
  EXPECT_EQ(logical.span.char_length, 12);
  const ast::Expression& paren = *logical.left;
  EXPECT_EQ(paren.kind, ast::ExpressionKind::kParenthesized);
  EXPECT_EQ(paren.span.column, 19);
  EXPECT_EQ(paren.span.char_length, 7);
  EXPECT_EQ(paren.operand->span.column, 20);  // the `1`
  EXPECT_EQ(paren.operand->left->span.column, 20);
  EXPECT_EQ(logical.right->span.column, 30);

  const ast::Expression& write =
      *program->functions[0].body->statements[1]->expression;
  EXPECT_EQ(write.kind, ast::ExpressionKind::kWriteLocal);
  EXPECT_EQ(write.span.line, 2);
  EXPECT_EQ(write.span.column, 3);
  EXPECT_EQ(write.value->span.column, 7);  // `"4" && 4` starts at the string
  EXPECT_EQ(write.value->span.char_length, 8);
}

TEST(ParserTest, ChainSpansGrowFromTheIdentifier) {
  std::unique_ptr<ast::Program> program =
      ParseOk("function main() { a.b(1)[c]; }");
  ASSERT_NE(program, nullptr);
  const ast::Expression& index = FirstExpression(*program);
  EXPECT_EQ(index.kind, ast::ExpressionKind::kReadProperty);
  EXPECT_EQ(index.span.column, 19);
  EXPECT_EQ(index.span.char_length, 9);
  const ast::Expression& call = *index.receiver;
  EXPECT_EQ(call.kind, ast::ExpressionKind::kCall);
  EXPECT_EQ(call.span.char_length, 6);
  EXPECT_EQ(call.callee->span.char_length, 3);
  EXPECT_EQ(call.callee->receiver->span.char_length, 1);
  EXPECT_EQ(index.key->span.column, 26);
}

TEST(ParserTest, StatementAndFunctionSpans) {
  const std::string source =
      "function main() {\n"
      "  while (x) { y; }\n"
      "  if (a) { } else { b; }\n"
      "  return 1 + 2;\n"
      "  break_me;\n"
      "}";
  std::unique_ptr<ast::Program> program = ParseOk(source);
  ASSERT_NE(program, nullptr);
  const ast::Function& f = program->functions[0];
  EXPECT_EQ(f.span.line, 1);
  EXPECT_EQ(f.span.column, 1);
  EXPECT_EQ(f.span.char_index, 0);
  EXPECT_EQ(f.span.char_length, static_cast<int>(source.size()));
  const ast::Statement& body = *f.body;
  EXPECT_EQ(body.span.column, 17);
  const ast::Statement& loop = *body.statements[0];
  EXPECT_EQ(loop.span.line, 2);
  EXPECT_EQ(loop.span.column, 3);
  EXPECT_EQ(loop.span.char_length, 16);
  EXPECT_EQ(loop.condition->span.column, 10);
  EXPECT_EQ(loop.body->span.column, 13);
  const ast::Statement& branch = *body.statements[1];
  EXPECT_EQ(branch.span.char_length, 22);
  const ast::Statement& ret = *body.statements[2];
  EXPECT_EQ(ret.span.line, 4);
  EXPECT_EQ(ret.span.char_length, 12);  // `return 1 + 2` without the `;`
  const ast::Statement& expr = *body.statements[3];
  EXPECT_EQ(expr.span.column, 3);
  EXPECT_EQ(expr.span.char_length, 8);
}

TEST(ParserTest, ColumnsCountTabsAsOne) {
  std::unique_ptr<ast::Program> program =
      ParseOk("function main() {\n\t\tx;\n}");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(FirstExpression(*program).span.line, 2);
  EXPECT_EQ(FirstExpression(*program).span.column, 3);
}

TEST(ParserTest, ErrorsAreInvalidArgument) {
  auto program = ParseProgram("", "empty.sl");
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(program.status().message()),
            "Error(s) parsing script:\n"
            "-- line 1 col 1: mismatched input '<EOF>' expecting 'function'");
}

TEST(ParserTest, LargeProgram) {
  std::string source;
  for (int i = 0; i < 200; ++i) {
    source += "function f" + std::to_string(i) +
              "(n) { if (n < 2) { return n; } return f" + std::to_string(i) +
              "(n - 1) + f" + std::to_string(i) + "(n - 2); }\n";
  }
  std::unique_ptr<ast::Program> program = ParseOk(source);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(program->functions.size(), 200u);
}

}  // namespace
}  // namespace morel::sl
