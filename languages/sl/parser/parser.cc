#include "languages/sl/parser/parser.h"

#include <memory>

#include "absl/status/statusor.h"
#include "languages/sl/parser/scope_resolver.h"
#include "languages/sl/parser/syntax.h"
#include "languages/sl/parser/syntax_parser.h"

namespace morel::sl {

absl::StatusOr<std::unique_ptr<ast::Program>> ParseProgram(
    absl::string_view source, absl::string_view source_name) {
  absl::StatusOr<syntax::Unit> unit = ParseSyntax(source);
  if (!unit.ok()) return unit.status();
  return ResolveProgram(*unit, source_name);
}

}  // namespace morel::sl
