#ifndef MOREL_NODES_ROOT_NODE_H_
#define MOREL_NODES_ROOT_NODE_H_

// RootNode: the root of a node tree, the unit a CallTarget runs. It owns the
// frame layout, the lock that serializes rewrites of its tree (one lock per
// root, as in Truffle), and the nodes retired by Replace().

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nodes/frame.h"
#include "nodes/node.h"
#include "nodes/value.h"

namespace morel {

class CallTarget;
class NodeRuntime;
namespace pe {
class PartialEvaluator;
}  // namespace pe

class RootNode : public Node {
 public:
  RootNode(SourceSection source_section, std::string name,
           std::unique_ptr<FrameDescriptor> frame_descriptor);
  ~RootNode() override;

  // Runs the guest code for one activation.
  virtual Value Execute(Frame& frame) = 0;
  Role role() const final { return Role::kRoot; }

  // The name of the guest function ("fib").
  const std::string& name() const { return name_; }
  FrameDescriptor& frame_descriptor() const { return *frame_descriptor_; }
  // The Values an activation's frame storage holds (Frame::slot_storage):
  // the descriptor's slots, one scratch slot for compiled code (an OSR
  // loop's return value), then extra_frame_slots() more -- a bytecode
  // interpreter's operand stack (nodes/bytecode), invisible to stack walks,
  // which show the descriptor's slots. Everything that creates a frame
  // allocates this many, all illegal.
  int frame_storage_size() const { return frame_descriptor_->size() + 1 + extra_frame_slots_; }
  int extra_frame_slots() const { return extra_frame_slots_; }
  CallTarget* call_target() const { return call_target_; }
  // Its call target's runtime (null before it has one): one load where the
  // call target's would be two.
  NodeRuntime* runtime() const { return runtime_; }
  // Roots that an interpreter loop runs itself when it calls them, without
  // a native call (the bytecode roots of one interpreter switch,
  // nodes/bytecode/bytecode_switch.h) share a non-null key: the loop may
  // run a callee root in place of its Execute when the keys are equal.
  // Null (the default): a call runs Execute.
  const void* interpreter_loop() const { return interpreter_loop_; }

  // Serializes specialization and Replace() within this tree.
  std::recursive_mutex& lock() const { return lock_; }

  // Whether the runtime may split this root (Truffle's isCloningAllowed).
  virtual bool IsCloningAllowed() const { return false; }
  // A fresh copy of this root in its uninitialized state: no active
  // specializations, empty caches, new call nodes. Required when
  // IsCloningAllowed(); the default returns null.
  virtual std::unique_ptr<RootNode> CloneUninitialized() const { return nullptr; }
  // The size that splitting budgets with; <= 0 means "count the nodes".
  virtual int ComputeSize() const { return -1; }
  // Internal roots are hidden from guest stack walks.
  virtual bool IsInternal() const { return false; }
  // Roots that read or write their caller's frame (a debugger-like builtin).
  // Readers see compiled callers through stack walks (nodes/frame_walk.h).
  virtual bool InspectsCallerFrame() const { return false; }
  // Roots that write their caller's frame (implies InspectsCallerFrame): a
  // compiled caller's frame cannot be written back (TODO(#6): write-back
  // through deoptimization), so compiled code transfers to the interpreter
  // right before a direct call to one, keeping the code
  // (PeContext::CallDirect); the interpreter makes the call.
  virtual bool WritesCallerFrame() const { return false; }
  // Trivial roots (a getter, a constant) are always inlined.
  virtual bool IsTrivial() const { return false; }

  // The root whose tree a compilation of this root reads: itself, or, for
  // an OSR root (osr/), the root of the function its loop belongs to. Its
  // lock and rewrite count guard the compilation.
  virtual RootNode* CompiledTreeRoot() { return this; }

  // Emits this root's code through the partial evaluator (engine/pe); the
  // language implements it. The default: the root cannot be compiled.
  virtual absl::Status PartialEvaluate(pe::PartialEvaluator& pe);

  // Keeps a replaced node alive until this root dies.
  void Retire(std::unique_ptr<Node> node);

  // Counts rewrites of this tree: a specialization change (state word or
  // inline-cache entry) or a Replace(). A compilation reads it when partial
  // evaluation starts (under lock()) and again before installing its code;
  // if it moved, the code describes an old tree and is discarded.
  void NoteRewrite() { rewrite_count_.fetch_add(1, std::memory_order_release); }
  uint64_t rewrite_count() const { return rewrite_count_.load(std::memory_order_acquire); }

 protected:
  // Before any activation: frame storage beyond the descriptor's slots.
  void set_extra_frame_slots(int slots) { extra_frame_slots_ = slots; }
  // Before any activation (interpreter_loop()). A subclass whose Execute
  // does more than the loop must not keep its base class's key.
  void set_interpreter_loop(const void* key) { interpreter_loop_ = key; }

 private:
  friend class CallTarget;
  void set_call_target(CallTarget* call_target, NodeRuntime* runtime) {
    call_target_ = call_target;
    runtime_ = runtime;
  }

  std::string name_;
  std::unique_ptr<FrameDescriptor> frame_descriptor_;
  int extra_frame_slots_ = 0;
  const void* interpreter_loop_ = nullptr;
  CallTarget* call_target_ = nullptr;
  NodeRuntime* runtime_ = nullptr;
  mutable std::recursive_mutex lock_;
  std::atomic<uint64_t> rewrite_count_{0};
  std::vector<std::unique_ptr<Node>> retired_;
};

}  // namespace morel

#endif  // MOREL_NODES_ROOT_NODE_H_
