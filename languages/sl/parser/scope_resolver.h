#ifndef MOREL_LANGUAGES_SL_PARSER_SCOPE_RESOLVER_H_
#define MOREL_LANGUAGES_SL_PARSER_SCOPE_RESOLVER_H_

// Scoping and semantic checks (sl_spec.md §4.1, §4.2): turns the syntax tree
// into the ast:: tree, resolving every identifier to a frame slot or a global
// function name, and reports the first semantic error in source order.
//
// Declaration rule: a block declares every identifier whose first member is
// an assignment (`x = ...`) anywhere in its own statements -- conditions and
// nested expressions included, nested blocks excluded -- unless the name is
// already visible (a parameter or a local of an enclosing block). A local is
// visible in its whole declaring block and the blocks nested in it; anywhere
// else the name denotes the global function of that name.
//
// Slots: parameters first (duplicates share one slot), then the body block's
// locals in order of their first declaring assignment, then the new locals of
// each nested block, blocks taken in pre-order.

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "languages/sl/parser/ast.h"
#include "languages/sl/parser/syntax.h"

namespace morel::sl {

// Resolves a parsed unit. Semantic errors ("break used outside of loop",
// "continue used outside of loop", "invalid assignment target") are returned
// as InvalidArgumentError with the parse-error format of sl_spec.md §4.3.
absl::StatusOr<std::unique_ptr<ast::Program>> ResolveProgram(
    const syntax::Unit& unit, absl::string_view source_name);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_PARSER_SCOPE_RESOLVER_H_
