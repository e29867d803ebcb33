#ifndef MOREL_LANGUAGES_SL_ROOT_NODES_H_
#define MOREL_LANGUAGES_SL_ROOT_NODES_H_

// The roots of SL call targets: user functions and builtins.

#include <memory>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "languages/sl/nodes/arithmetic_nodes.h"
#include "languages/sl/nodes/comparison_nodes.h"
#include "languages/sl/nodes/invoke_node.h"
#include "languages/sl/nodes/logical_nodes.h"
#include "languages/sl/nodes/property_nodes.h"
#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/nodes/statement_nodes.h"
#include "languages/sl/parser/ast.h"
#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/root_node.h"

namespace morel::sl {

class SLContext;

// How an SL function's code names the functions it refers to: exactly one
// of the two is set.
struct FunctionBinding {
  // Single-context code: function literals are this context's functions,
  // constants of the AST and of compiled code.
  SLContext* context = nullptr;
  // Shared code (sl_shared_code.h): literals are ids of this table,
  // resolved in the context running the code.
  FunctionIds* shared_ids = nullptr;
  // Which interpreter runs the function (--sl.UseBytecode): an
  // SLBytecodeRootNode (bytecode_parser.h) instead of an AST.
  bool bytecode = false;
};

// A user function: binds arguments to parameter slots (missing ones are
// NULL, extra ones dropped), runs the body, returns the returned value or
// NULL. Splittable: an uninitialized copy is rebuilt from the retained AST.
class SLFunctionRootNode final : public RootNode {
 public:
  MOREL_NODE_KIND(SLFunctionRootNode)
  SLFunctionRootNode(SourceSection section, std::string name,
                     std::unique_ptr<FrameDescriptor> descriptor, std::vector<int> parameter_slots,
                     std::unique_ptr<SLBlockNode> body, FunctionBinding binding,
                     std::shared_ptr<const ast::Program> program, int function_index);

  MOREL_INTERPRETED_BY_RUN(SLFunctionRootNode, Value, Execute)
  MOREL_COMPILED_BY_RUN(SLFunctionRootNode, absl::Status, PartialEvaluate)
  // The parameters into their slots, then the body; the result is what a
  // `return` returned, or NULL.
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    // The slots in locals: RecordWrite's byte stores could alias the
    // vector, which GCC then reloaded on every parameter.
    const int* const slots = parameter_slots_.data();
    const size_t count = parameter_slots_.size();
    for (size_t i = 0; i < count; ++i) {
      typename X::V value = x.Argument(static_cast<int>(i), NullValue());
      if constexpr (X::InInterpreter()) x.frame().descriptor().RecordWrite(slots[i], value);
      x.SetLocal(slots[i], value);
    }
    return x.Execute(body_) == kReturn ? x.ReturnValue() : x.Constant(NullValue());
  }
  MOREL_CHILDREN(body_)
  bool IsCloningAllowed() const override { return true; }
  std::unique_ptr<RootNode> CloneUninitialized() const override;

 private:
  std::vector<int> parameter_slots_;
  Child<SLBlockNode> body_;
  FunctionBinding binding_;
  std::shared_ptr<const ast::Program> program_;
  int function_index_;
};

// The operations SL's bytecode interpreter switch inlines
// (nodes/bytecode/bytecode_switch.h): arithmetic, comparisons, conditions
// and calls (measured with callgrind, bytecode interpreter: the calls' fast
// path inlined saves 1.5-2% of fib's, richards' and binarytrees'
// instructions). Property reads and writes it calls, out of line, on their
// operands in place (CalledOperation): their cache guards inlined into the
// loop cost more than the call they save (fields +7% instructions, richards
// +4%), and through their vtables, with the operands copied onto the stack
// first, they cost more than the direct call (callgrind: fields 0.89,
// records 0.94, richards 0.95 against the vtable call; paired wall time
// fields 0.89, richards 0.89, records 0.92).
using SLInlinedOperations =
    bytecode::InlinedOperations<SLAddNode, SLSubNode, SLMulNode, SLDivNode, SLLessThanNode,
                                SLLessOrEqualNode, SLEqualNode, SLNotNode, SLToBooleanNode,
                                SLInvokeNode, bytecode::CalledOperation<SLReadPropertyNode>,
                                bytecode::CalledOperation<SLWritePropertyNode>>;

}  // namespace morel::sl

// Instantiated once, in root_nodes.cc.
extern template class morel::bytecode::BytecodeRootNodeWith<morel::sl::SLInlinedOperations>;

namespace morel::sl {

// A user function in bytecode mode (--sl.UseBytecode; bytecode_parser.h
// makes its code): run by nodes/bytecode's interpreter with SL's switch,
// compiled by the partial evaluator's merge-explode. Splittable like
// SLFunctionRootNode: an uninitialized copy is rebuilt from the retained AST.
class SLBytecodeRootNode final : public bytecode::BytecodeRootNodeWith<SLInlinedOperations> {
 public:
  MOREL_NODE_KIND(SLBytecodeRootNode)
  SLBytecodeRootNode(SourceSection section, std::string name,
                     std::unique_ptr<FrameDescriptor> descriptor, bytecode::BytecodeProgram code,
                     FunctionBinding binding, std::shared_ptr<const ast::Program> program,
                     int function_index);
  bool IsCloningAllowed() const override { return true; }
  std::unique_ptr<RootNode> CloneUninitialized() const override;

 private:
  FunctionBinding binding_;
  std::shared_ptr<const ast::Program> program_;
  int function_index_;
};

using BuiltinFunction = Value (*)(SLContext& context, absl::Span<const Value> args);
struct BuiltinSpec;  // builtins.h

// A builtin (sl_spec §9): pads missing arguments with NULL and drops extra
// ones before calling the C++ function. Internal: stack walks stop here.
class SLBuiltinRootNode final : public RootNode, public DirectlyCallableBuiltin {
 public:
  MOREL_NODE_KIND(SLBuiltinRootNode)
  // `spec` (an entry of Builtins()' table) outlives the node. `context`:
  // the one context the builtin serves, or null for shared code (the
  // builtin serves the context running on the calling thread).
  SLBuiltinRootNode(const BuiltinSpec& spec, SLContext* context);

  Value Execute(Frame& frame) override;
  bool IsInternal() const override { return true; }
  bool InspectsCallerFrame() const override;
  bool WritesCallerFrame() const override;
  bool may_run_guest_code() const override;
  bool calls_guest_functions() const override;
  Intrinsic intrinsic() const override;

  // Runs the builtin on `args` (missing ones are NULL, extra ones ignored)
  // without a frame of its own: what compiled callers do for builtins that
  // do not inspect their caller's frame (a runtime call instead of a call
  // through the builtin's call target and the interpreter).
  Value InvokeDirectly(absl::Span<const Value> args) const override;

 private:
  const BuiltinSpec& spec_;
  int arity_;
  BuiltinFunction function_;
  SLContext* context_;  // null: the current context
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_ROOT_NODES_H_
