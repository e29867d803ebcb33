#ifndef MOREL_LANGUAGES_SL_PARSER_AST_H_
#define MOREL_LANGUAGES_SL_PARSER_AST_H_

// The SL abstract syntax tree produced by the parser, after scoping and the
// semantic checks of sl_spec.md §4. Every name is resolved: a local is a slot
// index of its function's frame; any other identifier is a global function
// name. The node builder (languages/sl/node_builder.*) turns this into
// self-specializing interpreter nodes; nothing else consumes it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace morel::sl::ast {

// Where a construct starts and how long it is, in the source text.
struct SourceSpan {
  int line = 0;         // 1-based
  int column = 0;       // 1-based, TAB counts as one column
  int char_index = 0;   // 0-based offset of the first character
  int char_length = 0;  // number of characters
};

struct Expression;
struct Statement;
using ExpressionPtr = std::unique_ptr<Expression>;
using StatementPtr = std::unique_ptr<Statement>;

enum class BinaryOp {
  kAdd,           // +
  kSub,           // -
  kMul,           // *
  kDiv,           // /
  kLess,          // <
  kLessEqual,     // <=
  kGreater,       // >   (evaluated as NOT(<=), sl_spec §6.4)
  kGreaterEqual,  // >=  (evaluated as NOT(<))
  kEqual,         // ==
  kNotEqual,      // !=
};

enum class LogicalOp { kAnd, kOr };

enum class ExpressionKind {
  kNumberLiteral,    // `number_text` holds the decimal digits (may exceed 64 bits)
  kStringLiteral,    // `string_value`: the characters between the quotes
  kReadLocal,        // `slot`
  kWriteLocal,       // `slot` = `value`
  kFunctionLiteral,  // a non-local identifier: the global function `name`
  kBinary,           // `binary_op`, `left`, `right`
  kLogical,          // `logical_op`, `left`, `right` (short-circuit)
  kCall,             // `callee`(`arguments`...)
  kReadProperty,     // `receiver`.`name` or `receiver`[`key`]
  kWriteProperty,    // `receiver`.`name` = `value` or `receiver`[`key`] = `value`
  kParenthesized,    // ( `operand` ): kept so spans match the reference
};

struct Expression {
  ExpressionKind kind;
  // The construct's span. For the error locations of sl_spec §8.1 the node
  // builder uses the span of the left operand (binary) or of the whole
  // expression (logical); parentheses have their own span starting at '('.
  SourceSpan span;

  std::string number_text;   // kNumberLiteral
  std::string string_value;  // kStringLiteral
  std::string name;          // kFunctionLiteral: function name;
                             // k{Read,Write}Property with a `.name` key;
                             // k{Read,Write}Local: the variable's name
                             // (informational, the slot is what counts)
  int slot = -1;             // k{Read,Write}Local
  BinaryOp binary_op = BinaryOp::kAdd;
  LogicalOp logical_op = LogicalOp::kAnd;

  ExpressionPtr left;      // kBinary, kLogical
  ExpressionPtr right;     // kBinary, kLogical
  ExpressionPtr callee;    // kCall
  std::vector<ExpressionPtr> arguments;  // kCall
  ExpressionPtr receiver;  // k{Read,Write}Property
  ExpressionPtr key;       // k{Read,Write}Property with `[key]`; null for `.name`
  ExpressionPtr value;     // kWriteLocal, kWriteProperty
  ExpressionPtr operand;   // kParenthesized
};

enum class StatementKind {
  kExpression,  // `expression`;
  kWhile,       // while (`condition`) `body`
  kIf,          // if (`condition`) `body` [else `else_body`]
  kBreak,
  kContinue,
  kReturn,      // return [`expression`];  (null expression returns NULL)
  kDebugger,
  kBlock,       // `statements` (only as a body; bare blocks are syntax errors)
};

struct Statement {
  StatementKind kind;
  SourceSpan span;
  ExpressionPtr expression;   // kExpression, kReturn (may be null)
  ExpressionPtr condition;    // kWhile, kIf
  StatementPtr body;          // kWhile, kIf: always a kBlock
  StatementPtr else_body;     // kIf: a kBlock or null
  std::vector<StatementPtr> statements;  // kBlock
};

struct Function {
  std::string name;
  SourceSpan span;         // from `function` to the closing `}`
  // The number of declared parameters (positions). Parameter slots come
  // first in the frame; with duplicate names fewer slots than positions are
  // used, so bind arguments through `parameter_slots`.
  int parameter_count = 0;
  // Names of all frame slots in slot order (sl_spec §4.1): parameters first,
  // then the locals of the body block in order of first declaring
  // assignment, then those of nested blocks in pre-order. Disjoint blocks
  // declaring the same name get distinct slots with the same name. Duplicate
  // parameter names share one slot (the later argument wins).
  std::vector<std::string> slot_names;
  // For each parameter position, the slot it is stored to.
  std::vector<int> parameter_slots;
  StatementPtr body;       // a kBlock
};

struct Program {
  std::string source_name;  // e.g. "Fibonacci.sl", "(eval)", "[defineFunction]"
  // In source order. A later definition of the same name wins when the
  // program is registered (sl_spec §1.3); the parser keeps both.
  std::vector<Function> functions;
};

}  // namespace morel::sl::ast

#endif  // MOREL_LANGUAGES_SL_PARSER_AST_H_
