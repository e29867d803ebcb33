#include "languages/sl/parser/syntax.h"

#include <utility>
#include <vector>

namespace morel::sl::syntax {
namespace {

// Moves the subexpressions of `e` to `out`.
void DetachChildren(Expr& e, std::vector<ExprPtr>* out) {
  if (e.left != nullptr) out->push_back(std::move(e.left));
  if (e.right != nullptr) out->push_back(std::move(e.right));
  if (e.operand != nullptr) out->push_back(std::move(e.operand));
  for (Member& m : e.members) {
    for (ExprPtr& argument : m.arguments) {
      if (argument != nullptr) out->push_back(std::move(argument));
    }
    if (m.value != nullptr) out->push_back(std::move(m.value));
    if (m.index != nullptr) out->push_back(std::move(m.index));
  }
}

}  // namespace

Expr::~Expr() {
  std::vector<ExprPtr> pending;
  DetachChildren(*this, &pending);
  while (!pending.empty()) {
    ExprPtr e = std::move(pending.back());
    pending.pop_back();
    DetachChildren(*e, &pending);
    // `e` has no subexpressions left; its destructor does not recurse.
  }
}

}  // namespace morel::sl::syntax
