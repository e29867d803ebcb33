#ifndef MOREL_LANGUAGES_SL_NODES_BINARY_NODE_H_
#define MOREL_LANGUAGES_SL_NODES_BINARY_NODE_H_

// Binary operator nodes: evaluate left, then right (sl_spec §6.2), then run
// the operator's specializations. The node's source section starts at the
// left operand, which is where type errors point (§8.1).
//
// Polymorphism reporting (splitting, languages/sl/README.md): every binary
// operator reports when it leaves its first specialization (64-bit -> big,
// number -> string concatenation): a split copy per call site keeps the
// 64-bit fast path where the arguments stay small. SLEqualNode opts out.

#include <memory>

#include "languages/sl/nodes/sl_node.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/directives.h"
#include "nodes/polymorphism.h"
#include "nodes/specialization.h"

namespace morel::sl {

class SLBinaryNode : public SLExpressionNode {
 public:
  MOREL_REPORT_POLYMORPHISM
  SLBinaryNode(SourceSection section, std::unique_ptr<SLExpressionNode> left,
               std::unique_ptr<SLExpressionNode> right)
      : SLExpressionNode(std::move(section)), left_(std::move(left)), right_(std::move(right)) {}

  SLExpressionNode* left() const { return left_.get(); }
  SLExpressionNode* right() const { return right_.get(); }

 protected:
  Child<SLExpressionNode> left_;
  Child<SLExpressionNode> right_;
};

// A binary operator is never a leaf (SLExpressionNode::leaf()): evaluated
// where the type says so (`!`'s operand), a virtual call without the leaf
// check.
MOREL_FAST_PATH Value ExecuteChild(SLBinaryNode* node, Frame& frame) {
  return node->Execute(frame);
}

template <typename Derived, typename... Specs>
class SLBinarySpecializingNode : public SLBinaryNode,
                                 public bytecode::BytecodeOperation,
                                 public pe::CompiledOperation {
 public:
  using SLBinaryNode::SLBinaryNode;
  using Specializations = Specializer<Derived, Specs...>;

  // Left, right, then the operator's active specializations. As a bytecode
  // operation, left and right are the two operands; inlined into SL's
  // bytecode switch (root_nodes.h).
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    typename X::V left = x.Execute(left_);
    typename X::V right = x.Execute(right_);
    return x.Specialize(specializer_, static_cast<Derived&>(*this), left, right);
  }
  SL_EXPRESSION_NODE_METHODS(Derived)
  MOREL_OPERATION_METHODS(Derived)
  MOREL_CHILDREN(left_, right_)
  const Specializations& specializer() const { return specializer_; }

 private:
  Specializations specializer_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_BINARY_NODE_H_
