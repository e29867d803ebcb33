#ifndef MOREL_NODES_CALL_TARGET_H_
#define MOREL_NODES_CALL_TARGET_H_

// CallTarget: a RootNode made callable, with the profile the engine's
// policies read: call and loop counts, the known callers (direct call nodes
// register when they are created), the needs-split flag, and for a split
// copy the target it was split from (Truffle's OptimizedCallTarget fields,
// truffle_reference.md §1.1).

#include <atomic>
#include <climits>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "absl/types/span.h"
#include "nodes/directives.h"
#include "nodes/root_node.h"
#include "nodes/value.h"

namespace morel {

class CallTarget;
class DirectCallNode;
class NodeRuntime;

// Code the engine installed for a call target (compiled code of some tier).
// CallTarget::Call runs it instead of the interpreter while it is installed.
class InstalledCode {
 public:
  virtual ~InstalledCode() = default;
  virtual Value Invoke(CallTarget& target, absl::Span<const Value> arguments) = 0;
};

class CallTarget {
 public:
  // `source` is the target this one was split from, or null.
  CallTarget(std::unique_ptr<RootNode> root, NodeRuntime* runtime,
             CallTarget* source = nullptr);
  ~CallTarget();
  CallTarget(const CallTarget&) = delete;
  CallTarget& operator=(const CallTarget&) = delete;

  // Runs the root in the interpreter: counts the call, checks the native
  // stack (StackOverflowError instead of a crash), notes the thread
  // (NodeRuntime::NoteGuestThread), polls the runtime's safepoint, counts
  // the guest frame against MaxStackFrames, sets up the frame.
  MOREL_NO_STACK_PROTECTOR Value Call(absl::Span<const Value> arguments);
  // For an interpreter loop that runs a callee's activation itself, without
  // a native call (nodes/bytecode/bytecode_switch.h): true when Call() would
  // run the root in the interpreter with nothing to do first -- no code
  // installed, no safepoint requested, no MaxStackFrames limit, and this
  // call not reaching the compilation threshold. Then the call is counted
  // and the thread noted, as Call() does, and the caller runs the root on
  // a frame of its own; when false, the caller calls Call() instead. (Such
  // a loop takes no native stack per call: no stack check.) Defined in
  // node_runtime.h, where NodeRuntime is complete.
  MOREL_FAST_PATH bool EnterInterpreterInPlace();
  // Call() for the call node of an AST interpreter, inlined there
  // (InterpreterContext::CallDirect): when the native stack has room and
  // EnterInterpreterInPlace() holds, the caller sets up the frame and runs
  // the root itself, without Call()'s native frame (a call and return, a
  // prologue and an epilogue per guest call); else it calls Call(). Defined
  // in node_runtime.h.
  MOREL_FAST_PATH Value CallFromInterpreter(absl::Span<const Value> arguments);

  // Guest frames on this thread's stack, as CallTarget::Call counts them
  // (while the runtime has a MaxStackFrames limit).
  static int stack_frames_on_this_thread() { return stack_frames_; }

  RootNode* root_node() const { return root_.get(); }
  NodeRuntime* runtime() const { return runtime_; }
  // A process-unique id (Truffle's target id).
  int64_t id() const { return id_; }
  // The root's name, or "<name> <split-<id>>" for a split copy.
  const std::string& name() const { return name_; }

  // ---- compiled code (owned by the engine)
  InstalledCode* installed_code() const {
    return installed_code_.load(std::memory_order_acquire);
  }
  // `native_entry`: the code's machine entry point, for callers in compiled
  // code that call it directly (null for other tiers).
  void set_installed_code(InstalledCode* code, const void* native_entry = nullptr) {
    native_entry_.store(code != nullptr ? native_entry : nullptr, std::memory_order_release);
    installed_code_.store(code, std::memory_order_release);
  }
  const void* native_entry() const { return native_entry_.load(std::memory_order_acquire); }
  // The call-and-loop count at which the next compilation is requested:
  // by the interpreter (Call(), while no code is installed:
  // NodeRuntime::OnCompilationThreshold) or by first-tier code, which
  // compares its count with this word (NodeRuntime::OnLastTierThreshold).
  // The engine sets it from the compilation policy; INT_MAX means never.
  void set_compilation_threshold(int threshold) {
    compilation_threshold_.store(threshold, std::memory_order_relaxed);
  }
  int compilation_threshold() const {
    return static_cast<int>(compilation_threshold_.load(std::memory_order_relaxed));
  }

  // ---- profile (Truffle's callCount and callAndLoopCount). Calls are
  // counted by the interpreter (Call() while no code is installed) and by
  // first-tier compiled code, in its prologue; last-tier code counts
  // nothing (Truffle's interpreterCall / firstTierCall).
  int call_count() const {
    return static_cast<int>(call_count_.load(std::memory_order_relaxed));
  }
  int call_and_loop_count() const {
    return static_cast<int>(call_and_loop_count_.load(std::memory_order_relaxed));
  }
  // Adds loop iterations (saturating), as LoopNode reports them.
  void AddLoopCount(int iterations);

  // First-tier code (engine/pe) updates the profile inline: these are the
  // addresses of the counters and of the threshold, each a 64-bit word
  // holding a value in [0, INT_MAX] (code saturates as IncrementCallCount
  // does). The target outlives its code, so code may embed them.
  const void* call_count_address() const { return &call_count_; }
  const void* call_and_loop_count_address() const { return &call_and_loop_count_; }
  const void* compilation_threshold_address() const { return &compilation_threshold_; }

  // ---- splitting state
  bool needs_split() const { return needs_split_.load(std::memory_order_acquire); }
  void set_needs_split(bool value) {
    needs_split_.store(value, std::memory_order_release);
  }
  // Null for a source target; the original for a split copy.
  CallTarget* source_call_target() const { return source_; }
  bool is_split() const { return source_ != nullptr; }
  // The size splitting budgets with: RootNode::ComputeSize() if positive,
  // else the node count of the uninitialized tree.
  int uninitialized_node_count() const { return uninitialized_node_count_; }

  // ---- holders. A DirectCallNode holds a token of the target it was
  // created for and of the split copy it calls, if any; a split copy holds
  // one of its source. Tokens go with their holders and outlive the
  // target (a runtime may destroy its targets in any order), so the count
  // is exact: a runtime that frees targets (Engine::RetireCallTarget) frees
  // none that a holder still names.
  class Token {
   public:
    explicit Token(CallTarget* target) : target_(target) {}
    // The target, or null once it was destroyed.
    CallTarget* target() const { return target_.load(std::memory_order_acquire); }

   private:
    friend class CallTarget;
    std::atomic<CallTarget*> target_;
  };
  std::shared_ptr<const Token> HolderToken() const { return holder_token_; }
  // Tokens held now, by holders other than the target itself.
  long holder_count() const { return holder_token_.use_count() - 1; }

  // Known callers (the splitting policy's profile). Registration happens
  // when a DirectCallNode is created (and moves to the split copy it
  // installs); a node that is destroyed while the target lives (its tree
  // was freed) unregisters. The count is approximate: a node that calls
  // the same target again counts once.
  void AddDirectCallNode(DirectCallNode* call);
  void RemoveDirectCallNode(DirectCallNode* call);
  int call_sites_known() const;
  // The single known caller, or null for none or several.
  DirectCallNode* single_call_node() const;
  // For a split target: the call node it was split for.
  DirectCallNode* call_site_for_split() const { return single_call_node(); }

 private:
  void IncrementCallCount() {
    SaturatingAdd(call_count_, 1);
    SaturatingAdd(call_and_loop_count_, 1);
  }
  // Counts an interpreter call that stays below the compilation threshold
  // and returns true; false (nothing counted) for the call that reaches it.
  // Below the threshold the counts are below INT_MAX: no saturation (the
  // call count is at most the call-and-loop count).
  MOREL_FAST_PATH bool CountCallBelowThreshold() {
    const int64_t count = call_and_loop_count_.load(std::memory_order_relaxed);
    if (count >= compilation_threshold() - 1) return false;
    call_count_.store(call_count_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    call_and_loop_count_.store(count + 1, std::memory_order_relaxed);
    return true;
  }
  // Profiling counters are approximate, as in Truffle: concurrent
  // increments may be lost, which costs nothing on the call path (no locked
  // instruction). `amount` > 0.
  static void SaturatingAdd(std::atomic<int64_t>& counter, int amount) {
    int64_t current = counter.load(std::memory_order_relaxed);
    counter.store(current > INT_MAX - amount ? INT_MAX : current + amount,
                  std::memory_order_relaxed);
  }
  [[noreturn, gnu::cold]] void ThrowStackOverflow() const;
  // Call() with a MaxStackFrames limit: counts this frame while it runs.
  [[gnu::noinline]] Value CallCountingFrames(absl::Span<const Value> arguments);
  [[gnu::always_inline]] inline Value CallUnchecked(absl::Span<const Value> arguments);
  // The root in the interpreter, on a frame on the caller's native stack.
  [[gnu::always_inline]] inline Value RunRootInInterpreter(absl::Span<const Value> arguments);

  static inline thread_local int stack_frames_ = 0;

  // ~CallTarget clears it before the tree dies.
  std::shared_ptr<Token> holder_token_;
  std::unique_ptr<RootNode> root_;
  NodeRuntime* runtime_;
  CallTarget* source_;
  std::shared_ptr<const Token> source_token_;  // source_'s, for a split copy
  int64_t id_;
  std::string name_;
  int uninitialized_node_count_;

  // 64-bit words with values in [0, INT_MAX]: compiled code loads and
  // stores them whole (*_address()).
  std::atomic<int64_t> call_count_{0};
  std::atomic<int64_t> call_and_loop_count_{0};
  std::atomic<bool> needs_split_{false};
  std::atomic<InstalledCode*> installed_code_{nullptr};
  std::atomic<const void*> native_entry_{nullptr};
  std::atomic<int64_t> compilation_threshold_{INT_MAX};
  static_assert(sizeof(std::atomic<int64_t>) == 8 && std::atomic<int64_t>::is_always_lock_free);

  mutable std::mutex callers_lock_;
  int call_sites_known_ = 0;
  // null: none yet; kMultipleCallers: several; else the single caller.
  DirectCallNode* single_caller_ = nullptr;
};

}  // namespace morel

#endif  // MOREL_NODES_CALL_TARGET_H_
