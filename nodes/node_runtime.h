#ifndef MOREL_NODES_NODE_RUNTIME_H_
#define MOREL_NODES_NODE_RUNTIME_H_

// NodeRuntime: what the node model needs from the engine that runs it (the
// analogue of Truffle's runtime SPI). nodes/ declares it; engine/runtime's
// Engine implements it, and the test language can run on a minimal one. This
// keeps the dependency direction engine -> nodes.

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <memory>
#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "nodes/call_target.h"
#include "nodes/stack_limit.h"
#include "nodes/value.h"

namespace morel {

class BytecodeOSRNode;
class CallTarget;
class DirectCallNode;
class Frame;
class LoopNode;
class Node;
class RootNode;

class NodeRuntime {
 public:
  virtual ~NodeRuntime() = default;

  // Creates, registers and returns the call target of `root` (owned by the
  // runtime, alive as long as it).
  virtual CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) = 0;

  // The language will not call `target` anew: nothing of the language
  // names it any more (SL: a redefined function's old code). Running
  // activations of it, call nodes created for it, and compiled code may
  // still; the runtime may free the target and its tree once none can
  // (Engine::RetireCallTarget). This default keeps it as long as the
  // runtime.
  virtual void RetireCallTarget(CallTarget& target) {}

  // ---- the guest thread. CallTarget::Call notes the thread of every call
  // (`thread`: StackLimit::ThreadToken()). While only one thread has ever
  // run this runtime's guest code, every activation of it is on that
  // thread's stack.
  MOREL_FAST_PATH void NoteGuestThread(const void* thread) {
    if (guest_thread_.load(std::memory_order_relaxed) != thread) [[unlikely]] {
      NoteNewGuestThread(thread);
    }
  }
  // Whether only the calling thread has ever run this runtime's guest code
  // (or none has).
  bool IsOnlyGuestThread() const;

  // A node's specialization change raised its polymorphism (after the
  // node's reporting policy said to report).
  virtual void OnPolymorphicSpecialize(Node& source) = 0;

  // A direct call node was created for `target` (it is a known caller now).
  virtual void OnDirectCallNodeCreated(DirectCallNode& call) {}

  // An interpreter call through `call` is about to run `target`. The
  // runtime may split and return a different target (the splitting hook).
  virtual CallTarget* BeforeDirectCall(DirectCallNode& call, CallTarget* target) {
    return target;
  }

  // DirectCallNode::CloneCallTarget(): a forced split. Returns whether the
  // call node now calls a split copy.
  virtual bool ForceSplit(DirectCallNode& call) { return false; }

  // A node of `target`'s tree was replaced: code that relied on the old tree
  // is invalid (the compiler's hook).
  virtual void OnNodeReplaced(CallTarget& target, Node& old_node,
                              Node& new_node, absl::string_view reason) {}

  // `target`'s call-and-loop count reached its compilation threshold (in
  // the interpreter). The runtime may compile and install code, or raise
  // the threshold.
  virtual void OnCompilationThreshold(CallTarget& target) {
    target.set_compilation_threshold(INT_MAX);
  }

  // First-tier compiled code of `target` (engine/pe's profiling prologue)
  // found its counts at the last tier's thresholds: callCount at the
  // engine's call threshold and callAndLoopCount at the target's
  // compilation_threshold(). The runtime may request a last-tier
  // compilation; it raises the threshold so that the code asks once.
  virtual void OnLastTierThreshold(CallTarget& target) {
    target.set_compilation_threshold(INT_MAX);
  }

  // Loop iterations reported by a LoopNode of `target`'s tree.
  virtual void OnLoopCount(CallTarget& target, int iterations) {}

  // ---- on-stack replacement of AST loops (osr/osr_policy.h). A LoopNode
  // asks OsrLoopThreshold() and OsrLoopPollInterval() once. It polls
  // PollOSR at the first iteration of a loop entry whose count -- the
  // entry's iterations plus those its inner loops reported during it
  // (LoopNode::ReportLoopCount; Truffle's baseLoopCount) -- is above the
  // threshold (exactly `threshold` never polls), then every `interval`
  // iterations while the entry runs. A threshold of -1: never.
  // The runtime may compile the loop and run the rest of it in compiled
  // code on `frame`: then PollOSR returns true and `*status` is the loop's
  // final status. `count` is the entry's count (saturated at INT_MAX).
  virtual int OsrLoopThreshold() { return -1; }
  virtual int OsrLoopPollInterval() { return 1024; }
  virtual bool PollOSR(LoopNode& loop, Frame& frame, int count, int* status) { return false; }

  // ---- bytecode OSR (nodes/bytecode_osr_node.h; osr/bytecode_osr_policy.h)
  // BytecodeOSRNode::PollOSRBackEdge's slow path: `node`'s back-edge count
  // went from `previous` to `count` and reached the next poll the runtime
  // set (the first time: 0, and the node has no metadata yet). The runtime
  // creates the node's metadata if it has none (or marks OSR off with
  // BytecodeOSRMetadata::Disabled()), sets the next poll
  // (BytecodeOSRNode::SetOSRNextPoll) and returns whether a poll is due.
  // This default offers no OSR: disabled, never polled again.
  virtual bool OnBytecodeOSRPoll(BytecodeOSRNode& node, int64_t previous, int64_t count);
  // BytecodeOSRNode::TryOSR: may run OSR code from `target_bci` to the end
  // of the call target; an engaged result is the call target's result.
  virtual std::optional<Value> TryBytecodeOSR(BytecodeOSRNode& node, int target_bci,
                                              int64_t interpreter_state,
                                              absl::FunctionRef<void()> before_transfer,
                                              Frame& parent_frame) {
    return std::nullopt;
  }

  // ---- safepoints. Guest code polls this runtime's safepoint word at every
  // loop back edge and call: LoopNode and CallTarget::Call in the
  // interpreter; compiled code at its loop back edges (a `safepoint` that
  // deoptimizes to the interpreter, which then polls) and in calls between
  // compiled targets (the engine's dispatcher takes the interpreter's call
  // path). A non-zero word makes the poll call OnSafepoint(). Any thread
  // may request one (a watchdog timer does, for MaxCPUTime).
  bool SafepointRequested() const {
    return safepoint_word_.load(std::memory_order_relaxed) != 0;
  }
  void RequestSafepoint() { safepoint_word_.store(1, std::memory_order_release); }
  // The word compiled code loads (codegen::LoweringOptions::safepoint_word).
  const void* safepoint_word() const { return &safepoint_word_; }
  // Runs on the guest thread at a poll that found the word set. May throw a
  // guest error (ResourceLimitError: the guest is cancelled; the word then
  // stays set so every later poll throws again); otherwise clears the word.
  virtual void OnSafepoint() { safepoint_word_.store(0, std::memory_order_relaxed); }

  // MaxStackFrames: guest frames a thread may have on its stack at once;
  // 0 is no limit. CallTarget::Call counts them.
  int max_stack_frames() const { return max_stack_frames_; }
  // The limit was exceeded at a call of `target`: throws (ResourceLimitError).
  [[noreturn]] virtual void OnStackFramesExceeded(const CallTarget& target);

 protected:
  void set_max_stack_frames(int limit) { max_stack_frames_ = limit; }

 private:
  [[gnu::noinline]] void NoteNewGuestThread(const void* thread);

  std::atomic<const void*> guest_thread_{nullptr};
  std::atomic<bool> guest_code_on_several_threads_{false};
  std::atomic<int64_t> safepoint_word_{0};
  static_assert(std::atomic<int64_t>::is_always_lock_free);
  int max_stack_frames_ = 0;
};

bool CallTarget::EnterInterpreterInPlace() {
  if (installed_code() != nullptr || runtime_->SafepointRequested() ||
      runtime_->max_stack_frames() > 0 || !CountCallBelowThreshold()) {
    return false;
  }
  runtime_->NoteGuestThread(StackLimit::ThreadToken());
  return true;
}

Value CallTarget::RunRootInInterpreter(absl::Span<const Value> arguments) {
  FrameDescriptor& descriptor = root_->frame_descriptor();
  // At least the scratch slot (RootNode::frame_storage_size).
  const int storage = root_->frame_storage_size();
  // On the native stack, where the collector scans it. An array of
  // variable length, not alloca: inlined into a loop (a bytecode switch
  // inlines CallDirect's callers), alloca's memory would live until the
  // loop's function returns, while the array's ends with its scope.
  Value slots[storage];
  // The descriptor's slots and the scratch slot start unassigned (Illegal).
  // The extra slots (a bytecode root's operand stack) are written before
  // they are read, so they keep whatever the stack held: filling them cost
  // a fifth of CallTarget::Call on call-heavy bytecode (fib).
  std::fill_n(slots, storage - root_->extra_frame_slots(), Value::Illegal());
  Frame frame(&descriptor, slots, arguments, root_.get(), Frame::Current());
  FrameScope scope(&frame);
  return root_->Execute(frame);
}

Value CallTarget::CallFromInterpreter(absl::Span<const Value> arguments) {
  if (StackLimit::IsExceeded() || !EnterInterpreterInPlace()) [[unlikely]] {
    return Call(arguments);
  }
  return RunRootInInterpreter(arguments);
}

}  // namespace morel

#endif  // MOREL_NODES_NODE_RUNTIME_H_
