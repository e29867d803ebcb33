#include "nodes/bytecode_osr_node.h"

#include <algorithm>

#include "base/check.h"
#include "nodes/call_target.h"
#include "nodes/node.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"

namespace morel {
namespace {

// The Values a frame's storage holds (its root's frame_storage_size; the
// descriptor's slots and the scratch slot for a frame without a root).
int StorageSize(const Frame& frame) {
  return frame.root() != nullptr ? frame.root()->frame_storage_size()
                                 : frame.descriptor().size() + 1;
}

}  // namespace

BytecodeOSRMetadata* BytecodeOSRMetadata::Disabled() {
  // A static object, never freed: nodes of every runtime may point at it.
  static BytecodeOSRMetadata* const disabled = new BytecodeOSRMetadata();
  return disabled;
}

void BytecodeOSRNode::CopyIntoOSRFrame(Frame& osr_frame, const Frame& parent_frame, int) {
  const int size = StorageSize(parent_frame);
  MOREL_CHECK_MSG(StorageSize(osr_frame) == size,
                  "an OSR frame must have the layout of the frame it replaces");
  std::copy_n(parent_frame.slot_storage(), size, osr_frame.slot_storage());
}

void BytecodeOSRNode::RestoreParentFrame(const Frame& osr_frame, Frame& parent_frame) {
  std::copy_n(osr_frame.slot_storage(), StorageSize(parent_frame), parent_frame.slot_storage());
}

Node& BytecodeOSRNode::AsNode() {
  auto* node = dynamic_cast<Node*>(this);
  MOREL_CHECK_MSG(node != nullptr, "a BytecodeOSRNode must be a Node");
  return *node;
}

const Node& BytecodeOSRNode::AsNode() const {
  return const_cast<BytecodeOSRNode*>(this)->AsNode();
}

NodeRuntime* BytecodeOSRNode::Runtime() const {
  RootNode* root = AsNode().GetRootNode();
  return root != nullptr && root->call_target() != nullptr ? root->call_target()->runtime()
                                                           : nullptr;
}

bool BytecodeOSRNode::PollSlowPath(int64_t previous, int64_t count) {
  NodeRuntime* runtime = Runtime();
  if (runtime == nullptr) {
    // Not in a call target yet (a tree being built): ask again later.
    SetOSRNextPoll(count + kPollInterval);
    return false;
  }
  return runtime->OnBytecodeOSRPoll(*this, previous, count);
}

std::optional<Value> BytecodeOSRNode::TryOSR(BytecodeOSRNode& node, int target_bci,
                                             int64_t interpreter_state,
                                             absl::FunctionRef<void()> before_transfer,
                                             Frame& parent_frame) {
  NodeRuntime* runtime = node.Runtime();
  if (runtime == nullptr) return std::nullopt;
  return runtime->TryBytecodeOSR(node, target_bci, interpreter_state, before_transfer,
                                 parent_frame);
}

bool NodeRuntime::OnBytecodeOSRPoll(BytecodeOSRNode& node, int64_t, int64_t) {
  // No OSR here: the shared disabled marker, and no poll ever again.
  node.SetOSRMetadata(BytecodeOSRMetadata::Disabled());
  node.SetOSRNextPoll(BytecodeOSRNode::kNeverPoll);
  return false;
}

}  // namespace morel
