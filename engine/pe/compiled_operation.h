#ifndef MOREL_ENGINE_PE_COMPILED_OPERATION_H_
#define MOREL_ENGINE_PE_COMPILED_OPERATION_H_

// CompiledOperation: what a bytecode operation (nodes/bytecode/
// bytecode_operation.h, `op k n`) emits when partial evaluation
// merge-explodes its bytecode root (bytecode_explode.cc). The operation's
// node implements it beside BytecodeOperation, with the same
// specializations its ExecuteOperation runs (Specializer::PartialEvaluate).
//
// Contract: the operation brackets its code with Enter(node)/Leave and
// reports each operand as a done value, bottom first (WithOperands does
// both), so a frame state inside it resumes the node through
// Node::Resume(frame, n, operands) -- its operator with these operands --
// and the root then continues after the instruction with the result.
// Nodes built for bytecode have no children: their Resume must not
// evaluate one when next_child reaches the operand count.

#include "absl/types/span.h"
#include "engine/pe/partial_evaluator.h"
#include "nodes/node.h"

namespace morel::pe {

class CompiledOperation {
 public:
  virtual ~CompiledOperation() = default;
  // Emits the operation on `operands` (bottom of the stack first) and
  // returns the value the instruction pushes. May bail out (pe.Bailout).
  virtual PeValue PartialEvaluateOperation(PartialEvaluator &pe,
                                           absl::Span<const PeValue> operands) = 0;
};

// Enter(node), every operand done, `body()`, Leave(): returns body's value.
template <typename Body>
PeValue WithOperands(PartialEvaluator &pe, Node *node, absl::Span<const PeValue> operands,
                     Body body) {
  pe.Enter(node);
  for (const PeValue &operand : operands) pe.DoneValue(operand);
  PeValue result = body();
  pe.Leave();
  return result;
}

}  // namespace morel::pe

#endif  // MOREL_ENGINE_PE_COMPILED_OPERATION_H_
