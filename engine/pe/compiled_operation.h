#ifndef MOREL_ENGINE_PE_COMPILED_OPERATION_H_
#define MOREL_ENGINE_PE_COMPILED_OPERATION_H_

// WithOperands: how a bytecode operation that is not written once
// (nodes/execution.h, whose CompileOperation does this itself) keeps the
// pe::CompiledOperation contract declared there.

#include "absl/types/span.h"
#include "engine/pe/partial_evaluator.h"
#include "nodes/execution.h"
#include "nodes/node.h"

namespace morel::pe {

// Enter(node), every operand done, `body()`, Leave(): returns body's value.
template <typename Body>
PeValue WithOperands(PartialEvaluator& pe, Node* node, absl::Span<const PeValue> operands,
                     Body body) {
  pe.Enter(node);
  for (const PeValue& operand : operands) pe.DoneValue(operand);
  PeValue result = body();
  pe.Leave();
  return result;
}

}  // namespace morel::pe

#endif  // MOREL_ENGINE_PE_COMPILED_OPERATION_H_
