#include "testing/test_language/expression_nodes.h"

#include "absl/strings/str_cat.h"
#include "testing/test_language/values.h"

namespace morel::test_language {

ExpressionList CloneAll(const ChildList<TlExpression>& list) {
  ExpressionList copies;
  for (size_t i = 0; i < list.size(); ++i) {
    copies.push_back(list[i]->CloneUninitialized());
  }
  return copies;
}

}  // namespace morel::test_language
