#ifndef MOREL_LANGUAGES_SL_NODES_STATEMENT_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_STATEMENT_NODES_H_

// SL statements (sl_spec §7). Control flow travels as Completion values;
// `while` is a LoopNode around a repeating node, so its iterations are
// counted into the call target.

#include <memory>
#include <type_traits>
#include <vector>

#include "languages/sl/nodes/local_nodes.h"
#include "languages/sl/nodes/logical_nodes.h"
#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/values.h"
#include "nodes/loop_node.h"

namespace morel::sl {

// A statement of a while loop's body in the interpreter: as the block's hook
// (ExecuteChild) runs it, but an assignment to a local runs here, without a
// call. Only in loop bodies: in every block, GCC saved more registers in
// each function root that inlines its body block (fib 1.09x the wall time).
MOREL_FAST_PATH Completion ExecuteLoopStatement(SLStatementNode* node, Frame& frame) {
  return ExecuteStatement(node, frame, [&frame](SLExpressionNode* expression) MOREL_FAST_LAMBDA {
    if (expression->leaf() == SLExpressionNode::Leaf::kWriteLocal) {
      Interpret(*static_cast<SLWriteLocalNode*>(expression), frame);
    } else {
      ExecuteChildForEffect(expression, frame);
    }
  });
}

class SLBlockNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLBlockNode)
  SLBlockNode(SourceSection section, std::vector<std::unique_ptr<SLStatementNode>> body)
      : SLStatementNode(std::move(section)), body_(std::move(body)) {}
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    for (size_t i = 0; i < body_.size(); ++i) {
      Completion completion = x.Execute(body_[i]);
      if (completion != kNormal) return completion;
    }
    return kNormal;
  }
  // The interpreter's path for a while loop's body (SLWhileRepeatingNode):
  // the statements as Run executes them, through ExecuteLoopStatement.
  MOREL_FAST_PATH Completion ExecuteAsLoopBody(Frame& frame) {
    for (size_t i = 0; i < body_.size(); ++i) {
      Completion completion = ExecuteLoopStatement(body_[i], frame);
      if (completion != kNormal) return completion;
    }
    return kNormal;
  }
  MOREL_CHILDREN(body_)

 private:
  ChildList<SLStatementNode> body_;
};

// The bodies of `if`, `while` and functions are blocks (sl_spec: blocks
// only), so their nodes run the block's statements themselves, inlined
// (left to GCC, the call came and went with unrelated changes: fib +1.5%
// instructions when it went).
MOREL_FAST_PATH Completion ExecuteChild(SLBlockNode* node, Frame& frame) {
  return Interpret(*node, frame);
}

// The node's section is the condition's: toBoolean errors point there.
class SLIfNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLIfNode)
  SLIfNode(SourceSection condition_section, std::unique_ptr<SLExpressionNode> condition,
           std::unique_ptr<SLBlockNode> then_part, std::unique_ptr<SLBlockNode> else_part)
      : SLStatementNode(std::move(condition_section)),
        condition_(std::move(condition)),
        then_(std::move(then_part)),
        else_(std::move(else_part)) {}
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    return x.If(
        ToBoolean(x, x.Execute(condition_), *this), [&] { return x.Execute(then_); },
        [&] { return else_ ? x.Execute(else_) : kNormal; });
  }
  MOREL_CHILDREN(condition_, then_, else_)

 private:
  Child<SLExpressionNode> condition_;
  Child<SLBlockNode> then_;
  Child<SLBlockNode> else_;
};

// One iteration of a while loop: test, then body. Its section is the
// condition's.
class SLWhileRepeatingNode final : public RepeatingNode {
 public:
  MOREL_REPEATING_NODE(SLWhileRepeatingNode)
  SLWhileRepeatingNode(SourceSection condition_section, std::unique_ptr<SLExpressionNode> condition,
                       std::unique_ptr<SLBlockNode> body)
      : RepeatingNode(std::move(condition_section)),
        condition_(std::move(condition)),
        body_(std::move(body)) {}
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    return x.If(
        ToBoolean(x, x.Execute(condition_), *this),
        [&]() MOREL_FAST_LAMBDA { return AfterBody(RunBody(x)); }, [&] { return x.Break(); });
  }
  template <typename X>
  MOREL_FAST_PATH Completion RunBody(X& x) {
    if constexpr (std::is_same_v<X, Interpreting>) {
      return body_->ExecuteAsLoopBody(x.frame());
    } else {
      return x.Execute(body_);
    }
  }
  SLExpressionNode* condition() const { return condition_.get(); }
  SLStatementNode* body() const { return body_.get(); }
  static Completion AfterBody(Completion completion) {
    if (completion == kBreak || completion == kReturn) return completion;
    return kNormal;  // normal completion or `continue`: the next iteration
  }
  MOREL_CHILDREN(condition_, body_)

 private:
  Child<SLExpressionNode> condition_;
  Child<SLBlockNode> body_;
};

class SLWhileNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLWhileNode)
  SLWhileNode(SourceSection section, std::unique_ptr<SLWhileRepeatingNode> body)
      : SLStatementNode(section),
        loop_(std::make_unique<LoopNode>(std::move(body), section)) {}
  // The loop's status says whether a `return` ended it.
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    return x.Execute(loop_) == kReturn ? kReturn : kNormal;
  }
  MOREL_CHILDREN(loop_)
  LoopNode* loop() const { return loop_.get(); }

 private:
  Child<LoopNode> loop_;
};

class SLBreakNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLBreakNode)
  using SLStatementNode::SLStatementNode;
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    return x.Break();
  }
};

class SLContinueNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLContinueNode)
  using SLStatementNode::SLStatementNode;
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    return x.Continue();
  }
};

// A breakpoint hook for debuggers; nothing happens at run time.
class SLDebuggerNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLDebuggerNode)
  using SLStatementNode::SLStatementNode;
  template <typename X>
  MOREL_FAST_PATH Completion Run(X&) {
    return kNormal;
  }
};

class SLReturnNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLReturnNode)
  // `value` may be null: `return;` returns NULL.
  SLReturnNode(SourceSection section, std::unique_ptr<SLExpressionNode> value)
      : SLStatementNode(std::move(section)), value_(std::move(value)) {}
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    return x.Return(value_ ? x.Execute(value_) : x.Constant(NullValue()));
  }
  MOREL_CHILDREN(value_)

 private:
  Child<SLExpressionNode> value_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_STATEMENT_NODES_H_
