#ifndef MOREL_TESTING_TEST_LANGUAGE_LOOP_NODES_H_
#define MOREL_TESTING_TEST_LANGUAGE_LOOP_NODES_H_

// `while (condition) body`, built from the framework's LoopNode around a
// RepeatingNode. Evaluates to no value (illegal).

#include <memory>
#include <utility>

#include "nodes/loop_node.h"
#include "testing/test_language/expression_nodes.h"

namespace morel::test_language {

class WhileRepeatingNode final : public RepeatingNode {
 public:
  MOREL_NODE_KIND(WhileRepeatingNode)
  // Written once (nodes/execution.h); the test language is never compiled.
  MOREL_INTERPRETED_BY_RUN(WhileRepeatingNode, int, ExecuteRepeating)
  static constexpr int kBreakLoop = 1;

  WhileRepeatingNode(std::unique_ptr<TlExpression> condition,
                     std::unique_ptr<TlExpression> body)
      : condition_(std::move(condition)), body_(std::move(body)) {}
  // One iteration: kBreakLoop when the condition is not true, else runs the
  // body and asks for another.
  template <typename X>
  int Run(X& x) {
    typename X::V condition = x.Execute(condition_);
    return x.If(
        x.And(x.IsBoolean(condition), x.AsBoolean(condition)),
        [&] {
          x.Execute(body_);
          return static_cast<int>(kContinueLoop);
        },
        [&] { return kBreakLoop; });
  }
  MOREL_CHILDREN(condition_, body_)
  TlExpression* condition() const { return condition_.get(); }
  TlExpression* body() const { return body_.get(); }

 private:
  Child<TlExpression> condition_;
  Child<TlExpression> body_;
};

class WhileNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(WhileNode)
  WhileNode(std::unique_ptr<TlExpression> condition, std::unique_ptr<TlExpression> body)
      : loop_(std::make_unique<LoopNode>(std::make_unique<WhileRepeatingNode>(
            std::move(condition), std::move(body)))) {}
  template <typename X>
  typename X::V Run(X& x) {
    x.Execute(loop_);
    return x.Constant(Value::Illegal());
  }
  MOREL_CHILDREN(loop_)
  std::unique_ptr<TlExpression> CloneUninitialized() const override;
  LoopNode* loop_node() const { return loop_.get(); }

 private:
  Child<LoopNode> loop_;
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_LOOP_NODES_H_
