#include "osr/osr_root_node.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace morel::osr {

OsrRootNode::OsrRootNode(LoopNode* loop, RootNode* function_root)
    : RootNode(loop->EncapsulatingSourceSection() != nullptr
                   ? *loop->EncapsulatingSourceSection()
                   : SourceSection{},
               NameFor(*loop, *function_root),
               function_root->frame_descriptor().CopyUninitialized()),
      loop_(loop),
      function_root_(function_root) {}

std::string OsrRootNode::NameFor(const LoopNode& loop, const RootNode& function_root) {
  const SourceSection* section = loop.EncapsulatingSourceSection();
  return absl::StrCat(function_root.name(), ":", section != nullptr ? section->line : 0,
                      " ", loop.repeating_node()->kind_name(), "<OSR>");
}

Value OsrRootNode::Execute(Frame&) {
  MOREL_UNREACHABLE(absl::StrCat(name(), " runs compiled code only"));
}

}  // namespace morel::osr
