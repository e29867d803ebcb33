#ifndef MOREL_OSR_BYTECODE_OSR_ROOT_NODE_H_
#define MOREL_OSR_BYTECODE_OSR_ROOT_NODE_H_

// BytecodeOsrRootNode: the root of a bytecode OSR call target (Truffle's
// BytecodeOSRRootNode): a BytecodeOSRNode from one entry (a back edge's
// target bci, with the interpreter state of the first TryOSR there) to the
// end of the call target. Like OsrRootNode it does not own the code: the
// node stays in its function's tree, and compilation reads that tree under
// its root's lock (CompiledTreeRoot). Its code runs on the OSR frame (a copy
// of the activation's frame) and returns the function's result.
//
// Executed, it is the node's ExecuteOSR; compiled, the partial evaluator
// merge-explodes a nodes/bytecode interpreter from the entry bci
// (engine/pe: PartialEvaluator::EvaluateBytecode), so this package never
// depends on the engine.

#include <cstdint>
#include <string>

#include "nodes/bytecode_osr_node.h"
#include "nodes/root_node.h"
#include "osr/osr_entry_tags.h"

namespace morel::osr {

class BytecodeOsrRootNode final : public RootNode {
 public:
  MOREL_NODE_KIND(BytecodeOsrRootNode)
  // `node` is in the tree of `function_root`; `entry_bci` is one of its back
  // edges' targets.
  BytecodeOsrRootNode(BytecodeOSRNode* node, RootNode* function_root, int entry_bci,
                      int64_t interpreter_state);

  // Truffle's bytecode OSR name: the function's, then "<OSR@bci>".
  static std::string NameFor(const RootNode& function_root, int entry_bci);

  // The node's ExecuteOSR from the entry on `frame` (an OSR frame).
  Value Execute(Frame& frame) override;
  RootNode* CompiledTreeRoot() override { return function_root_; }
  bool IsInternal() const override { return true; }  // hidden from stack walks

  BytecodeOSRNode* osr_node() const { return node_; }
  RootNode* function_root() const { return function_root_; }
  int entry_bci() const { return entry_bci_; }
  int64_t interpreter_state() const { return interpreter_state_; }
  // The frame's slot tags at the latest compilation request.
  OsrEntryTags& entry_tags() { return entry_tags_; }

 private:
  BytecodeOSRNode* node_;
  RootNode* function_root_;
  int entry_bci_;
  int64_t interpreter_state_;
  OsrEntryTags entry_tags_;
};

}  // namespace morel::osr

#endif  // MOREL_OSR_BYTECODE_OSR_ROOT_NODE_H_
