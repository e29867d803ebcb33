#include "nodes/call_nodes.h"

namespace morel {

DirectCallNode::DirectCallNode(CallTarget* target)
    : call_target_(target),
      current_call_target_(target),
      call_target_token_(target->HolderToken()) {}

DirectCallNode::~DirectCallNode() {
  // Unregisters from the callee it is registered with (InstallSplit moved
  // the registration to the split), unless that target is gone already (a
  // runtime's teardown destroys its targets in any order).
  const std::shared_ptr<const CallTarget::Token>& registered =
      split_token_ != nullptr ? split_token_ : call_target_token_;
  if (CallTarget* target = registered->target()) target->RemoveDirectCallNode(this);
}

std::unique_ptr<DirectCallNode> DirectCallNode::Create(CallTarget* target) {
  std::unique_ptr<DirectCallNode> call(new DirectCallNode(target));
  target->AddDirectCallNode(call.get());
  target->runtime()->OnDirectCallNodeCreated(*call);
  return call;
}

CallTarget* DirectCallNode::DecideSplit(CallTarget* target) {
  // Decided once, even if the split is refused (Truffle sets splitDecided
  // before asking the strategy). The exchange makes it once also when
  // threads race here: only the winner asks; the others call `target`.
  if (split_decided_.exchange(true, std::memory_order_acq_rel)) return target;
  CallTarget* chosen = target->runtime()->BeforeDirectCall(*this, target);
  return chosen != nullptr ? chosen : target;
}

bool DirectCallNode::CloneCallTarget() {
  if (IsCallTargetCloned()) return true;
  return call_target_->runtime()->ForceSplit(*this);
}

void DirectCallNode::InstallSplit(CallTarget* split) {
  CallTarget* old = current_call_target();
  // Before the node can call it; one split per node (IsCallTargetCloned).
  split_token_ = split->HolderToken();
  old->RemoveDirectCallNode(this);
  split->AddDirectCallNode(this);
  current_call_target_.store(split, std::memory_order_release);
}

}  // namespace morel
