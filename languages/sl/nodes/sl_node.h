#ifndef MOREL_LANGUAGES_SL_NODES_SL_NODE_H_
#define MOREL_LANGUAGES_SL_NODES_SL_NODE_H_

// The two SL node families: expressions produce a value; statements produce
// a completion status, so that break/continue/return travel as return values
// instead of C++ exceptions (the result of a return is in the frame's
// return-value register).

#include <cstdint>
#include <memory>

#include "nodes/directives.h"
#include "nodes/execution.h"
#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "nodes/node.h"
#include "nodes/value.h"

namespace morel::sl {

class SLExpressionNode : public Node {
 public:
  using Node::Node;
  virtual Value Execute(Frame& frame) = 0;
  // Emits this node's code (engine/pe): derived from its Run
  // (SL_EXPRESSION_NODE).
  virtual pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) = 0;

  // Leaf shapes that parents evaluate inline, without a virtual call (local
  // reads and constants are most operands). Purely an interpreter speedup:
  // the result is always what Execute() returns.
  enum class Leaf : uint8_t { kNone, kLocal, kConstant };
  Leaf leaf() const { return leaf_; }

 protected:
  void set_local_leaf(int slot) {
    leaf_ = Leaf::kLocal;
    leaf_slot_ = slot;
  }
  void set_constant_leaf(Value value) {
    leaf_ = Leaf::kConstant;
    leaf_value_ = value;
  }

 private:
  friend Value Evaluate(SLExpressionNode* node, Frame& frame);
  Leaf leaf_ = Leaf::kNone;
  int leaf_slot_ = 0;
  Value leaf_value_ = Value::Illegal();
};

// Evaluates a child expression; reads locals and constants inline. An
// uninitialized local falls back to Execute(), which reports it. Forced
// inline: GCC kept it out of line in the launcher (a call per child, 23% of
// the AST interpreter's cycles on `loop`) while inlining it in
// testing/host_inlining's copy of the same nodes.
MOREL_FAST_PATH Value Evaluate(SLExpressionNode* node, Frame& frame) {
  switch (node->leaf_) {
    case SLExpressionNode::Leaf::kLocal: {
      Value value = frame.Get(node->leaf_slot_);
      if (!value.IsIllegal()) return value;
      break;
    }
    case SLExpressionNode::Leaf::kConstant:
      return node->leaf_value_;
    case SLExpressionNode::Leaf::kNone:
      break;
  }
  return node->Execute(frame);
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
MOREL_FAST_PATH Completion ExecuteChild(SLStatementNode* node, Frame& frame) {
  return node->Execute(frame);
}

}  // namespace morel::sl

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

#endif  // MOREL_LANGUAGES_SL_NODES_SL_NODE_H_
