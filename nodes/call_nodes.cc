#include "nodes/call_nodes.h"

namespace morel {

DirectCallNode::DirectCallNode(CallTarget* target)
    : call_target_(target), current_call_target_(target) {}

DirectCallNode::~DirectCallNode() = default;

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
  old->RemoveDirectCallNode(this);
  split->AddDirectCallNode(this);
  current_call_target_.store(split, std::memory_order_release);
}

}  // namespace morel
