#ifndef MOREL_LANGUAGES_SL_NODES_OPERATOR_NODE_H_
#define MOREL_LANGUAGES_SL_NODES_OPERATOR_NODE_H_

// SL's operator nodes (nodes/operator_node.h): the binary operators and the
// property accesses evaluate their operands left to right (sl_spec §6.2,
// §6.9), then run their specializations. The node's source section starts
// at the first operand, which is where type errors point (§8.1). As a
// bytecode operation the operands come from the stack; the operation is
// inlined into SL's bytecode switch (root_nodes.h).
//
// Polymorphism reporting (splitting, languages/sl/README.md): every
// operator reports when it leaves its first specialization (64-bit -> big,
// number -> string concatenation, a property cache's second shape): a split
// copy per call site keeps the fast path where the site stays monomorphic.
// SLEqualNode opts out.

#include <cstddef>
#include <optional>
#include <utility>

#include "languages/sl/nodes/sl_node.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/directives.h"
#include "nodes/operator_node.h"
#include "nodes/polymorphism.h"

namespace morel::sl {

class SLOperator : public SLExpressionNode {
 public:
  using SLExpressionNode::SLExpressionNode;
  MOREL_REPORT_POLYMORPHISM
};

// An operator is never a local or constant leaf (SLExpressionNode::leaf()):
// evaluated where the type says so (`!`'s operand), a virtual call without
// the leaf check, through the call-free entry where it has one.
MOREL_FAST_PATH Value ExecuteChild(SLOperator* node, Frame& frame) {
  if (node->leaf() == SLExpressionNode::Leaf::kCallFree) return node->ExecuteCallFree(frame);
  return node->Execute(frame);
}

template <typename Derived, size_t N, typename... Specs>
class SLOperatorNode : public OperatorNode<Derived, SLOperator, SLExpressionNode, N, Specs...>,
                       public bytecode::BytecodeOperation,
                       public pe::CompiledOperation {
 public:
  using Operator = OperatorNode<Derived, SLOperator, SLExpressionNode, N, Specs...>;
  // An operator whose operands are all local reads and constants is a
  // kCallFree leaf: Evaluate runs it through ExecuteCallFree.
  template <typename... Operands>
  explicit SLOperatorNode(SourceSection section, Operands&&... operands)
      : Operator(std::move(section), std::forward<Operands>(operands)...) {
    if (this->inline_operands()) this->set_call_free();
  }
  SL_EXPRESSION_NODE_METHODS(Derived)
  MOREL_OPERATION_METHODS(Derived)
  // OperatorNode::TryRunInline, else Execute.
  MOREL_NO_STACK_PROTECTOR Value ExecuteCallFree(Frame& frame) final {
    if (std::optional<Value> result = this->TryRunInline(frame)) return *result;
    return this->Execute(frame);
  }
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_OPERATOR_NODE_H_
