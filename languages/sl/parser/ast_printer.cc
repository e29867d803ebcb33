#include "languages/sl/parser/ast_printer.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace morel::sl {
namespace {

const char* BinaryOpText(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kAdd: return "+";
    case ast::BinaryOp::kSub: return "-";
    case ast::BinaryOp::kMul: return "*";
    case ast::BinaryOp::kDiv: return "/";
    case ast::BinaryOp::kLess: return "<";
    case ast::BinaryOp::kLessEqual: return "<=";
    case ast::BinaryOp::kGreater: return ">";
    case ast::BinaryOp::kGreaterEqual: return ">=";
    case ast::BinaryOp::kEqual: return "==";
    case ast::BinaryOp::kNotEqual: return "!=";
  }
  return "?";
}

}  // namespace

std::string PrintExpression(const ast::Expression& e) {
  using K = ast::ExpressionKind;
  switch (e.kind) {
    case K::kNumberLiteral:
      return e.number_text;
    case K::kStringLiteral:
      return absl::StrCat("\"", e.string_value, "\"");
    case K::kReadLocal:
      return absl::StrCat(e.name, "@", e.slot);
    case K::kWriteLocal:
      return absl::StrCat("(= ", e.name, "@", e.slot, " ",
                          PrintExpression(*e.value), ")");
    case K::kFunctionLiteral:
      return absl::StrCat("fn:", e.name);
    case K::kBinary:
      return absl::StrCat("(", BinaryOpText(e.binary_op), " ",
                          PrintExpression(*e.left), " ",
                          PrintExpression(*e.right), ")");
    case K::kLogical:
      return absl::StrCat("(", e.logical_op == ast::LogicalOp::kAnd ? "&&" : "||",
                          " ", PrintExpression(*e.left), " ",
                          PrintExpression(*e.right), ")");
    case K::kCall: {
      std::string out = absl::StrCat("(call ", PrintExpression(*e.callee));
      for (const ast::ExpressionPtr& arg : e.arguments) {
        absl::StrAppend(&out, " ", PrintExpression(*arg));
      }
      return absl::StrCat(out, ")");
    }
    case K::kReadProperty:
      if (e.key == nullptr) {
        return absl::StrCat("(. ", PrintExpression(*e.receiver), " ", e.name,
                            ")");
      }
      return absl::StrCat("([] ", PrintExpression(*e.receiver), " ",
                          PrintExpression(*e.key), ")");
    case K::kWriteProperty:
      if (e.key == nullptr) {
        return absl::StrCat("(.= ", PrintExpression(*e.receiver), " ", e.name,
                            " ", PrintExpression(*e.value), ")");
      }
      return absl::StrCat("([]= ", PrintExpression(*e.receiver), " ",
                          PrintExpression(*e.key), " ",
                          PrintExpression(*e.value), ")");
    case K::kParenthesized:
      return absl::StrCat("(paren ", PrintExpression(*e.operand), ")");
  }
  return "?";
}

std::string PrintStatement(const ast::Statement& s, int indent) {
  using K = ast::StatementKind;
  const std::string pad(indent, ' ');
  switch (s.kind) {
    case K::kExpression:
      return absl::StrCat(pad, "expr ", PrintExpression(*s.expression), "\n");
    case K::kWhile:
      return absl::StrCat(pad, "while ", PrintExpression(*s.condition), "\n",
                          PrintStatement(*s.body, indent + 2));
    case K::kIf: {
      std::string out =
          absl::StrCat(pad, "if ", PrintExpression(*s.condition), "\n",
                       PrintStatement(*s.body, indent + 2));
      if (s.else_body != nullptr) {
        absl::StrAppend(&out, pad, "else\n",
                        PrintStatement(*s.else_body, indent + 2));
      }
      return out;
    }
    case K::kBreak:
      return absl::StrCat(pad, "break\n");
    case K::kContinue:
      return absl::StrCat(pad, "continue\n");
    case K::kReturn:
      if (s.expression == nullptr) return absl::StrCat(pad, "return\n");
      return absl::StrCat(pad, "return ", PrintExpression(*s.expression),
                          "\n");
    case K::kDebugger:
      return absl::StrCat(pad, "debugger\n");
    case K::kBlock: {
      std::string out = absl::StrCat(pad, "block\n");
      for (const ast::StatementPtr& child : s.statements) {
        absl::StrAppend(&out, PrintStatement(*child, indent + 2));
      }
      return out;
    }
  }
  return "?\n";
}

std::string PrintFunction(const ast::Function& f) {
  std::vector<std::string> params;
  for (int slot : f.parameter_slots) params.push_back(f.slot_names[slot]);
  return absl::StrCat("function ", f.name, "(", absl::StrJoin(params, ", "),
                      ") slots=[", absl::StrJoin(f.slot_names, ", "), "]\n",
                      PrintStatement(*f.body, 2));
}

std::string PrintProgram(const ast::Program& program) {
  std::string out;
  for (const ast::Function& f : program.functions) {
    absl::StrAppend(&out, PrintFunction(f));
  }
  return out;
}

}  // namespace morel::sl
