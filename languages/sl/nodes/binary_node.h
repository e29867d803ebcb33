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

#include "engine/pe/compiled_operation.h"
#include "engine/pe/pe_context.h"
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

template <typename Derived, typename... Specs>
class SLBinarySpecializingNode : public SLBinaryNode,
                                 public bytecode::BytecodeOperation,
                                 public pe::CompiledOperation {
 public:
  using SLBinaryNode::SLBinaryNode;
  using Specializations = Specializer<Derived, Specs...>;

  // The bytecode interpreter's `op` (two operands, left and right): the
  // same specializations on values from the operand stack. Inlined into
  // SL's bytecode switch (root_nodes.h).
  MOREL_FAST_PATH Value ExecuteOperation(Frame&, absl::Span<const Value> operands) final {
    return specializer_.Execute(static_cast<Derived&>(*this), operands[0], operands[1]);
  }
  pe::PeValue PartialEvaluateOperation(pe::PartialEvaluator& pe,
                                       absl::Span<const pe::PeValue> operands) final {
    return pe::WithOperands(pe, this, operands, [&] {
      return specializer_.PartialEvaluate(pe.context(), static_cast<Derived&>(*this), operands[0],
                                          operands[1]);
    });
  }

  Value Execute(Frame& frame) final {
    Value l = Evaluate(left_.get(), frame);
    Value r = Evaluate(right_.get(), frame);
    return specializer_.Execute(static_cast<Derived&>(*this), l, r);
  }
  void ForEachChild(ChildVisitor visitor) override {
    visitor(left_.slot());
    visitor(right_.slot());
  }
  // Children: 0 left, 1 right; then the operator.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) final {
    Value l = next_child > 0 ? done[0].value : Evaluate(left_.get(), frame);
    Value r = next_child > 1 ? done[1].value : Evaluate(right_.get(), frame);
    return Outcome::OfValue(specializer_.Execute(static_cast<Derived&>(*this), l, r));
  }
  const Specializations& specializer() const { return specializer_; }

  // Children, then the operator's active specializations (the same
  // templates as Execute, emitting IR).
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) final {
    pe.Enter(this);
    pe::PeValue l = left_->PartialEvaluate(pe);
    pe.DoneValue(l);
    pe::PeValue r = right_->PartialEvaluate(pe);
    pe.DoneValue(r);
    pe::PeValue result =
        specializer_.PartialEvaluate(pe.context(), static_cast<Derived&>(*this), l, r);
    pe.Leave();
    return result;
  }

 private:
  Specializations specializer_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_BINARY_NODE_H_
