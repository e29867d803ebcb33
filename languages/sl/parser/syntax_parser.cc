#include "languages/sl/parser/syntax_parser.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "languages/sl/parser/atn.h"
#include "languages/sl/parser/lexer.h"
#include "languages/sl/parser/recognizer.h"

namespace morel::sl {
namespace {

using syntax::Expr;
using syntax::ExprPtr;

bool StartsExpression(int type) {
  return type == kTokLParen || type == kTokIdentifier || type == kTokString ||
         type == kTokNumber;
}

bool StartsStatement(int type) {
  switch (type) {
    case kTokBreak:
    case kTokContinue:
    case kTokDebugger:
    case kTokWhile:
    case kTokIf:
    case kTokReturn:
      return true;
    default:
      return StartsExpression(type);
  }
}

// Enters a rule on construction and leaves it on destruction.
class RuleScope {
 public:
  explicit RuleScope(Recognizer& r) : r_(r) { r_.EnterRule(); }
  ~RuleScope() { r_.ExitRule(); }
  RuleScope(const RuleScope&) = delete;
  RuleScope& operator=(const RuleScope&) = delete;

 private:
  Recognizer& r_;
};

class SyntaxParser {
 public:
  SyntaxParser(TokenStream& input, PredictionMode mode, ClosedGroups* closed)
      : r_(SlAtn(), input, mode, closed), s_(SlAtn().s()) {}

  std::optional<syntax::Unit> ParseUnit();
  bool nesting_too_deep() const { return r_.nesting_too_deep(); }
  bool budget_exhausted() const { return r_.budget_exhausted(); }

 private:
  bool Function(syntax::Function* out);
  bool Block(syntax::Block* out);
  bool Statement(syntax::Stmt* out);
  bool KeywordStatement(int keyword_state, int keyword, int semi_state,
                        syntax::Stmt* out);
  bool ExpressionStatement(syntax::Stmt* out);
  bool WhileStatement(syntax::Stmt* out);
  bool IfStatement(syntax::Stmt* out);
  bool ReturnStatement(syntax::Stmt* out);
  ExprPtr Expression();
  ExprPtr LogicTerm();
  ExprPtr LogicFactor();
  ExprPtr Arithmetic();
  ExprPtr Term();
  ExprPtr Factor();
  bool MemberExpression(syntax::Member* out);

  // A left-associative level: first (op next)* with an adaptive prediction.
  ExprPtr BinaryLevel(int first_state, int entry_state, int op_state,
                      int op_type, int next_state, int back_state,
                      ExprPtr (SyntaxParser::*operand)());

  static ExprPtr MakeBinary(ExprPtr left, const Token& op, ExprPtr right) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::kBinary;
    e->first = left->first;
    e->last = right->last;
    e->token = op;
    e->left = std::move(left);
    e->right = std::move(right);
    return e;
  }

  Recognizer r_;
  const SlStates& s_;
};

// The earliest token (in source order) of a construct deeper than
// kMaxNestingDepth, without recursion. Levels as documented at
// kMaxNestingDepth; in a member chain `x m0 m1 ... mk-1` the last member is
// the outermost node (`(. (. x a) b)`), so member i sits k-1-i levels below
// the chain and its subexpressions one more.
std::optional<Token> FindTooDeep(const syntax::Unit& unit) {
  struct Item {
    const syntax::Block* block = nullptr;
    const syntax::Stmt* stmt = nullptr;
    const Expr* expr = nullptr;
    int depth;
  };
  std::optional<Token> found;
  auto offend = [&found](const Token& t) {
    if (!found.has_value() || t.index < found->index) found = t;
  };
  std::vector<Item> pending;
  for (const syntax::Function& f : unit.functions) {
    pending.push_back(Item{&f.body, nullptr, nullptr, 1});
  }
  while (!pending.empty()) {
    const Item item = pending.back();
    pending.pop_back();
    const int d = item.depth;
    if (item.block != nullptr) {
      if (d > kMaxNestingDepth) {
        offend(item.block->lbrace);
        continue;
      }
      for (const syntax::Stmt& st : item.block->statements) {
        pending.push_back(Item{nullptr, &st, nullptr, d + 1});
      }
    } else if (item.stmt != nullptr) {
      const syntax::Stmt& st = *item.stmt;
      if (d > kMaxNestingDepth) {
        offend(st.first);
        continue;
      }
      if (st.expr != nullptr) pending.push_back(Item{{}, {}, st.expr.get(), d + 1});
      if (st.body != nullptr) pending.push_back(Item{st.body.get(), {}, {}, d + 1});
      if (st.else_body != nullptr) {
        pending.push_back(Item{st.else_body.get(), {}, {}, d + 1});
      }
    } else {
      const Expr& e = *item.expr;
      if (d > kMaxNestingDepth) {
        offend(e.kind == Expr::kBinary ? e.token : e.first);
        continue;
      }
      switch (e.kind) {
        case Expr::kParen:
          pending.push_back(Item{{}, {}, e.operand.get(), d + 1});
          break;
        case Expr::kBinary:
          pending.push_back(Item{{}, {}, e.left.get(), d + 1});
          pending.push_back(Item{{}, {}, e.right.get(), d + 1});
          break;
        case Expr::kName: {
          const int k = static_cast<int>(e.members.size());
          for (int i = 0; i < k; ++i) {
            const syntax::Member& m = e.members[i];
            const int member_depth = d + (k - 1 - i);
            if (member_depth > kMaxNestingDepth) {
              offend(m.first);
              continue;
            }
            for (const ExprPtr& a : m.arguments) {
              pending.push_back(Item{{}, {}, a.get(), member_depth + 1});
            }
            if (m.value != nullptr) {
              pending.push_back(Item{{}, {}, m.value.get(), member_depth + 1});
            }
            if (m.index != nullptr) {
              pending.push_back(Item{{}, {}, m.index.get(), member_depth + 1});
            }
          }
          break;
        }
        case Expr::kString:
        case Expr::kNumber:
          break;
      }
    }
  }
  return found;
}

std::optional<syntax::Unit> SyntaxParser::ParseUnit() {
  syntax::Unit unit;
  r_.SetState(s_.sl_function);
  unit.functions.emplace_back();
  if (!Function(&unit.functions.back())) return std::nullopt;
  r_.SetState(s_.sl_loop_entry);
  if (!r_.Sync()) return std::nullopt;
  while (r_.LA(1) == kTokFunction) {
    r_.SetState(s_.sl_function2);
    unit.functions.emplace_back();
    if (!Function(&unit.functions.back())) return std::nullopt;
    r_.SetState(s_.sl_loop_back);
    if (!r_.Sync()) return std::nullopt;
  }
  r_.SetState(s_.sl_eof);
  if (r_.Match(kTokEof) == nullptr) return std::nullopt;
  return unit;
}

bool SyntaxParser::Function(syntax::Function* out) {
  RuleScope rule(r_);
  r_.SetState(s_.fn_keyword);
  const Token* keyword = r_.Match(kTokFunction);
  if (keyword == nullptr) return false;
  out->keyword = *keyword;
  r_.SetState(s_.fn_name);
  const Token* name = r_.Match(kTokIdentifier);
  if (name == nullptr) return false;
  out->name = *name;
  r_.SetState(s_.fn_lparen);
  if (r_.Match(kTokLParen) == nullptr) return false;
  r_.SetState(s_.fn_params_opt);
  if (!r_.Sync()) return false;
  if (r_.LA(1) == kTokIdentifier) {
    r_.SetState(s_.fn_param1);
    const Token* param = r_.Match(kTokIdentifier);
    if (param == nullptr) return false;
    out->parameters.push_back(*param);
    r_.SetState(s_.fn_params_entry);
    if (!r_.Sync()) return false;
    while (r_.LA(1) == kTokComma) {
      r_.SetState(s_.fn_comma);
      if (r_.Match(kTokComma) == nullptr) return false;
      r_.SetState(s_.fn_param2);
      param = r_.Match(kTokIdentifier);
      if (param == nullptr) return false;
      out->parameters.push_back(*param);
      r_.SetState(s_.fn_params_back);
      if (!r_.Sync()) return false;
    }
  }
  r_.SetState(s_.fn_rparen);
  if (r_.Match(kTokRParen) == nullptr) return false;
  r_.SetState(s_.fn_body);
  return Block(&out->body);
}

bool SyntaxParser::Block(syntax::Block* out) {
  RuleScope rule(r_);
  r_.SetState(s_.bl_lbrace);
  const Token* lbrace = r_.Match(kTokLBrace);
  if (lbrace == nullptr) return false;
  out->lbrace = *lbrace;
  r_.SetState(s_.bl_entry);
  if (!r_.Sync()) return false;
  while (StartsStatement(r_.LA(1))) {
    r_.SetState(s_.bl_statement);
    out->statements.emplace_back();
    if (!Statement(&out->statements.back())) return false;
    r_.SetState(s_.bl_back);
    if (!r_.Sync()) return false;
  }
  r_.SetState(s_.bl_rbrace);
  const Token* rbrace = r_.Match(kTokRBrace);
  if (rbrace == nullptr) return false;
  out->rbrace = *rbrace;
  return true;
}

bool SyntaxParser::Statement(syntax::Stmt* out) {
  RuleScope rule(r_);
  r_.SetState(s_.st_block);
  if (!r_.Sync()) return false;
  switch (r_.LA(1)) {
    case kTokWhile:
      r_.SetState(s_.st_while);
      return WhileStatement(out);
    case kTokBreak:
      r_.SetState(s_.st_break);
      out->kind = syntax::Stmt::kBreak;
      return KeywordStatement(s_.br_keyword, kTokBreak, s_.br_semi, out);
    case kTokContinue:
      r_.SetState(s_.st_continue);
      out->kind = syntax::Stmt::kContinue;
      return KeywordStatement(s_.co_keyword, kTokContinue, s_.co_semi, out);
    case kTokIf:
      r_.SetState(s_.st_if);
      return IfStatement(out);
    case kTokReturn:
      r_.SetState(s_.st_return);
      return ReturnStatement(out);
    case kTokLParen:
    case kTokIdentifier:
    case kTokString:
    case kTokNumber:
      r_.SetState(s_.st_expr);
      return ExpressionStatement(out);
    case kTokDebugger:
      r_.SetState(s_.st_debugger);
      out->kind = syntax::Stmt::kDebugger;
      return KeywordStatement(s_.de_keyword, kTokDebugger, s_.de_semi, out);
    default:
      r_.ReportNoViableAltHere();
      return false;
  }
}

bool SyntaxParser::KeywordStatement(int keyword_state, int keyword,
                                    int semi_state, syntax::Stmt* out) {
  RuleScope rule(r_);
  r_.SetState(keyword_state);
  const Token* first = r_.Match(keyword);
  if (first == nullptr) return false;
  out->first = *first;
  r_.SetState(semi_state);
  const Token* semi = r_.Match(kTokSemicolon);
  if (semi == nullptr) return false;
  out->last = *semi;
  return true;
}

bool SyntaxParser::ExpressionStatement(syntax::Stmt* out) {
  RuleScope rule(r_);
  out->kind = syntax::Stmt::kExpression;
  r_.SetState(s_.es_expr);
  r_.BeginGroup();
  out->expr = Expression();
  if (out->expr == nullptr) return false;
  out->first = out->expr->first;
  r_.SetState(s_.es_semi);
  const Token* semi = r_.Match(kTokSemicolon);
  if (semi == nullptr) return false;
  r_.EndGroup();
  out->last = *semi;
  return true;
}

bool SyntaxParser::WhileStatement(syntax::Stmt* out) {
  RuleScope rule(r_);
  out->kind = syntax::Stmt::kWhile;
  r_.SetState(s_.wh_keyword);
  const Token* keyword = r_.Match(kTokWhile);
  if (keyword == nullptr) return false;
  out->first = *keyword;
  r_.SetState(s_.wh_lparen);
  if (r_.Match(kTokLParen) == nullptr) return false;
  r_.SetState(s_.wh_cond);
  r_.BeginGroup();
  out->expr = Expression();
  if (out->expr == nullptr) return false;
  r_.SetState(s_.wh_rparen);
  if (r_.Match(kTokRParen) == nullptr) return false;
  r_.EndGroup();
  r_.SetState(s_.wh_body);
  out->body = std::make_unique<syntax::Block>();
  if (!Block(out->body.get())) return false;
  out->last = out->body->rbrace;
  return true;
}

bool SyntaxParser::IfStatement(syntax::Stmt* out) {
  RuleScope rule(r_);
  out->kind = syntax::Stmt::kIf;
  r_.SetState(s_.if_keyword);
  const Token* keyword = r_.Match(kTokIf);
  if (keyword == nullptr) return false;
  out->first = *keyword;
  r_.SetState(s_.if_lparen);
  if (r_.Match(kTokLParen) == nullptr) return false;
  r_.SetState(s_.if_cond);
  r_.BeginGroup();
  out->expr = Expression();
  if (out->expr == nullptr) return false;
  r_.SetState(s_.if_rparen);
  if (r_.Match(kTokRParen) == nullptr) return false;
  r_.EndGroup();
  r_.SetState(s_.if_then);
  out->body = std::make_unique<syntax::Block>();
  if (!Block(out->body.get())) return false;
  out->last = out->body->rbrace;
  r_.SetState(s_.if_else_opt);
  if (!r_.Sync()) return false;
  if (r_.LA(1) == kTokElse) {
    r_.SetState(s_.if_else);
    if (r_.Match(kTokElse) == nullptr) return false;
    r_.SetState(s_.if_else_body);
    out->else_body = std::make_unique<syntax::Block>();
    if (!Block(out->else_body.get())) return false;
    out->last = out->else_body->rbrace;
  }
  return true;
}

bool SyntaxParser::ReturnStatement(syntax::Stmt* out) {
  RuleScope rule(r_);
  out->kind = syntax::Stmt::kReturn;
  r_.SetState(s_.rt_keyword);
  const Token* keyword = r_.Match(kTokReturn);
  if (keyword == nullptr) return false;
  out->first = *keyword;
  r_.SetState(s_.rt_opt);
  if (!r_.Sync()) return false;
  const bool has_value = StartsExpression(r_.LA(1));
  if (has_value) {
    r_.SetState(s_.rt_expr);
    r_.BeginGroup();
    out->expr = Expression();
    if (out->expr == nullptr) return false;
  }
  r_.SetState(s_.rt_semi);
  const Token* semi = r_.Match(kTokSemicolon);
  if (semi == nullptr) return false;
  if (has_value) r_.EndGroup();
  out->last = *semi;
  return true;
}

ExprPtr SyntaxParser::BinaryLevel(int first_state, int entry_state,
                                  int op_state, int op_type, int next_state,
                                  int back_state,
                                  ExprPtr (SyntaxParser::*operand)()) {
  RuleScope rule(r_);
  r_.SetState(first_state);
  ExprPtr result = (this->*operand)();
  if (result == nullptr) return nullptr;
  r_.SetState(entry_state);
  if (!r_.Sync()) return nullptr;
  int alt = r_.Predict(entry_state);
  while (alt == 1) {
    r_.SetState(op_state);
    const Token* op = r_.Match(op_type);
    if (op == nullptr) return nullptr;
    const Token op_token = *op;
    r_.SetState(next_state);
    ExprPtr right = (this->*operand)();
    if (right == nullptr) return nullptr;
    result = MakeBinary(std::move(result), op_token, std::move(right));
    r_.SetState(back_state);
    if (!r_.Sync()) return nullptr;
    alt = r_.Predict(entry_state);
  }
  return r_.failed() ? nullptr : std::move(result);
}

ExprPtr SyntaxParser::Expression() {
  return BinaryLevel(s_.ex_first, s_.ex_entry, s_.ex_op, kTokOr, s_.ex_next,
                     s_.ex_back, &SyntaxParser::LogicTerm);
}

ExprPtr SyntaxParser::LogicTerm() {
  return BinaryLevel(s_.lt_first, s_.lt_entry, s_.lt_op, kTokAnd, s_.lt_next,
                     s_.lt_back, &SyntaxParser::LogicFactor);
}

ExprPtr SyntaxParser::LogicFactor() {
  RuleScope rule(r_);
  r_.SetState(s_.lf_first);
  ExprPtr result = Arithmetic();
  if (result == nullptr) return nullptr;
  r_.SetState(s_.lf_opt);
  if (!r_.Sync()) return nullptr;
  const int alt = r_.Predict(s_.lf_opt);
  if (alt == 1) {
    r_.SetState(s_.lf_op);
    const Token* op = r_.Match(kTokCompare);
    if (op == nullptr) return nullptr;
    const Token op_token = *op;
    r_.SetState(s_.lf_second);
    ExprPtr right = Arithmetic();
    if (right == nullptr) return nullptr;
    result = MakeBinary(std::move(result), op_token, std::move(right));
  }
  return r_.failed() ? nullptr : std::move(result);
}

ExprPtr SyntaxParser::Arithmetic() {
  return BinaryLevel(s_.ar_first, s_.ar_entry, s_.ar_op, kTokAdd, s_.ar_next,
                     s_.ar_back, &SyntaxParser::Term);
}

ExprPtr SyntaxParser::Term() {
  return BinaryLevel(s_.te_first, s_.te_entry, s_.te_op, kTokMul, s_.te_next,
                     s_.te_back, &SyntaxParser::Factor);
}

ExprPtr SyntaxParser::Factor() {
  RuleScope rule(r_);
  r_.SetState(s_.fa_block);
  if (!r_.Sync()) return nullptr;
  auto e = std::make_unique<Expr>();
  switch (r_.LA(1)) {
    case kTokIdentifier: {
      r_.SetState(s_.fa_ident);
      const Token* id = r_.Match(kTokIdentifier);
      if (id == nullptr) return nullptr;
      e->kind = Expr::kName;
      e->token = e->first = e->last = *id;
      r_.SetState(s_.fa_entry);
      if (!r_.Sync()) return nullptr;
      int alt = r_.Predict(s_.fa_entry);
      while (alt == 1) {
        r_.SetState(s_.fa_member);
        e->members.emplace_back();
        if (!MemberExpression(&e->members.back())) return nullptr;
        e->last = e->members.back().last;
        r_.SetState(s_.fa_back);
        if (!r_.Sync()) return nullptr;
        alt = r_.Predict(s_.fa_entry);
      }
      break;
    }
    case kTokString:
    case kTokNumber: {
      const bool is_string = r_.LA(1) == kTokString;
      r_.SetState(is_string ? s_.fa_string : s_.fa_number);
      const Token* literal = r_.Match(is_string ? kTokString : kTokNumber);
      if (literal == nullptr) return nullptr;
      e->kind = is_string ? Expr::kString : Expr::kNumber;
      e->token = e->first = e->last = *literal;
      break;
    }
    case kTokLParen: {
      r_.SetState(s_.fa_lparen);
      const Token* lparen = r_.Match(kTokLParen);
      if (lparen == nullptr) return nullptr;
      e->kind = Expr::kParen;
      e->first = *lparen;
      r_.SetState(s_.fa_expr);
      r_.BeginGroup();
      e->operand = Expression();
      if (e->operand == nullptr) return nullptr;
      r_.SetState(s_.fa_rparen);
      const Token* rparen = r_.Match(kTokRParen);
      if (rparen == nullptr) return nullptr;
      r_.EndGroup();
      e->last = *rparen;
      break;
    }
    default:
      r_.ReportNoViableAltHere();
      return nullptr;
  }
  return r_.failed() ? nullptr : std::move(e);
}

bool SyntaxParser::MemberExpression(syntax::Member* out) {
  RuleScope rule(r_);
  r_.SetState(s_.me_block);
  if (!r_.Sync()) return false;
  switch (r_.LA(1)) {
    case kTokLParen: {
      out->kind = syntax::Member::kCall;
      r_.SetState(s_.me_lparen);
      const Token* lparen = r_.Match(kTokLParen);
      if (lparen == nullptr) return false;
      out->first = *lparen;
      r_.SetState(s_.me_args_opt);
      if (!r_.Sync()) return false;
      const bool has_arguments = StartsExpression(r_.LA(1));
      if (has_arguments) {
        r_.SetState(s_.me_arg1);
        r_.BeginGroup();
        ExprPtr arg = Expression();
        if (arg == nullptr) return false;
        out->arguments.push_back(std::move(arg));
        r_.SetState(s_.me_args_entry);
        if (!r_.Sync()) return false;
        while (r_.LA(1) == kTokComma) {
          r_.SetState(s_.me_comma);
          if (r_.Match(kTokComma) == nullptr) return false;
          r_.EndGroup();
          r_.SetState(s_.me_arg2);
          r_.BeginGroup();
          arg = Expression();
          if (arg == nullptr) return false;
          out->arguments.push_back(std::move(arg));
          r_.SetState(s_.me_args_back);
          if (!r_.Sync()) return false;
        }
      }
      r_.SetState(s_.me_rparen);
      const Token* rparen = r_.Match(kTokRParen);
      if (rparen == nullptr) return false;
      if (has_arguments) r_.EndGroup();
      out->last = *rparen;
      return true;
    }
    case kTokAssign: {
      out->kind = syntax::Member::kAssign;
      r_.SetState(s_.me_assign);
      const Token* assign = r_.Match(kTokAssign);
      if (assign == nullptr) return false;
      out->first = *assign;
      r_.SetState(s_.me_value);
      out->value = Expression();
      if (out->value == nullptr) return false;
      out->last = out->value->last;
      return true;
    }
    case kTokDot: {
      out->kind = syntax::Member::kField;
      r_.SetState(s_.me_dot);
      const Token* dot = r_.Match(kTokDot);
      if (dot == nullptr) return false;
      out->first = *dot;
      r_.SetState(s_.me_field);
      const Token* field = r_.Match(kTokIdentifier);
      if (field == nullptr) return false;
      out->field = out->last = *field;
      return true;
    }
    case kTokLBracket: {
      out->kind = syntax::Member::kIndex;
      r_.SetState(s_.me_lbracket);
      const Token* lbracket = r_.Match(kTokLBracket);
      if (lbracket == nullptr) return false;
      out->first = *lbracket;
      r_.SetState(s_.me_index);
      r_.BeginGroup();
      out->index = Expression();
      if (out->index == nullptr) return false;
      r_.SetState(s_.me_rbracket);
      const Token* rbracket = r_.Match(kTokRBracket);
      if (rbracket == nullptr) return false;
      r_.EndGroup();
      out->last = *rbracket;
      return true;
    }
    default:
      r_.ReportNoViableAltHere();
      return false;
  }
}

}  // namespace

std::string NestingTooDeepMessage() {
  return absl::StrCat("nesting too deep (more than ", kMaxNestingDepth,
                      " levels)");
}

std::string FormatParseError(int line, int column, absl::string_view message) {
  return absl::StrCat("Error(s) parsing script:\n-- line ", line, " col ",
                      column, ": ", message);
}

absl::StatusOr<syntax::Unit> ParseSyntax(absl::string_view source,
                                         ParseStrategy strategy) {
  // kSll first: linear, and when it succeeds its tree is kLl's. Otherwise
  // parse again in kLl for the reference's error, relying on what the kSll
  // parse proved (README.md, "Parsing strategy").
  //
  // The kMaxRuleDepth error is Morel's, not the reference's (whose parser
  // overflows its stack): when kSll hits it first, it is reported as is.
  // So is kSll's error when the kLl parse runs out of its full-context
  // budget (Recognizer::kFullContextBudgetPerToken).
  ClosedGroups closed;
  std::optional<syntax::Unit> unit;
  std::optional<SyntaxError> error;
  std::optional<SyntaxError> sll_error;
  if (strategy == ParseStrategy::kSllThenLl) {
    TokenStream input(Lex(source));
    if (!input.failed()) {
      SyntaxParser parser(input, PredictionMode::kSll, &closed);
      unit = parser.ParseUnit();
      if (parser.nesting_too_deep()) error = input.error();
    }
    if (input.failed()) {
      unit.reset();
      sll_error = input.error();
    }
  }
  if (!unit.has_value() && !error.has_value()) {
    TokenStream input(Lex(source));
    bool budget_exhausted = false;
    if (!input.failed()) {
      SyntaxParser parser(input, PredictionMode::kLl,
                          strategy == ParseStrategy::kSllThenLl ? &closed
                                                                : nullptr);
      unit = parser.ParseUnit();
      budget_exhausted = parser.budget_exhausted();
    }
    if (input.failed()) {
      unit.reset();
      error = budget_exhausted ? sll_error : input.error();
    }
  }
  if (!error.has_value() && unit.has_value()) {
    if (std::optional<Token> deep = FindTooDeep(*unit); deep.has_value()) {
      error = SyntaxError{deep->line, deep->column, NestingTooDeepMessage()};
    }
  }
  if (error.has_value()) {
    return absl::InvalidArgumentError(
        FormatParseError(error->line, error->column, error->message));
  }
  if (!unit.has_value()) {
    return absl::InternalError("SL parser stopped without an error");
  }
  return std::move(*unit);
}

}  // namespace morel::sl
