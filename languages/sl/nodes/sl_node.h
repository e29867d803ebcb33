#ifndef MOREL_LANGUAGES_SL_NODES_SL_NODE_H_
#define MOREL_LANGUAGES_SL_NODES_SL_NODE_H_

// The two SL node families: expressions produce a value; statements produce
// a completion status, so that break/continue/return travel as return values
// instead of C++ exceptions (the result of a return is in the frame's
// return-value register).

#include <memory>

#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "nodes/node.h"
#include "nodes/value.h"

namespace morel::sl {

class SLExpressionNode : public Node {
 public:
  using Node::Node;
  virtual Value Execute(Frame& frame) = 0;
};

// How a statement completed. kNormal equals RepeatingNode::kContinueLoop so a
// loop body's normal completion continues the loop.
enum Completion : int {
  kNormal = RepeatingNode::kContinueLoop,
  kBreak = 1,
  kContinue = 2,
  kReturn = 3,
};

class SLStatementNode : public Node {
 public:
  using Node::Node;
  virtual Completion Execute(Frame& frame) = 0;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_SL_NODE_H_
