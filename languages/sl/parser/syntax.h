#ifndef MOREL_LANGUAGES_SL_PARSER_SYNTAX_H_
#define MOREL_LANGUAGES_SL_PARSER_SYNTAX_H_

// The concrete syntax tree produced by the syntax parser: the reference
// grammar's parse tree with tokens kept for positions. Names are not yet
// resolved and no semantic check has run; ScopeResolver turns it into the
// ast:: tree.

#include <memory>
#include <vector>

#include "languages/sl/parser/tokens.h"

namespace morel::sl::syntax {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// One element of a member chain `IDENT member*`.
struct Member {
  enum Kind { kCall, kAssign, kField, kIndex };
  Kind kind = kCall;
  Token first;  // '(', '=', '.', '['
  Token last;   // ')', the value's last token, the field name, ']'
  std::vector<ExprPtr> arguments;  // kCall
  ExprPtr value;                   // kAssign
  Token field;                     // kField
  ExprPtr index;                   // kIndex
};

struct Expr {
  Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;
  // Iterative: a tree of any depth (`1 + 1 + ... + 1` is as deep as it is
  // long) is freed without recursion.
  ~Expr();

  enum Kind { kName, kString, kNumber, kParen, kBinary };
  Kind kind = kName;
  Token first;  // first and last token of the whole expression
  Token last;
  Token token;  // kName: the identifier; literals; kBinary: the operator
  std::vector<Member> members;  // kName
  ExprPtr operand;              // kParen
  ExprPtr left;                 // kBinary
  ExprPtr right;                // kBinary
};

struct Block;

struct Stmt {
  enum Kind { kWhile, kBreak, kContinue, kIf, kReturn, kExpression, kDebugger };
  Kind kind = kExpression;
  Token first;  // keyword or first token of the expression
  Token last;   // ';' or the closing '}' of the last block
  ExprPtr expr;  // kExpression, kReturn (may be null), kWhile/kIf condition
  std::unique_ptr<Block> body;       // kWhile, kIf
  std::unique_ptr<Block> else_body;  // kIf, may be null
};

struct Block {
  Token lbrace;
  Token rbrace;
  std::vector<Stmt> statements;
};

struct Function {
  Token keyword;  // 'function'
  Token name;
  std::vector<Token> parameters;
  Block body;
};

struct Unit {
  std::vector<Function> functions;
};

}  // namespace morel::sl::syntax

#endif  // MOREL_LANGUAGES_SL_PARSER_SYNTAX_H_
