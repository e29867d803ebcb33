// The interpreter's fast paths that host_inlining_test checks (issue #16),
// compiled here with the optimized build's flags (BUILD). Each root is a
// wrapper, morel_host_root_<name>, that calls one node method non-virtually:
// the compiler either inlines the method into the wrapper or calls its
// out-of-line copy, and the checker (check_fast_paths.py) follows such a call
// to the method. fast_paths.txt says which method each root reaches and which
// calls its code may keep.
//
// Bytecode dispatch is not wrapped: this library compiles
// bytecode_root_node.cc itself (the generic switch) and instantiates SL's
// switch below, so both loops' optimized code is in the same archive.

#include <memory>
#include <utility>

#include "absl/types/span.h"
#include "languages/sl/nodes/arithmetic_nodes.h"
#include "languages/sl/nodes/comparison_nodes.h"
#include "languages/sl/nodes/invoke_node.h"
#include "languages/sl/nodes/local_nodes.h"
#include "languages/sl/nodes/property_nodes.h"
#include "languages/sl/nodes/statement_nodes.h"
#include "languages/sl/root_nodes.h"
#include "nodes/bytecode/bytecode_switch.h"
#include "nodes/frame.h"
#include "nodes/value.h"

namespace morel::sl {

#define MOREL_HOST_ROOT(name, Node, call)                                     \
  extern "C" Value morel_host_root_##name(Node& node, Frame& frame,           \
                                          absl::Span<const Value> operands) { \
    (void)frame;                                                              \
    (void)operands;                                                           \
    return node.Node::call;                                                   \
  }

// AST interpreter: each node's Execute.
MOREL_HOST_ROOT(sl_add, SLAddNode, Execute(frame))
MOREL_HOST_ROOT(sl_less_than, SLLessThanNode, Execute(frame))
MOREL_HOST_ROOT(sl_add_call_free, SLAddNode, ExecuteCallFree(frame))
MOREL_HOST_ROOT(sl_less_than_call_free, SLLessThanNode, ExecuteCallFree(frame))
MOREL_HOST_ROOT(sl_read_local, SLReadLocalNode, Execute(frame))
MOREL_HOST_ROOT(sl_write_local, SLWriteLocalNode, Execute(frame))
MOREL_HOST_ROOT(sl_read_property, SLReadPropertyNode, Execute(frame))
MOREL_HOST_ROOT(sl_read_property_call_free, SLReadPropertyNode, ExecuteCallFree(frame))
MOREL_HOST_ROOT(sl_write_property, SLWritePropertyNode, Execute(frame))
MOREL_HOST_ROOT(sl_invoke, SLInvokeNode, Execute(frame))

// Bytecode interpreter: the same nodes as operations on the operand stack.
MOREL_HOST_ROOT(sl_add_operation, SLAddNode, ExecuteOperation(frame, operands))
MOREL_HOST_ROOT(sl_less_than_operation, SLLessThanNode, ExecuteOperation(frame, operands))
MOREL_HOST_ROOT(sl_read_property_operation, SLReadPropertyNode, ExecuteOperation(frame, operands))
MOREL_HOST_ROOT(sl_write_property_operation, SLWritePropertyNode, ExecuteOperation(frame, operands))
MOREL_HOST_ROOT(sl_invoke_operation, SLInvokeNode, ExecuteOperation(frame, operands))

#undef MOREL_HOST_ROOT

// A while loop as its LoopNode runs it (LoopNode::RunAs, instantiated by
// this constructor's call): the iteration and the body block inline.
LoopNode* MorelHostRootSlWhileLoop(std::unique_ptr<SLWhileRepeatingNode> body) {
  return new LoopNode(std::move(body));
}

}  // namespace morel::sl

// SL's bytecode interpreter switch: the loop with SL's inlined operations
// (root_nodes.h).
template morel::Value
morel::bytecode::BytecodeRootNode::DispatchWith<morel::sl::SLInlinedOperations>(morel::Frame&, int,
                                                                                int);
