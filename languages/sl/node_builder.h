#ifndef MOREL_LANGUAGES_SL_NODE_BUILDER_H_
#define MOREL_LANGUAGES_SL_NODE_BUILDER_H_

// Turns the parser's resolved AST into uninitialized SL interpreter nodes.
// Also how a split copy of a function is made: the root is rebuilt from the
// retained AST, so it starts with no specializations and fresh call nodes.

#include <memory>

#include "languages/sl/root_nodes.h"
#include "languages/sl/parser/ast.h"
#include "nodes/source.h"

namespace morel::sl {

// `source` is the text `program` was parsed from (the nodes' source
// sections hold it). `binding` says how the code names functions: the
// constants of one context, or ids that each context resolves (shared
// code, sl_shared_code.h).
std::unique_ptr<SLFunctionRootNode> BuildFunctionRoot(
    const FunctionBinding& binding, std::shared_ptr<const ast::Program> program,
    std::shared_ptr<const Source> source, int function_index);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODE_BUILDER_H_
