#ifndef MOREL_OSR_BYTECODE_OSR_ROOT_NODE_H_
#define MOREL_OSR_BYTECODE_OSR_ROOT_NODE_H_

// BytecodeOsrRootNode: the root of a bytecode OSR call target (Truffle's
// BytecodeOSRRootNode), which compiles a BytecodeRootNode from one entry
// bci (a loop header a back edge jumps to) to the end of the function. Like
// OsrRootNode it does not own the code: the function's root stays in its
// call target, and compilation reads it under that root's lock
// (CompiledTreeRoot). Its code runs on the activation's frame (the locals,
// then the operand stack of the entry bci) and returns the function's
// result. The partial evaluator compiles it (engine/pe:
// PartialEvaluator::EvaluateBytecode from the entry bci), so this package
// never depends on the engine.
//
// It never runs in the interpreter: the interpreter keeps running the
// function itself, and only calls the OSR target's installed code.

#include <string>

#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/root_node.h"

namespace morel::osr {

class BytecodeOsrRootNode final : public RootNode {
 public:
  MOREL_NODE_KIND(BytecodeOsrRootNode)
  // `entry_bci` is a branch target of `function_root`'s code.
  BytecodeOsrRootNode(bytecode::BytecodeRootNode* function_root, int entry_bci);

  // Truffle's bytecode OSR name: the function's, then "<OSR@bci>".
  static std::string NameFor(const RootNode& function_root, int entry_bci);

  // Never called: OSR targets run compiled code only (engine/runtime).
  Value Execute(Frame& frame) override;
  RootNode* CompiledTreeRoot() override { return function_root_; }
  bool IsInternal() const override { return true; }  // hidden from stack walks

  bytecode::BytecodeRootNode* function_root() const { return function_root_; }
  int entry_bci() const { return entry_bci_; }

 private:
  bytecode::BytecodeRootNode* function_root_;
  int entry_bci_;
};

}  // namespace morel::osr

#endif  // MOREL_OSR_BYTECODE_OSR_ROOT_NODE_H_
