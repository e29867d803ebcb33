#ifndef MOREL_LANGUAGES_SL_NODE_BUILDER_H_
#define MOREL_LANGUAGES_SL_NODE_BUILDER_H_

// Turns the parser's resolved AST into uninitialized SL interpreter nodes.
// Also how a split copy of a function is made: the root is rebuilt from the
// retained AST, so it starts with no specializations and fresh call nodes.

#include <memory>
#include <optional>

#include "languages/sl/nodes/operator_node.h"
#include "languages/sl/parser/ast.h"
#include "languages/sl/root_nodes.h"
#include "nodes/source.h"

namespace morel::sl {

// The source section of an AST span in `source`.
SourceSection SectionOf(const std::shared_ptr<const Source>& source, const ast::SourceSpan& span);

// The node of a binary operator (shared by both interpreters' builders):
// `negated` if the result is the operator's negation (>, >=, !=), which
// the caller wraps in an SLNotNode (AST) or follows with one (bytecode).
// `left`/`right` may be null (a bytecode operation has no children).
struct BinaryOperator {
  std::unique_ptr<SLOperator> node;
  bool negated = false;
};
BinaryOperator MakeBinaryOperator(ast::BinaryOp op, const SourceSection& section,
                                  std::unique_ptr<SLExpressionNode> left,
                                  std::unique_ptr<SLExpressionNode> right);

// The value of a comparison (<, <=, >, >=, ==, !=) of two number literals
// that fit in 64 bits, or nullopt. SL has no Boolean literals, so programs
// write `1 == 1` for true; both builders emit the value as a constant
// (a comparison of two longs cannot fail, so nothing observable changes).
std::optional<bool> FoldLiteralComparison(const ast::Expression& e);

// `source` is the text `program` was parsed from (the nodes' source
// sections hold it). `binding` says how the code names functions: the
// constants of one context, or ids that each context resolves (shared
// code, sl_shared_code.h).
// An AST root (SLFunctionRootNode), or with binding.bytecode an
// SLBytecodeRootNode (bytecode_parser.h).
std::unique_ptr<RootNode> BuildFunctionRoot(const FunctionBinding& binding,
                                            std::shared_ptr<const ast::Program> program,
                                            std::shared_ptr<const Source> source,
                                            int function_index);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODE_BUILDER_H_
