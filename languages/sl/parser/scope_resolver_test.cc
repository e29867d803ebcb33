// Scoping (sl_spec.md §4.1) and semantic errors (§4.2).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "languages/sl/parser/ast.h"
#include "languages/sl/parser/ast_printer.h"
#include "languages/sl/parser/parser.h"

namespace morel::sl {
namespace {

std::unique_ptr<ast::Program> ParseOk(const std::string& source) {
  auto program = ParseProgram(source, "test.sl");
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? std::move(*program) : nullptr;
}

std::string Print(const std::string& source) {
  std::unique_ptr<ast::Program> program = ParseOk(source);
  return program == nullptr ? "" : PrintProgram(*program);
}

std::string ErrorOf(const std::string& source) {
  auto program = ParseProgram(source, "test.sl");
  if (program.ok()) return "<ok>";
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(program.status().message());
}

std::string Expected(const std::string& where_and_message) {
  return "Error(s) parsing script:\n-- " + where_and_message;
}

TEST(ScopeTest, SlotOrderFromSpec) {
  EXPECT_EQ(Print("function f(a) { x = 1; if (c) { y = 2; } z = 3; }"),
            "function f(a) slots=[a, x, z, y]\n"
            "  block\n"
            "    expr (= x@1 1)\n"
            "    if fn:c\n"
            "      block\n"
            "        expr (= y@3 2)\n"
            "    expr (= z@2 3)\n");
}

TEST(ScopeTest, LocalOfInnerBlockIsAFunctionAfterTheBlock) {
  EXPECT_EQ(Print("function main() {\n"
                  "  if (1 == 1) { x = 1; }\n"
                  "  println(x);\n"
                  "}"),
            "function main() slots=[x]\n"
            "  block\n"
            "    if (== 1 1)\n"
            "      block\n"
            "        expr (= x@0 1)\n"
            "    expr (call fn:println fn:x)\n");
}

TEST(ScopeTest, DisjointBlocksGetDistinctSlots) {
  EXPECT_EQ(Print("function main() {\n"
                  "  if (c) { b = 1; } else { b = 2; }\n"
                  "  while (d) { b = 3; b; }\n"
                  "  b;\n"
                  "}"),
            "function main() slots=[b, b, b]\n"
            "  block\n"
            "    if fn:c\n"
            "      block\n"
            "        expr (= b@0 1)\n"
            "    else\n"
            "      block\n"
            "        expr (= b@1 2)\n"
            "    while fn:d\n"
            "      block\n"
            "        expr (= b@2 3)\n"
            "        expr b@2\n"
            "    expr fn:b\n");
}

TEST(ScopeTest, LocalIsVisibleInTheWholeBlockAndNestedBlocks) {
  // `x` is read before its declaring assignment, also from a nested block.
  EXPECT_EQ(Print("function main() { println(x); if (t) { x; } x = 1; }"),
            "function main() slots=[x]\n"
            "  block\n"
            "    expr (call fn:println x@0)\n"
            "    if fn:t\n"
            "      block\n"
            "        expr x@0\n"
            "    expr (= x@0 1)\n");
}

TEST(ScopeTest, InnerAssignmentWritesTheOuterVariable) {
  EXPECT_EQ(Print("function f(p) { v = 0; while (v < 3) { v = v + 1; p = v; "
                  "w = 1; } }"),
            "function f(p) slots=[p, v, w]\n"
            "  block\n"
            "    expr (= v@1 0)\n"
            "    while (< v@1 3)\n"
            "      block\n"
            "        expr (= v@1 (+ v@1 1))\n"
            "        expr (= p@0 v@1)\n"
            "        expr (= w@2 1)\n");
}

TEST(ScopeTest, DeclarationsInConditionsAndNestedExpressions) {
  // Assignments in a condition, in call arguments, in an index and in a
  // nested assignment all declare in the enclosing block, in pre-order.
  EXPECT_EQ(Print("function main() { while (a = 1 == 1) { } "
                  "f(b = 2, o[c = 3]); d = e = 4; if (g = 5) { } }"),
            "function main() slots=[a, b, c, d, e, g]\n"
            "  block\n"
            "    while (= a@0 (== 1 1))\n"
            "      block\n"
            "    expr (call fn:f (= b@1 2) ([] fn:o (= c@2 3)))\n"
            "    expr (= d@3 (= e@4 4))\n"
            "    if (= g@5 5)\n"
            "      block\n");
}

TEST(ScopeTest, NestedBlocksInPreOrder) {
  EXPECT_EQ(Print("function main() { if (t) { a = 1; while (t) { b = 1; } } "
                  "else { c = 1; } d = 1; }"),
            "function main() slots=[d, a, b, c]\n"
            "  block\n"
            "    if fn:t\n"
            "      block\n"
            "        expr (= a@1 1)\n"
            "        while fn:t\n"
            "          block\n"
            "            expr (= b@2 1)\n"
            "    else\n"
            "      block\n"
            "        expr (= c@3 1)\n"
            "    expr (= d@0 1)\n");
}

TEST(ScopeTest, DuplicateParametersShareASlot) {
  std::unique_ptr<ast::Program> program =
      ParseOk("function f(a, b, a) { return a + b; }");
  ASSERT_NE(program, nullptr);
  const ast::Function& f = program->functions[0];
  EXPECT_EQ(f.parameter_count, 3);
  EXPECT_EQ(f.slot_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(f.parameter_slots, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(PrintStatement(*f.body), "block\n  return (+ a@0 b@1)\n");
}

TEST(ScopeTest, ParameterIsNotRedeclared) {
  EXPECT_EQ(Print("function f(n) { n = n - 1; if (t) { n = 0; } }"),
            "function f(n) slots=[n]\n"
            "  block\n"
            "    expr (= n@0 (- n@0 1))\n"
            "    if fn:t\n"
            "      block\n"
            "        expr (= n@0 0)\n");
}

TEST(ScopeTest, PropertyWritesDoNotDeclare) {
  EXPECT_EQ(Print("function main() { o.x = 1; o[k] = 2; }"),
            "function main() slots=[]\n"
            "  block\n"
            "    expr (.= fn:o x 1)\n"
            "    expr ([]= fn:o fn:k 2)\n");
}

TEST(ScopeTest, FunctionsAreResolvedIndependently) {
  EXPECT_EQ(Print("function a() { x = 1; } function b() { x; }\n"
                  "function a() { }"),
            "function a() slots=[x]\n"
            "  block\n"
            "    expr (= x@0 1)\n"
            "function b() slots=[]\n"
            "  block\n"
            "    expr fn:x\n"
            "function a() slots=[]\n"
            "  block\n");
}

TEST(SemanticErrorTest, BreakOutsideLoop) {
  EXPECT_EQ(ErrorOf("function main() { break; }"),
            Expected("line 1 col 19: break used outside of loop"));
  EXPECT_EQ(ErrorOf("function main() { if (t) { break; } }"),
            Expected("line 1 col 28: break used outside of loop"));
}

TEST(SemanticErrorTest, ContinueOutsideLoop) {
  EXPECT_EQ(ErrorOf("function main() {\n  while (t) { }\n  continue;\n}"),
            Expected("line 3 col 3: continue used outside of loop"));
}

TEST(SemanticErrorTest, BreakAndContinueInsideLoops) {
  EXPECT_EQ(Print("function main() { while (c) { if (d) { break; } else { "
                  "continue; } } }"),
            "function main() slots=[]\n"
            "  block\n"
            "    while fn:c\n"
            "      block\n"
            "        if fn:d\n"
            "          block\n"
            "            break\n"
            "        else\n"
            "          block\n"
            "            continue\n");
}

TEST(SemanticErrorTest, InvalidAssignmentTargetIsReportedAtTheValue) {
  EXPECT_EQ(ErrorOf("function main() { x = 42 = 42; }"),
            Expected("line 1 col 28: invalid assignment target"));
  EXPECT_EQ(ErrorOf("function main() { 5 + double(2) = 4; }"),
            Expected("line 1 col 35: invalid assignment target"));
  EXPECT_EQ(ErrorOf("function main() { f() = (1); }"),
            Expected("line 1 col 25: invalid assignment target"));
  EXPECT_EQ(ErrorOf("function main() { a.b(1) = 2; }"),
            Expected("line 1 col 28: invalid assignment target"));
  EXPECT_EQ(ErrorOf("function main() { a[0](1) = 2; }"),
            Expected("line 1 col 29: invalid assignment target"));
  EXPECT_EQ(ErrorOf("function main() { a.b = 1 = 2; }"),
            Expected("line 1 col 29: invalid assignment target"));
}

TEST(SemanticErrorTest, FirstViolationInSourceOrderWins) {
  EXPECT_EQ(ErrorOf("function main() { f() = 1; break; }"),
            Expected("line 1 col 25: invalid assignment target"));
  EXPECT_EQ(ErrorOf("function main() { continue; f() = 1; }"),
            Expected("line 1 col 19: continue used outside of loop"));
  EXPECT_EQ(ErrorOf("function a() { while (t) { } }\n"
                    "function b() { break; }\n"
                    "function c() { continue; }"),
            Expected("line 2 col 16: break used outside of loop"));
  // The target check precedes the right-hand side.
  EXPECT_EQ(ErrorOf("function main() { f() = g() = 1; }"),
            Expected("line 1 col 25: invalid assignment target"));
  // Earlier members (call arguments) are examined first.
  EXPECT_EQ(ErrorOf("function main() { a(f() = 1).b = 2 = 3; }"),
            Expected("line 1 col 27: invalid assignment target"));
}

}  // namespace
}  // namespace morel::sl
