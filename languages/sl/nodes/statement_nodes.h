#ifndef MOREL_LANGUAGES_SL_NODES_STATEMENT_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_STATEMENT_NODES_H_

// SL statements (sl_spec §7). Control flow travels as Completion values;
// `while` is a LoopNode around a repeating node, so its iterations are
// counted into the call target.

#include <memory>
#include <vector>

#include "languages/sl/nodes/logical_nodes.h"
#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/values.h"
#include "nodes/loop_node.h"

namespace morel::sl {

class SLBlockNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLBlockNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLBlockNode(SourceSection section, std::vector<std::unique_ptr<SLStatementNode>> body)
      : SLStatementNode(std::move(section)), body_(std::move(body)) {}
  Completion Execute(Frame& frame) override {
    for (size_t i = 0; i < body_.size(); ++i) {
      Completion completion = body_[i]->Execute(frame);
      if (completion != kNormal) return completion;
    }
    return kNormal;
  }
  void ForEachChild(ChildVisitor visitor) override { body_.ForEach(visitor); }
  // Child i: statement i.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child > 0 && done[next_child - 1].status != kNormal) {
      return Outcome::OfStatus(done[next_child - 1].status);
    }
    for (size_t i = next_child; i < body_.size(); ++i) {
      Completion completion = body_[i]->Execute(frame);
      if (completion != kNormal) return Outcome::OfStatus(completion);
    }
    return Outcome::OfStatus(kNormal);
  }

 private:
  ChildList<SLStatementNode> body_;
};

class SLExpressionStatementNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLExpressionStatementNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLExpressionStatementNode(SourceSection section,
                            std::unique_ptr<SLExpressionNode> expression)
      : SLStatementNode(std::move(section)), expression_(std::move(expression)) {}
  Completion Execute(Frame& frame) override {
    expression_->Execute(frame);
    return kNormal;
  }
  void ForEachChild(ChildVisitor visitor) override { visitor(expression_.slot()); }
  // Child 0: the expression.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child == 0) Evaluate(expression_.get(), frame);
    return Outcome::OfStatus(kNormal);
  }

 private:
  Child<SLExpressionNode> expression_;
};

// The node's section is the condition's: toBoolean errors point there.
class SLIfNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLIfNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLIfNode(SourceSection condition_section, std::unique_ptr<SLExpressionNode> condition,
           std::unique_ptr<SLStatementNode> then_part,
           std::unique_ptr<SLStatementNode> else_part)
      : SLStatementNode(std::move(condition_section)),
        condition_(std::move(condition)),
        then_(std::move(then_part)),
        else_(std::move(else_part)) {}
  Completion Execute(Frame& frame) override {
    if (ToBoolean(Evaluate(condition_.get(), frame), source_section())) {
      return then_->Execute(frame);
    }
    return else_ ? else_->Execute(frame) : kNormal;
  }
  void ForEachChild(ChildVisitor visitor) override {
    visitor(condition_.slot());
    visitor(then_.slot());
    if (else_) visitor(else_.slot());
  }
  // Children: 0 the condition, 1 the branch taken (then or else).
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child >= 2) return Outcome::OfStatus(done[1].status);
    Value condition = next_child > 0 ? done[0].value : Evaluate(condition_.get(), frame);
    if (ToBoolean(condition, source_section())) return Outcome::OfStatus(then_->Execute(frame));
    return Outcome::OfStatus(else_ ? else_->Execute(frame) : kNormal);
  }

 private:
  Child<SLExpressionNode> condition_;
  Child<SLStatementNode> then_;
  Child<SLStatementNode> else_;
};

// One iteration of a while loop: test, then body. Its section is the
// condition's.
class SLWhileRepeatingNode final : public RepeatingNode {
 public:
  MOREL_NODE_KIND(SLWhileRepeatingNode)
  SLWhileRepeatingNode(SourceSection condition_section,
                       std::unique_ptr<SLExpressionNode> condition,
                       std::unique_ptr<SLStatementNode> body)
      : RepeatingNode(std::move(condition_section)),
        condition_(std::move(condition)),
        body_(std::move(body)) {}
  int ExecuteRepeating(Frame& frame) override {
    if (!ToBoolean(Evaluate(condition_.get(), frame), source_section())) return kBreak;
    return AfterBody(body_->Execute(frame));
  }
  // Children: 0 the condition, 1 the body; the outcome is the iteration's
  // loop status.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child >= 2) return Outcome::OfStatus(AfterBody(done[1].status));
    Value condition = next_child > 0 ? done[0].value : Evaluate(condition_.get(), frame);
    if (!ToBoolean(condition, source_section())) return Outcome::OfStatus(kBreak);
    return Outcome::OfStatus(AfterBody(body_->Execute(frame)));
  }
  SLExpressionNode* condition() const { return condition_.get(); }
  SLStatementNode* body() const { return body_.get(); }
  // The loop in compiled code (a while statement's, or an OSR compilation's).
  int PartialEvaluateLoop(pe::PartialEvaluator& pe) override;
  static int AfterBody(int completion) {
    if (completion == kBreak || completion == kReturn) return completion;
    return kContinueLoop;  // normal completion or `continue`
  }
  void ForEachChild(ChildVisitor visitor) override {
    visitor(condition_.slot());
    visitor(body_.slot());
  }

 private:
  Child<SLExpressionNode> condition_;
  Child<SLStatementNode> body_;
};

class SLWhileNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLWhileNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  SLWhileNode(SourceSection section, std::unique_ptr<SLWhileRepeatingNode> body)
      : SLStatementNode(section),
        loop_(std::make_unique<LoopNode>(std::move(body), section)) {}
  Completion Execute(Frame& frame) override {
    return loop_->Execute(frame) == kReturn ? kReturn : kNormal;
  }
  void ForEachChild(ChildVisitor visitor) override { visitor(loop_.slot()); }
  LoopNode* loop() const { return loop_.get(); }
  // Child 0: the loop; its status says whether a `return` ended it.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    int status = next_child > 0 ? done[0].status : loop_->Execute(frame);
    return Outcome::OfStatus(status == kReturn ? kReturn : kNormal);
  }

 private:
  Child<LoopNode> loop_;
};

class SLBreakNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLBreakNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  using SLStatementNode::SLStatementNode;
  Completion Execute(Frame&) override { return kBreak; }
};

class SLContinueNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLContinueNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  using SLStatementNode::SLStatementNode;
  Completion Execute(Frame&) override { return kContinue; }
};

class SLDebuggerNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLDebuggerNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  using SLStatementNode::SLStatementNode;
  // A breakpoint hook for debuggers; nothing happens at run time.
  Completion Execute(Frame&) override { return kNormal; }
};

class SLReturnNode final : public SLStatementNode {
 public:
  MOREL_NODE_KIND(SLReturnNode)
  void PartialEvaluate(pe::PartialEvaluator& pe) override;
  // `value` may be null: `return;` returns NULL.
  SLReturnNode(SourceSection section, std::unique_ptr<SLExpressionNode> value)
      : SLStatementNode(std::move(section)), value_(std::move(value)) {}
  Completion Execute(Frame& frame) override {
    frame.set_return_value(value_ ? Evaluate(value_.get(), frame) : NullValue());
    return kReturn;
  }
  // Child 0: the returned value.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child > 0) {
      frame.set_return_value(done[0].value);
      return Outcome::OfStatus(kReturn);
    }
    return Outcome::OfStatus(Execute(frame));
  }
  void ForEachChild(ChildVisitor visitor) override {
    if (value_) visitor(value_.slot());
  }

 private:
  Child<SLExpressionNode> value_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_STATEMENT_NODES_H_
