#ifndef MOREL_LANGUAGES_SL_NODES_LOGICAL_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_LOGICAL_NODES_H_

// Short-circuit && and || (sl_spec §6.6) and the Boolean conversion shared
// with if/while conditions (§5.2: no truthiness; a non-Boolean is a type
// error "toBoolean" listing only the offending value).

#include <memory>

#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_error.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/directives.h"

namespace morel::sl {

// The toBoolean type error of a non-Boolean `value` at `node`'s section
// (read here, off the fast path: Node::source_section() is a load and a
// branch).
[[noreturn]] MOREL_SLOW_PATH void ThrowToBooleanError(const Value& value, const Node& node);

// The Boolean value of `value`, or a toBoolean type error at `node`'s
// section. Compiled code speculates that `value` is a Boolean and
// deoptimizes to here if not, where the interpreter raises the error.
template <typename X>
MOREL_FAST_PATH typename X::Bool ToBoolean(X& x, const typename X::V& value, const Node& node) {
  x.Require(
      x.IsBoolean(value), "toBoolean", [&](auto&, const auto& v) { ThrowToBooleanError(v, node); },
      value);
  return x.AsBoolean(value);
}

// The Boolean conversion as an operation of the bytecode interpreter (if
// and while conditions, && and || operands): ToBoolean at the node's
// section. The AST interpreter converts inside its statement nodes.
class SLToBooleanNode final : public SLExpressionNode,
                              public bytecode::BytecodeOperation,
                              public pe::CompiledOperation {
 public:
  MOREL_NODE_KIND(SLToBooleanNode)
  // Inlined into SL's bytecode switch (root_nodes.h). Compiled, a
  // non-Boolean deoptimizes to Resume(1, {value}), which raises the error.
  MOREL_OPERATION_METHODS(SLToBooleanNode)
  using SLExpressionNode::SLExpressionNode;
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return x.BoxBoolean(ToBoolean(x, x.Execute(operand_), *this));
  }
  // Never evaluated as a tree: it only runs as an operation (compiled as a
  // tree, it bails out: it has no operand).
  Value Execute(Frame&) override;
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override {
    return PartialEvaluateOperation(pe, {});
  }
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    return ResumeNode(*this, frame, next_child, done);
  }

 private:
  Child<SLExpressionNode> operand_;  // null: the operation's one operand
};

class SLLogicalNode : public SLExpressionNode {
 public:
  // `section` is the whole expression's: errors point at its first character.
  SLLogicalNode(SourceSection section, std::unique_ptr<SLExpressionNode> left,
                std::unique_ptr<SLExpressionNode> right)
      : SLExpressionNode(std::move(section)), left_(std::move(left)), right_(std::move(right)) {}
  MOREL_CHILDREN(left_, right_)

 protected:
  // `left`, then `right` only if `left` is not `decisive`; the result is
  // the last one evaluated, as a Boolean.
  template <typename X>
  MOREL_FAST_PATH typename X::V ShortCircuit(X& x, bool decisive) {
    typename X::Bool left = ToBoolean(x, x.Execute(left_), *this);
    auto right = [&] { return x.BoxBoolean(ToBoolean(x, x.Execute(right_), *this)); };
    auto decided = [&] { return x.Constant(Value::Boolean(decisive)); };
    return decisive ? x.If(left, decided, right) : x.If(left, right, decided);
  }

  Child<SLExpressionNode> left_;
  Child<SLExpressionNode> right_;
};

class SLAndNode final : public SLLogicalNode {
 public:
  SL_EXPRESSION_NODE(SLAndNode)
  using SLLogicalNode::SLLogicalNode;
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return ShortCircuit(x, /*decisive=*/false);
  }
};

class SLOrNode final : public SLLogicalNode {
 public:
  SL_EXPRESSION_NODE(SLOrNode)
  using SLLogicalNode::SLLogicalNode;
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return ShortCircuit(x, /*decisive=*/true);
  }
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_LOGICAL_NODES_H_
