#ifndef MOREL_OSR_OSR_ROOT_NODE_H_
#define MOREL_OSR_OSR_ROOT_NODE_H_

// OsrRootNode: the root of an OSR call target (Truffle's LoopOSRRootNode),
// which compiles one LoopNode of a running activation. It does not own the
// loop — the loop stays in its function's tree, and compilation reads that
// tree under the function root's lock (CompiledTreeRoot). Its code runs on
// the activation's frame: the frame's slots come in through the arguments
// pointer, go back out when the loop exits, and the loop's status is the
// result. The partial evaluator compiles it (engine/pe:
// PartialEvaluator::EvaluateOsrLoop, through the loop's
// RepeatingNode::PartialEvaluateLoop), so this package depends on nodes/
// only and never on the engine.
//
// It never runs in the interpreter: the interpreter keeps running the loop
// itself, and only calls the OSR target's installed code.

#include <memory>
#include <string>

#include "nodes/loop_node.h"
#include "nodes/root_node.h"
#include "osr/osr_entry_tags.h"

namespace morel::osr {

class OsrRootNode final : public RootNode {
 public:
  MOREL_NODE_KIND(OsrRootNode)
  // `loop` belongs to `function_root`'s tree.
  OsrRootNode(LoopNode* loop, RootNode* function_root);

  // Truffle's AST-loop OSR name: the repeating node, then "<OSR>"; here
  // with the function and line to tell loops apart.
  static std::string NameFor(const LoopNode& loop, const RootNode& function_root);

  // Never called: OSR targets run compiled code only (engine/runtime).
  Value Execute(Frame& frame) override;
  RootNode* CompiledTreeRoot() override { return function_root_; }
  bool IsInternal() const override { return true; }  // hidden from stack walks

  LoopNode* loop() const { return loop_; }
  RootNode* function_root() const { return function_root_; }
  // The frame's slot tags at the latest compilation request.
  OsrEntryTags& entry_tags() { return entry_tags_; }

 private:
  LoopNode* loop_;
  RootNode* function_root_;
  OsrEntryTags entry_tags_;
};

}  // namespace morel::osr

#endif  // MOREL_OSR_OSR_ROOT_NODE_H_
