#include "languages/sl/parser/scope_resolver.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "languages/sl/parser/syntax_parser.h"

namespace morel::sl {
namespace {

using ast::Expression;
using ast::ExpressionKind;
using ast::ExpressionPtr;
using ast::Statement;
using ast::StatementKind;
using ast::StatementPtr;

ast::SourceSpan SpanOf(const Token& first, const Token& last) {
  ast::SourceSpan span;
  span.line = first.line;
  span.column = first.column;
  span.char_index = first.char_index;
  span.char_length = last.char_index + last.char_length - first.char_index;
  return span;
}

ExpressionPtr NewExpression(ExpressionKind kind, ast::SourceSpan span) {
  auto e = std::make_unique<Expression>();
  e->kind = kind;
  e->span = span;
  return e;
}

// Adds, in pre-order, the names assigned by `IDENT = ...` in `e`.
void CollectDeclarations(const syntax::Expr& e,
                         std::vector<std::string>* names) {
  switch (e.kind) {
    case syntax::Expr::kName:
      if (!e.members.empty() && e.members[0].kind == syntax::Member::kAssign) {
        names->push_back(e.token.text);
      }
      for (const syntax::Member& m : e.members) {
        for (const syntax::ExprPtr& arg : m.arguments) {
          CollectDeclarations(*arg, names);
        }
        if (m.value != nullptr) CollectDeclarations(*m.value, names);
        if (m.index != nullptr) CollectDeclarations(*m.index, names);
      }
      break;
    case syntax::Expr::kParen:
      CollectDeclarations(*e.operand, names);
      break;
    case syntax::Expr::kBinary:
      CollectDeclarations(*e.left, names);
      CollectDeclarations(*e.right, names);
      break;
    case syntax::Expr::kString:
    case syntax::Expr::kNumber:
      break;
  }
}

class FunctionResolver {
 public:
  explicit FunctionResolver(ast::Function* fn) : fn_(fn) {}

  absl::Status Resolve(const syntax::Function& f) {
    fn_->name = f.name.text;
    fn_->span = SpanOf(f.keyword, f.body.rbrace);
    std::map<std::string, int> parameters;
    for (const Token& p : f.parameters) {
      auto [it, inserted] = parameters.try_emplace(p.text, 0);
      if (inserted) it->second = NewSlot(p.text);
      fn_->parameter_slots.push_back(it->second);
    }
    fn_->parameter_count = static_cast<int>(f.parameters.size());
    scopes_.push_back(std::move(parameters));
    fn_->body = ResolveBlock(f.body, /*in_loop=*/false);
    return status_;
  }

 private:
  int NewSlot(const std::string& name) {
    fn_->slot_names.push_back(name);
    return static_cast<int>(fn_->slot_names.size()) - 1;
  }

  const int* Lookup(const std::string& name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      auto it = scope->find(name);
      if (it != scope->end()) return &it->second;
    }
    return nullptr;
  }

  bool Fail(const Token& at, absl::string_view message) {
    if (status_.ok()) {
      status_ = absl::InvalidArgumentError(
          FormatParseError(at.line, at.column, message));
    }
    return false;
  }

  StatementPtr ResolveBlock(const syntax::Block& block, bool in_loop) {
    std::vector<std::string> declared;
    for (const syntax::Stmt& s : block.statements) {
      if (s.expr != nullptr) CollectDeclarations(*s.expr, &declared);
    }
    std::map<std::string, int> scope;
    for (const std::string& name : declared) {
      if (Lookup(name) != nullptr || scope.count(name) > 0) continue;
      scope[name] = NewSlot(name);
    }
    scopes_.push_back(std::move(scope));
    auto result = std::make_unique<Statement>();
    result->kind = StatementKind::kBlock;
    result->span = SpanOf(block.lbrace, block.rbrace);
    for (const syntax::Stmt& s : block.statements) {
      StatementPtr statement = ResolveStatement(s, in_loop);
      if (statement == nullptr) break;
      result->statements.push_back(std::move(statement));
    }
    scopes_.pop_back();
    return status_.ok() ? std::move(result) : nullptr;
  }

  StatementPtr ResolveStatement(const syntax::Stmt& s, bool in_loop) {
    auto result = std::make_unique<Statement>();
    result->span = SpanOf(s.first, s.first);
    switch (s.kind) {
      case syntax::Stmt::kExpression:
        result->kind = StatementKind::kExpression;
        result->expression = ResolveExpression(*s.expr);
        if (result->expression == nullptr) return nullptr;
        result->span = result->expression->span;
        break;
      case syntax::Stmt::kBreak:
        if (!in_loop) {
          Fail(s.first, "break used outside of loop");
          return nullptr;
        }
        result->kind = StatementKind::kBreak;
        break;
      case syntax::Stmt::kContinue:
        if (!in_loop) {
          Fail(s.first, "continue used outside of loop");
          return nullptr;
        }
        result->kind = StatementKind::kContinue;
        break;
      case syntax::Stmt::kDebugger:
        result->kind = StatementKind::kDebugger;
        break;
      case syntax::Stmt::kReturn:
        result->kind = StatementKind::kReturn;
        if (s.expr != nullptr) {
          result->expression = ResolveExpression(*s.expr);
          if (result->expression == nullptr) return nullptr;
          result->span = SpanOf(s.first, s.expr->last);
        }
        break;
      case syntax::Stmt::kWhile:
      case syntax::Stmt::kIf:
        result->kind = s.kind == syntax::Stmt::kWhile ? StatementKind::kWhile
                                                      : StatementKind::kIf;
        result->span = SpanOf(s.first, s.last);
        result->condition = ResolveExpression(*s.expr);
        if (result->condition == nullptr) return nullptr;
        result->body = ResolveBlock(
            *s.body, in_loop || s.kind == syntax::Stmt::kWhile);
        if (result->body == nullptr) return nullptr;
        if (s.else_body != nullptr) {
          result->else_body = ResolveBlock(*s.else_body, in_loop);
          if (result->else_body == nullptr) return nullptr;
        }
        break;
    }
    return result;
  }

  ExpressionPtr ResolveExpression(const syntax::Expr& e) {
    const ast::SourceSpan span = SpanOf(e.first, e.last);
    switch (e.kind) {
      case syntax::Expr::kNumber: {
        ExpressionPtr result = NewExpression(ExpressionKind::kNumberLiteral, span);
        result->number_text = e.token.text;
        return result;
      }
      case syntax::Expr::kString: {
        ExpressionPtr result = NewExpression(ExpressionKind::kStringLiteral, span);
        result->string_value = e.token.text.substr(1, e.token.text.size() - 2);
        return result;
      }
      case syntax::Expr::kParen: {
        ExpressionPtr result = NewExpression(ExpressionKind::kParenthesized, span);
        result->operand = ResolveExpression(*e.operand);
        return result->operand == nullptr ? nullptr : std::move(result);
      }
      case syntax::Expr::kBinary:
        return ResolveBinary(e, span);
      case syntax::Expr::kName:
        return ResolveName(e);
    }
    return nullptr;
  }

  ExpressionPtr ResolveBinary(const syntax::Expr& e, ast::SourceSpan span) {
    ExpressionPtr result;
    const std::string& op = e.token.text;
    if (e.token.type == kTokOr || e.token.type == kTokAnd) {
      result = NewExpression(ExpressionKind::kLogical, span);
      result->logical_op =
          e.token.type == kTokOr ? ast::LogicalOp::kOr : ast::LogicalOp::kAnd;
    } else {
      result = NewExpression(ExpressionKind::kBinary, span);
      static const auto* const kOps = new std::map<std::string, ast::BinaryOp>{
          {"+", ast::BinaryOp::kAdd},        {"-", ast::BinaryOp::kSub},
          {"*", ast::BinaryOp::kMul},        {"/", ast::BinaryOp::kDiv},
          {"<", ast::BinaryOp::kLess},       {"<=", ast::BinaryOp::kLessEqual},
          {">", ast::BinaryOp::kGreater},    {">=", ast::BinaryOp::kGreaterEqual},
          {"==", ast::BinaryOp::kEqual},     {"!=", ast::BinaryOp::kNotEqual},
      };
      result->binary_op = kOps->at(op);
    }
    result->left = ResolveExpression(*e.left);
    if (result->left == nullptr) return nullptr;
    result->right = ResolveExpression(*e.right);
    if (result->right == nullptr) return nullptr;
    return result;
  }

  // An identifier read: a visible local or the global function of that name.
  ExpressionPtr ReadName(const Token& id) {
    const ast::SourceSpan span = SpanOf(id, id);
    if (const int* slot = Lookup(id.text)) {
      ExpressionPtr read = NewExpression(ExpressionKind::kReadLocal, span);
      read->slot = *slot;
      read->name = id.text;
      return read;
    }
    ExpressionPtr function = NewExpression(ExpressionKind::kFunctionLiteral, span);
    function->name = id.text;
    return function;
  }

  // IDENT member*: the chain is applied left to right.
  ExpressionPtr ResolveName(const syntax::Expr& e) {
    const Token& id = e.token;
    ExpressionPtr current;
    size_t k = 0;
    if (!e.members.empty() && e.members[0].kind == syntax::Member::kAssign) {
      const int* slot = Lookup(id.text);  // declared by the block rule
      current = NewExpression(ExpressionKind::kWriteLocal,
                              SpanOf(id, e.members[0].last));
      current->slot = slot != nullptr ? *slot : -1;
      current->name = id.text;
      current->value = ResolveExpression(*e.members[0].value);
      if (current->value == nullptr) return nullptr;
      k = 1;
    } else {
      current = ReadName(id);
    }
    for (; k < e.members.size(); ++k) {
      const syntax::Member& m = e.members[k];
      const ast::SourceSpan span = SpanOf(id, m.last);
      switch (m.kind) {
        case syntax::Member::kCall: {
          ExpressionPtr call = NewExpression(ExpressionKind::kCall, span);
          call->callee = std::move(current);
          for (const syntax::ExprPtr& arg : m.arguments) {
            ExpressionPtr resolved = ResolveExpression(*arg);
            if (resolved == nullptr) return nullptr;
            call->arguments.push_back(std::move(resolved));
          }
          current = std::move(call);
          break;
        }
        case syntax::Member::kField:
        case syntax::Member::kIndex: {
          ExpressionPtr read = NewExpression(ExpressionKind::kReadProperty, span);
          read->receiver = std::move(current);
          if (m.kind == syntax::Member::kField) {
            read->name = m.field.text;
          } else {
            read->key = ResolveExpression(*m.index);
            if (read->key == nullptr) return nullptr;
          }
          current = std::move(read);
          break;
        }
        case syntax::Member::kAssign: {
          // Only a property (field or index) can be assigned after the first
          // member; the check precedes the right-hand side.
          const syntax::Member::Kind previous = e.members[k - 1].kind;
          if (previous == syntax::Member::kCall ||
              previous == syntax::Member::kAssign) {
            Fail(m.value->first, "invalid assignment target");
            return nullptr;
          }
          current->kind = ExpressionKind::kWriteProperty;
          current->span = span;
          current->value = ResolveExpression(*m.value);
          if (current->value == nullptr) return nullptr;
          break;
        }
      }
    }
    return current;
  }

  ast::Function* fn_;
  std::vector<std::map<std::string, int>> scopes_;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<ast::Program>> ResolveProgram(
    const syntax::Unit& unit, absl::string_view source_name) {
  auto program = std::make_unique<ast::Program>();
  program->source_name = std::string(source_name);
  for (const syntax::Function& f : unit.functions) {
    program->functions.emplace_back();
    absl::Status status = FunctionResolver(&program->functions.back()).Resolve(f);
    if (!status.ok()) return status;
  }
  return program;
}

}  // namespace morel::sl
