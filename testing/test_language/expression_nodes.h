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

#include "nodes/frame.h"
#include "nodes/node.h"
#include "nodes/value.h"

namespace morel::test_language {

class TlExpression : public Node {
 public:
  using Node::Node;
  virtual Value Execute(Frame& frame) = 0;
  // A copy of this subtree with no active specializations, empty caches and
  // new call nodes.
  virtual std::unique_ptr<TlExpression> CloneUninitialized() const = 0;
};

using ExpressionList = std::vector<std::unique_ptr<TlExpression>>;
ExpressionList CloneAll(const ChildList<TlExpression>& list);
// Tests build some nodes without children and drive them directly.
inline std::unique_ptr<TlExpression> CloneOrNull(const TlExpression* node) {
  return node != nullptr ? node->CloneUninitialized() : nullptr;
}

class ConstantNode final : public TlExpression {
 public:
  MOREL_NODE_KIND(ConstantNode)
  explicit ConstantNode(Value value, SourceSection section = {})
      : TlExpression(std::move(section)), value_(value) {}
  Value Execute(Frame&) override { return value_; }
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
  MOREL_NODE_KIND(ArgumentNode)
  explicit ArgumentNode(int index) : index_(index) {}
  Value Execute(Frame& frame) override;
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<ArgumentNode>(index_);
  }

 private:
  int index_;
};

class ReadLocalNode final : public TlExpression {
 public:
  MOREL_NODE_KIND(ReadLocalNode)
  explicit ReadLocalNode(int slot) : slot_(slot) {}
  Value Execute(Frame& frame) override;
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
  MOREL_NODE_KIND(WriteLocalNode)
  WriteLocalNode(int slot, std::unique_ptr<TlExpression> value)
      : slot_(slot), value_(std::move(value)) {}
  Value Execute(Frame& frame) override;
  void ForEachChild(ChildVisitor visitor) override { visitor(value_.slot()); }
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
  MOREL_NODE_KIND(BlockNode)
  explicit BlockNode(ExpressionList body, SourceSection section = {})
      : TlExpression(std::move(section)), body_(std::move(body)) {}
  Value Execute(Frame& frame) override;
  void ForEachChild(ChildVisitor visitor) override { body_.ForEach(visitor); }
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<BlockNode>(CloneAll(body_), source_section());
  }

 private:
  ChildList<TlExpression> body_;
};

// left < right on longs; anything else is an error.
class LessThanNode final : public TlExpression {
 public:
  MOREL_NODE_KIND(LessThanNode)
  LessThanNode(std::unique_ptr<TlExpression> left, std::unique_ptr<TlExpression> right)
      : left_(std::move(left)), right_(std::move(right)) {}
  Value Execute(Frame& frame) override;
  void ForEachChild(ChildVisitor visitor) override {
    visitor(left_.slot());
    visitor(right_.slot());
  }
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
  MOREL_NODE_KIND(ThrowIfNode)
  ThrowIfNode(std::unique_ptr<TlExpression> condition, std::string message)
      : condition_(std::move(condition)), message_(std::move(message)) {}
  Value Execute(Frame& frame) override;
  void ForEachChild(ChildVisitor visitor) override { visitor(condition_.slot()); }
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<ThrowIfNode>(condition_->CloneUninitialized(), message_);
  }

 private:
  Child<TlExpression> condition_;
  std::string message_;
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_EXPRESSION_NODES_H_
