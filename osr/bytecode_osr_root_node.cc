#include "osr/bytecode_osr_root_node.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace morel::osr {

BytecodeOsrRootNode::BytecodeOsrRootNode(BytecodeOSRNode* node, RootNode* function_root,
                                         int entry_bci, int64_t interpreter_state)
    : RootNode(function_root->source_section(), NameFor(*function_root, entry_bci),
               function_root->frame_descriptor().CopyUninitialized()),
      node_(node),
      function_root_(function_root),
      entry_bci_(entry_bci),
      interpreter_state_(interpreter_state) {
  MOREL_CHECK_MSG(entry_bci >= 0, "a bytecode OSR entry is a bytecode index");
  set_extra_frame_slots(function_root->extra_frame_slots());
}

std::string BytecodeOsrRootNode::NameFor(const RootNode& function_root, int entry_bci) {
  return absl::StrCat(function_root.name(), "<OSR@", entry_bci, ">");
}

Value BytecodeOsrRootNode::Execute(Frame& frame) {
  return node_->ExecuteOSR(frame, entry_bci_, interpreter_state_);
}

}  // namespace morel::osr
