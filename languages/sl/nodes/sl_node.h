#ifndef MOREL_LANGUAGES_SL_NODES_SL_NODE_H_
#define MOREL_LANGUAGES_SL_NODES_SL_NODE_H_

// The two SL node families: expressions produce a value; statements produce
// a completion status, so that break/continue/return travel as return values
// instead of C++ exceptions (the result of a return is in the frame's
// return-value register).

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "nodes/directives.h"
#include "nodes/execution.h"
#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "nodes/node.h"
#include "nodes/value.h"

// The members an SL node written once (nodes/execution.h) derives from its
// Run: the interpreter, resumption, compiled code. The _METHODS forms are for
// a base class whose derived class `Self` is the node (CRTP).
#define SL_EXPRESSION_NODE_METHODS(Self)                  \
  MOREL_INTERPRETED_BY_RUN(Self, ::morel::Value, Execute) \
  MOREL_COMPILED_BY_RUN(Self, ::morel::pe::PeValue, PartialEvaluate)
#define SL_EXPRESSION_NODE(Name) \
  MOREL_NODE_KIND(Name)          \
  SL_EXPRESSION_NODE_METHODS(Name)

#define SL_STATEMENT_NODE(Name)                                \
  MOREL_NODE_KIND(Name)                                        \
  MOREL_INTERPRETED_BY_RUN(Name, ::morel::Completion, Execute) \
  MOREL_COMPILED_BY_RUN(Name, void, PartialEvaluate)

namespace morel::sl {

class SLExpressionNode : public Node {
 public:
  using Node::Node;
  virtual Value Execute(Frame& frame) = 0;
  // Emits this node's code (engine/pe): derived from its Run
  // (SL_EXPRESSION_NODE).
  virtual pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) = 0;

  // Leaf shapes that parents evaluate inline, without a virtual call (local
  // reads and constants are most operands), and kCallFree: an operator whose
  // operands are such leaves, which parents run through ExecuteCallFree
  // (OperatorNode::TryRunInline). Purely an interpreter speedup: the result
  // is always what Execute() returns. In this order, so that Evaluate tells
  // a read from a call with one compare. kWriteLocal: an assignment to a
  // local, which a while loop's body runs without a call
  // (statement_nodes.h); anywhere else it is kNone.
  enum class Leaf : uint8_t { kLocal, kConstant, kCallFree, kNone, kWriteLocal };
  Leaf leaf() const { return leaf_; }
  // Execute through a path without calls first (kCallFree nodes).
  virtual Value ExecuteCallFree(Frame& frame) { return Execute(frame); }

 protected:
  void set_local_leaf(int slot) {
    leaf_ = Leaf::kLocal;
    leaf_slot_ = slot;
  }
  void set_call_free() { leaf_ = Leaf::kCallFree; }
  void set_write_local() { leaf_ = Leaf::kWriteLocal; }

 private:
  friend class SLConstantLeaf;
  friend Value Evaluate(SLExpressionNode* node, Frame& frame);
  friend std::optional<Value> TryExecuteChildInline(SLExpressionNode* node, Frame& frame);
  // Every expression node has these; a constant's value is in
  // SLConstantLeaf, not here (nodes are the interpreter's working set:
  // nodes/node.h).
  Leaf leaf_ = Leaf::kNone;
  int leaf_slot_ = 0;
};

// A constant (SLConstantNode, literal_nodes.h): the value that parents read
// inline.
class SLConstantLeaf : public SLExpressionNode {
 public:
  Value value() const { return value_; }

 protected:
  SLConstantLeaf(SourceSection section, Value value)
      : SLExpressionNode(std::move(section)), value_(value) {
    leaf_ = Leaf::kConstant;
  }

 private:
  Value value_;
};

// Evaluates a child expression; reads locals and constants inline, and
// runs a kCallFree operator through ExecuteCallFree. An uninitialized local
// falls back to Execute(), which reports it. Forced
// inline: GCC kept it out of line in the launcher (a call per child, 23% of
// the AST interpreter's cycles on `loop`) while inlining it in
// testing/host_inlining's copy of the same nodes.
MOREL_FAST_PATH Value Evaluate(SLExpressionNode* node, Frame& frame) {
  const SLExpressionNode::Leaf leaf = node->leaf_;
  if (leaf <= SLExpressionNode::Leaf::kConstant) {
    if (leaf == SLExpressionNode::Leaf::kConstant) {
      return static_cast<const SLConstantLeaf*>(node)->value();
    }
    Value value = frame.Get(node->leaf_slot_);
    if (!value.IsIllegal()) return value;
  } else if (leaf == SLExpressionNode::Leaf::kCallFree) {
    return node->ExecuteCallFree(frame);
  }
  return node->Execute(frame);
}

// Whether TryExecuteChildInline may evaluate `node` (a local read or a
// constant).
inline bool ExecutesInline(const SLExpressionNode* node) {
  return node->leaf() <= SLExpressionNode::Leaf::kConstant;
}
// Evaluates a local read or a constant without a call; nothing for anything
// else (and for an uninitialized local: Execute() reports it).
MOREL_FAST_PATH std::optional<Value> TryExecuteChildInline(SLExpressionNode* node, Frame& frame) {
  switch (node->leaf_) {
    case SLExpressionNode::Leaf::kLocal: {
      Value value = frame.Get(node->leaf_slot_);
      if (value.IsIllegal()) break;
      return value;
    }
    case SLExpressionNode::Leaf::kConstant:
      return static_cast<const SLConstantLeaf*>(node)->value();
    case SLExpressionNode::Leaf::kCallFree:
    case SLExpressionNode::Leaf::kNone:
    case SLExpressionNode::Leaf::kWriteLocal:
      break;
  }
  return std::nullopt;
}

// How a statement completed: morel::Completion (nodes/execution.h), kNormal,
// kBreak, kContinue or kReturn.

class SLStatementNode : public Node {
 public:
  using Node::Node;
  virtual Completion Execute(Frame& frame) = 0;
  // Emits this statement's code (engine/pe): derived from its Run
  // (SL_STATEMENT_NODE); control leaves through the partial evaluator's
  // merges (break, continue, return).
  virtual void PartialEvaluate(pe::PartialEvaluator& pe) = 0;

 private:
  friend class SLExpressionStatementNode;
  template <typename RunExpression>
  friend Completion ExecuteStatement(SLStatementNode* node, Frame& frame,
                                     RunExpression run_expression);
  // Set by SLExpressionStatementNode only: ExecuteStatement runs its expression
  // itself, without the statement's own virtual call.
  bool expression_statement_ = false;
};

// The child hooks of nodes written once (nodes/execution.h).
MOREL_FAST_PATH Value ExecuteChild(SLExpressionNode* node, Frame& frame) {
  return Evaluate(node, frame);
}
// A value the parent discards (an expression statement): a local read or a
// constant there does nothing worth the leaf check (an unassigned local's
// error comes from its Execute).
MOREL_FAST_PATH void ExecuteChildForEffect(SLExpressionNode* node, Frame& frame) {
  node->Execute(frame);
}

// An expression whose value is discarded (`f(x);`, `x = e;`).
class SLExpressionStatementNode final : public SLStatementNode {
 public:
  SL_STATEMENT_NODE(SLExpressionStatementNode)
  SLExpressionStatementNode(SourceSection section, std::unique_ptr<SLExpressionNode> expression)
      : SLStatementNode(std::move(section)), expression_(std::move(expression)) {
    expression_statement_ = true;
  }
  template <typename X>
  MOREL_FAST_PATH Completion Run(X& x) {
    x.ExecuteForEffect(expression_);
    return kNormal;
  }
  SLExpressionNode* expression() const { return expression_.get(); }
  MOREL_CHILDREN(expression_)

 private:
  Child<SLExpressionNode> expression_;
};

// A statement of a block (the bodies of `if`, `while` and functions are
// blocks, called directly: statement_nodes.h). An expression statement's
// expression runs from here, without the statement's own virtual call.
// With the direct block calls: 2-5% fewer instructions on the eight
// interpreter programs, loop 0.79x and fib 0.91x the wall time.
// `run_expression` runs an expression statement's expression (a while
// loop's body runs assignments to locals inline: statement_nodes.h).
template <typename RunExpression>
MOREL_FAST_PATH Completion ExecuteStatement(SLStatementNode* node, Frame& frame,
                                            RunExpression run_expression) {
  if (node->expression_statement_) {
    run_expression(static_cast<SLExpressionStatementNode*>(node)->expression());
    return kNormal;
  }
  return node->Execute(frame);
}
MOREL_FAST_PATH Completion ExecuteChild(SLStatementNode* node, Frame& frame) {
  return ExecuteStatement(node, frame, [&frame](SLExpressionNode* expression) MOREL_FAST_LAMBDA {
    ExecuteChildForEffect(expression, frame);
  });
}

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_SL_NODE_H_
