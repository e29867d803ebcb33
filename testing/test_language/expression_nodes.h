#ifndef MOREL_TESTING_TEST_LANGUAGE_EXPRESSION_NODES_H_
#define MOREL_TESTING_TEST_LANGUAGE_EXPRESSION_NODES_H_

// The test language's base node and its simple (non-specializing) nodes:
// constants, argument reads, local reads and writes, blocks, a comparison and
// an explicit throw. Every node can make an uninitialized copy of itself, so
// a root can be split (TlRootNode::CloneUninitialized).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nodes/execution.h"
#include "nodes/frame.h"
#include "nodes/node.h"
#include "nodes/value.h"
#include "testing/test_language/values.h"

// The members a test-language node written once (nodes/execution.h) derives
// from its Run: the interpreter and resumption (the test language is never
// compiled). The _METHODS form is for a CRTP base whose node is Self.
#define TL_EXPRESSION_NODE_METHODS(Self) MOREL_INTERPRETED_BY_RUN(Self, ::morel::Value, Execute)
#define TL_EXPRESSION_NODE(Name) \
  MOREL_NODE_KIND(Name)          \
  TL_EXPRESSION_NODE_METHODS(Name)

namespace morel::test_language {

class TlExpression : public Node {
 public:
  using Node::Node;
  virtual Value Execute(Frame& frame) = 0;
  // A copy of this subtree with no active specializations, empty caches and
  // new call nodes.
  virtual std::unique_ptr<TlExpression> CloneUninitialized() const = 0;
};

// The child hook of nodes written once (nodes/execution.h).
inline Value ExecuteChild(TlExpression* node, Frame& frame) { return node->Execute(frame); }

using ExpressionList = std::vector<std::unique_ptr<TlExpression>>;
ExpressionList CloneAll(const ChildList<TlExpression>& list);
// Tests build some nodes without children and drive them directly.
inline std::unique_ptr<TlExpression> CloneOrNull(const TlExpression* node) {
  return node != nullptr ? node->CloneUninitialized() : nullptr;
}

class ConstantNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(ConstantNode)
  explicit ConstantNode(Value value, SourceSection section = {})
      : TlExpression(std::move(section)), value_(value) {}
  template <typename X>
  typename X::V Run(X& x) {
    return x.Constant(value_);
  }
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<ConstantNode>(value_, source_section());
  }
  Value value() const { return value_; }

 private:
  // Nodes are root-allocated (nodes/heap.h), so a string held here is seen
  // by the collector.
  Value value_;
};

// The index-th argument; a missing one is an error.
class ArgumentNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(ArgumentNode)
  explicit ArgumentNode(int index) : index_(index) {}
  template <typename X>
  typename X::V Run(X& x) {
    x.Require(index_ < static_cast<int>(x.frame().arguments().size()), "missing argument",
              [&](auto&) { throw TlError(absl::StrCat("missing argument ", index_)); });
    return x.Argument(index_, Value::Illegal());
  }
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<ArgumentNode>(index_);
  }

 private:
  int index_;
};

class ReadLocalNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(ReadLocalNode)
  explicit ReadLocalNode(int slot) : slot_(slot) {}
  template <typename X>
  typename X::V Run(X& x) {
    return x.AssignedLocal(slot_, [&](auto& frame) {
      throw TlError(absl::StrCat("uninitialized local ", frame.descriptor().name(slot_)));
    });
  }
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<ReadLocalNode>(slot_);
  }

 private:
  int slot_;
};

// Writes the value to a frame slot (generalizing the slot's kind) and
// evaluates to it.
class WriteLocalNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(WriteLocalNode)
  WriteLocalNode(int slot, std::unique_ptr<TlExpression> value)
      : slot_(slot), value_(std::move(value)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V value = x.Execute(value_);
    if constexpr (X::InInterpreter()) x.frame().descriptor().RecordWrite(slot_, value);
    x.SetLocal(slot_, value);
    return value;
  }
  MOREL_CHILDREN(value_)
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<WriteLocalNode>(slot_, value_->CloneUninitialized());
  }

 private:
  int slot_;
  Child<TlExpression> value_;
};

// Evaluates its children in order; the value of the last (illegal if none).
class BlockNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(BlockNode)
  explicit BlockNode(ExpressionList body, SourceSection section = {})
      : TlExpression(std::move(section)), body_(std::move(body)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V last = x.Constant(Value::Illegal());
    for (size_t i = 0; i < body_.size(); ++i) last = x.Execute(body_[i]);
    return last;
  }
  MOREL_CHILDREN(body_)
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<BlockNode>(CloneAll(body_), source_section());
  }

 private:
  ChildList<TlExpression> body_;
};

// left < right on longs; anything else is an error.
class LessThanNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(LessThanNode)
  LessThanNode(std::unique_ptr<TlExpression> left, std::unique_ptr<TlExpression> right)
      : left_(std::move(left)), right_(std::move(right)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V left = x.Execute(left_);
    typename X::V right = x.Execute(right_);
    x.Require(
        x.And(x.IsLong(left), x.IsLong(right)), "type error",
        [&](auto&, const auto& l, const auto& r) {
          throw TlError(
              absl::StrCat("type error: ", ToDisplayString(l), " < ", ToDisplayString(r)));
        },
        left, right);
    return x.BoxBoolean(x.LongLess(x.AsLong(left), x.AsLong(right)));
  }
  MOREL_CHILDREN(left_, right_)
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<LessThanNode>(left_->CloneUninitialized(),
                                          right_->CloneUninitialized());
  }

 private:
  Child<TlExpression> left_;
  Child<TlExpression> right_;
};

// Throws TlError(message) when the condition is true; else evaluates to false.
class ThrowIfNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(ThrowIfNode)
  ThrowIfNode(std::unique_ptr<TlExpression> condition, std::string message)
      : condition_(std::move(condition)), message_(std::move(message)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V condition = x.Execute(condition_);
    x.Require(x.Not(x.And(x.IsBoolean(condition), x.AsBoolean(condition))), "thrown",
              [&](auto&) { throw TlError(message_); });
    return x.Constant(Value::Boolean(false));
  }
  MOREL_CHILDREN(condition_)
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<ThrowIfNode>(condition_->CloneUninitialized(), message_);
  }

 private:
  Child<TlExpression> condition_;
  std::string message_;
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_EXPRESSION_NODES_H_
