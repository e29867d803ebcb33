#include "nodes/root_node.h"

#include "absl/strings/str_cat.h"

namespace morel {

RootNode::RootNode(SourceSection source_section, std::string name,
                   std::unique_ptr<FrameDescriptor> frame_descriptor)
    : Node(std::move(source_section)),
      name_(std::move(name)),
      frame_descriptor_(std::move(frame_descriptor)) {
  if (frame_descriptor_ == nullptr) {
    frame_descriptor_ = std::make_unique<FrameDescriptor>();
  }
}

RootNode::~RootNode() = default;

absl::Status RootNode::PartialEvaluate(pe::PartialEvaluator&) {
  return absl::UnimplementedError(
      absl::StrCat(kind_name(), " does not support partial evaluation"));
}

void RootNode::Retire(std::unique_ptr<Node> node) {
  std::lock_guard<std::recursive_mutex> guard(lock_);
  retired_.push_back(std::move(node));
}

}  // namespace morel
