#ifndef MOREL_LANGUAGES_SL_NODES_LOGICAL_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_LOGICAL_NODES_H_

// Short-circuit && and || (sl_spec §6.6) and the Boolean conversion shared
// with if/while conditions (§5.2: no truthiness; a non-Boolean is a type
// error "toBoolean" listing only the offending value).

#include <memory>

#include "engine/pe/compiled_operation.h"
#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_error.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/directives.h"

namespace morel::sl {

// The toBoolean type error of a non-Boolean `value` at `section`.
[[noreturn]] MOREL_SLOW_PATH void ThrowToBooleanError(const Value& value,
                                                      const SourceSection& section);

// The Boolean value of `value`, or a toBoolean type error at `section`.
MOREL_FAST_PATH bool ToBoolean(const Value& value, const SourceSection& section) {
  if (value.IsBoolean()) [[likely]] {
    return value.AsBoolean();
  }
  ThrowToBooleanError(value, section);
}

// The Boolean conversion as an operation of the bytecode interpreter (if
// and while conditions, && and || operands): ToBoolean at the node's
// section. The AST interpreter converts inside its statement nodes.
class SLToBooleanNode final : public SLExpressionNode,
                              public bytecode::BytecodeOperation,
                              public pe::CompiledOperation {
 public:
  MOREL_NODE_KIND(SLToBooleanNode)
  using SLExpressionNode::SLExpressionNode;
  // Never evaluated as a tree: it only runs as an operation.
  Value Execute(Frame&) override;
  // Inlined into SL's bytecode switch (root_nodes.h).
  MOREL_FAST_PATH Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    return Value::Boolean(ToBoolean(operands[0], source_section()));
  }
  // Compiled: a non-Boolean deoptimizes to Resume(1, {value}), which
  // raises the error.
  pe::PeValue PartialEvaluateOperation(pe::PartialEvaluator& pe,
                                       absl::Span<const pe::PeValue> operands) override;
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child == 1) return Outcome::OfValue(ExecuteOperation(frame, {done[0].value}));
    return SLExpressionNode::Resume(frame, next_child, done);
  }
};

class SLLogicalNode : public SLExpressionNode {
 public:
  // `section` is the whole expression's: errors point at its first character.
  SLLogicalNode(SourceSection section, std::unique_ptr<SLExpressionNode> left,
                std::unique_ptr<SLExpressionNode> right)
      : SLExpressionNode(std::move(section)), left_(std::move(left)), right_(std::move(right)) {}
  void ForEachChild(ChildVisitor visitor) override {
    visitor(left_.slot());
    visitor(right_.slot());
  }

 protected:
  Child<SLExpressionNode> left_;
  Child<SLExpressionNode> right_;
};

class SLAndNode final : public SLLogicalNode {
 public:
  MOREL_NODE_KIND(SLAndNode)
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  using SLLogicalNode::SLLogicalNode;
  // Children: 0 left, 1 right (evaluated only if left is true).
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child < 2) {
      Value left = next_child > 0 ? done[0].value : Evaluate(left_.get(), frame);
      if (!ToBoolean(left, source_section())) return Outcome::OfValue(Value::Boolean(false));
    }
    Value right = next_child > 1 ? done[1].value : Evaluate(right_.get(), frame);
    return Outcome::OfValue(Value::Boolean(ToBoolean(right, source_section())));
  }
  Value Execute(Frame& frame) override {
    if (!ToBoolean(left_->Execute(frame), source_section())) {
      return Value::Boolean(false);
    }
    return Value::Boolean(ToBoolean(right_->Execute(frame), source_section()));
  }
};

class SLOrNode final : public SLLogicalNode {
 public:
  MOREL_NODE_KIND(SLOrNode)
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  using SLLogicalNode::SLLogicalNode;
  // Children: 0 left, 1 right (evaluated only if left is false).
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child < 2) {
      Value left = next_child > 0 ? done[0].value : Evaluate(left_.get(), frame);
      if (ToBoolean(left, source_section())) return Outcome::OfValue(Value::Boolean(true));
    }
    Value right = next_child > 1 ? done[1].value : Evaluate(right_.get(), frame);
    return Outcome::OfValue(Value::Boolean(ToBoolean(right, source_section())));
  }
  Value Execute(Frame& frame) override {
    if (ToBoolean(left_->Execute(frame), source_section())) {
      return Value::Boolean(true);
    }
    return Value::Boolean(ToBoolean(right_->Execute(frame), source_section()));
  }
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_LOGICAL_NODES_H_
