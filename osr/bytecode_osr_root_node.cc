#include "osr/bytecode_osr_root_node.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace morel::osr {

BytecodeOsrRootNode::BytecodeOsrRootNode(bytecode::BytecodeRootNode* function_root, int entry_bci)
    : RootNode(function_root->source_section(), NameFor(*function_root, entry_bci),
               function_root->frame_descriptor().CopyUninitialized()),
      function_root_(function_root),
      entry_bci_(entry_bci) {
  MOREL_CHECK_MSG(entry_bci >= 0 && entry_bci < static_cast<int>(function_root->code().size()) &&
                      function_root->stack_height(entry_bci) >= 0,
                  "a bytecode OSR entry must be a reachable instruction");
}

std::string BytecodeOsrRootNode::NameFor(const RootNode& function_root, int entry_bci) {
  return absl::StrCat(function_root.name(), "<OSR@", entry_bci, ">");
}

Value BytecodeOsrRootNode::Execute(Frame&) {
  MOREL_UNREACHABLE(absl::StrCat(name(), " runs compiled code only"));
}

}  // namespace morel::osr
