#ifndef MOREL_NODES_CALL_NODES_H_
#define MOREL_NODES_CALL_NODES_H_

// Calls between call targets.
//
// DirectCallNode: a call site whose callee is known when the node is
// created. Creating one registers it as a known caller of the target (the
// splitting policy's input), and it holds the target (and a split copy it
// calls) for as long as it exists (CallTarget::HolderToken). At its first interpreter call after the target
// was marked needs-split, the node asks the runtime once whether to split
// (Truffle: one split decision per call node). It can be split by force
// (CloneCallTarget) and counts its calls (inlining frequency).
//
// IndirectCallNode: a call site whose callee varies; calls whatever target
// it is given.

#include <atomic>
#include <memory>

#include "absl/types/span.h"
#include "nodes/call_target.h"
#include "nodes/directives.h"
#include "nodes/node.h"
#include "nodes/node_runtime.h"
#include "nodes/value.h"

namespace morel {

class DirectCallNode final : public Node {
 public:
  MOREL_NODE_KIND(DirectCallNode)

  // Creates the call node and registers it with `target`.
  static std::unique_ptr<DirectCallNode> Create(CallTarget* target);
  ~DirectCallNode() override;

  Value Call(absl::Span<const Value> arguments) { return TargetForCall()->Call(arguments); }
  // What Call() does before it calls the target: decides a pending split,
  // counts the call; returns the target to call. For an interpreter loop
  // that may run the callee itself (CallTarget::EnterInterpreterInPlace).
  MOREL_FAST_PATH CallTarget* TargetForCall() {
    CallTarget* target = current_call_target_.load(std::memory_order_acquire);
    if (target->needs_split() && !split_decided_.load(std::memory_order_relaxed)) {
      target = DecideSplit(target);
    }
    // Approximate under concurrency, like every profiling counter.
    call_count_.store(call_count_.load(std::memory_order_relaxed) + 1,
                      std::memory_order_relaxed);
    return target;
  }

  // The target this node was created for.
  CallTarget* call_target() const { return call_target_; }
  // The target it calls now: call_target() or a split copy of it.
  CallTarget* current_call_target() const {
    return current_call_target_.load(std::memory_order_acquire);
  }
  bool IsCallTargetCloned() const { return current_call_target() != call_target_; }
  // Whether the callee's root allows splitting.
  bool IsCallTargetCloningAllowed() const {
    return call_target_->root_node()->IsCloningAllowed();
  }
  // Forces a split of the callee for this call site (Truffle's
  // cloneCallTarget); returns whether this node now calls a split copy.
  bool CloneCallTarget();
  // Marks the call for inlining regardless of the inlining budget.
  void ForceInlining() { inlining_forced_ = true; }
  bool is_inlining_forced() const { return inlining_forced_; }
  int call_count() const { return call_count_.load(std::memory_order_relaxed); }
  bool split_decided() const { return split_decided_.load(std::memory_order_relaxed); }

  // Installs `split` (a split copy of call_target()) as the callee: moves
  // this node's caller registration from the old callee to the copy. Used by
  // the splitting policy under the caller's root lock.
  void InstallSplit(CallTarget* split);

 private:
  explicit DirectCallNode(CallTarget* target);
  MOREL_INLINING_CUTOFF CallTarget* DecideSplit(CallTarget* target);

  CallTarget* call_target_;
  std::atomic<CallTarget*> current_call_target_;
  // Keep call_target_ and the installed split from being freed while this
  // node exists (CallTarget::HolderToken).
  std::shared_ptr<const CallTarget::Token> call_target_token_;
  std::shared_ptr<const CallTarget::Token> split_token_;
  std::atomic<int> call_count_{0};
  // Atomic: interpreter threads may share a call node. A plain bool was a
  // data race, and two threads could both ask the runtime to split.
  std::atomic<bool> split_decided_{false};
  bool inlining_forced_ = false;
};

class IndirectCallNode final : public Node {
 public:
  MOREL_NODE_KIND(IndirectCallNode)

  static std::unique_ptr<IndirectCallNode> Create() {
    return std::unique_ptr<IndirectCallNode>(new IndirectCallNode());
  }
  Value Call(CallTarget* target, absl::Span<const Value> arguments) {
    return target->Call(arguments);
  }

 private:
  IndirectCallNode() = default;
};

}  // namespace morel

#endif  // MOREL_NODES_CALL_NODES_H_
