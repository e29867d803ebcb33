#include "osr/osr_root_node.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "engine/pe/partial_evaluator.h"

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

absl::Status OsrRootNode::PartialEvaluate(pe::PartialEvaluator& pe) {
  pe.EnterOsr();
  pe.Enter(loop_);
  int status = loop_->repeating_node()->PartialEvaluateLoop(pe);
  if (status < 0) {
    return absl::UnimplementedError(absl::StrCat(
        "loops of ", loop_->repeating_node()->kind_name(), " cannot be compiled"));
  }
  pe.Leave();
  if (!pe.Terminated()) pe.ExitOsr(status);
  return absl::OkStatus();
}

}  // namespace morel::osr
