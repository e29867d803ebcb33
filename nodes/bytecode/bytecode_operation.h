#ifndef MOREL_NODES_BYTECODE_BYTECODE_OPERATION_H_
#define MOREL_NODES_BYTECODE_BYTECODE_OPERATION_H_

// BytecodeOperation: what `op k n` runs (bytecode.h). An operation is a
// node of the language -- typically the very node class its AST
// interpreter uses, with its Specializer, built without children -- that
// also implements this interface, so it keeps its own state word and
// inline caches per instruction, reports polymorphism through its root (so
// splitting works), and runs the same specializations on the values the
// instruction takes from the operand stack. No operation's semantics is
// written a second time.
//
// The bytecode root adopts the operations' nodes as its children:
// GetRootNode(), node counts and splitting see them as any node. An
// operation that replaces itself (Node::Replace) must be replaced by
// another operation.

#include <memory>
#include <type_traits>

#include "absl/types/span.h"
#include "base/check.h"
#include "nodes/frame.h"
#include "nodes/node.h"
#include "nodes/value.h"

namespace morel {
class CallTarget;
class DirectCallNode;
}  // namespace morel

namespace morel::bytecode {

class BytecodeOperation {
 public:
  virtual ~BytecodeOperation() = default;
  // Runs the operation on `operands` (the top of the operand stack, bottom
  // first) in `frame`; returns the value the instruction pushes.
  virtual Value ExecuteOperation(Frame& frame, absl::Span<const Value> operands) = 0;
};

// A call an operation makes. A class that a switch inlines and that calls
// (the language's call node as an operation) may declare
//
//   OperationCall CallFor(absl::Span<const Value> operands);
//
// returning what ExecuteOperation would do for `operands` right now when
// that is a call with its result as the operation's: `call->Call(arguments)`
// (a direct call), `target->Call(arguments)` (an indirect one, with no call
// node), or `function(data, arguments)` (a host function that needs no
// frame, such as a language's builtin), `arguments` a part of the operands;
// and none of them otherwise. The switch then makes the call itself, and
// runs the callee in its own loop when the callee is a root of the same
// switch (bytecode_switch.h).
struct OperationCall {
  using Function = Value (*)(const void* data, absl::Span<const Value> arguments);

  DirectCallNode* call = nullptr;
  CallTarget* target = nullptr;
  Function function = nullptr;
  const void* data = nullptr;
  absl::Span<const Value> arguments;

  // A call of a root (`call` or `target`).
  bool IsCall() const { return call != nullptr || target != nullptr; }
};

// An operation's node and its BytecodeOperation interface (the same object).
struct OperationNode {
  std::unique_ptr<Node> node;
  BytecodeOperation* operation = nullptr;

  template <typename T>
  static OperationNode Of(std::unique_ptr<T> op) {
    static_assert(std::is_base_of_v<Node, T> && std::is_base_of_v<BytecodeOperation, T>,
                  "an operation is a Node that implements BytecodeOperation");
    BytecodeOperation* operation = op.get();
    return OperationNode{std::unique_ptr<Node>(op.release()), operation};
  }
  // A node known only as a Node (or a base class) that must be an operation.
  static OperationNode OfNode(std::unique_ptr<Node> node) {
    auto* operation = dynamic_cast<BytecodeOperation*>(node.get());
    MOREL_CHECK_MSG(operation != nullptr,
                    "a bytecode operation's node implements BytecodeOperation");
    return OperationNode{std::move(node), operation};
  }
};

}  // namespace morel::bytecode

#endif  // MOREL_NODES_BYTECODE_BYTECODE_OPERATION_H_
