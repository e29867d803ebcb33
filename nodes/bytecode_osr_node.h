#ifndef MOREL_NODES_BYTECODE_OSR_NODE_H_
#define MOREL_NODES_BYTECODE_OSR_NODE_H_

// BytecodeOSRNode: what a bytecode interpreter's dispatch node implements to
// get on-stack replacement (Truffle's BytecodeOSRNode, truffle_reference
// §3.2). The language's part of the contract:
//
//   on every back edge (a jump to an earlier bytecode index):
//     if (BytecodeOSRNode::PollOSRBackEdge(*this)) {
//       std::optional<Value> result =
//           BytecodeOSRNode::TryOSR(*this, target_bci, interpreter_state, frame);
//       if (result.has_value()) return *result;  // the whole call target's result
//     }
//
// and ExecuteOSR(osr_frame, target_bci, interpreter_state): run from
// `target_bci` to the end of the call target on `osr_frame` and return the
// call target's result -- what OSR code computes. OSR code never resumes
// the interpreter's loop: the interpreter forwards its result.
//
// The policy (when a poll is due, when a bci's OSR call target is created
// and compiled, re-attempts, disabling) is the runtime's: nodes/ reaches it
// through NodeRuntime (OnBytecodeOSRPoll, TryBytecodeOSR), which the engine
// delegates to osr::BytecodeOsrPolicy (osr/bytecode_osr_policy.h). Without
// such a runtime OSR is off: the first poll marks the node disabled and no
// poll comes due again.
//
// The back-edge counter lives in the node (Truffle keeps it in the metadata;
// here the fast path needs no indirection): PollOSRBackEdge adds to it and
// compares it with the count at which the next poll may be due, which the
// runtime sets. So a back edge costs one increment and compare until then,
// and an interpreter that counts back edges in a local (nodes/bytecode
// batches them, BackEdgesUntilPoll) polls at the same back edges as long as
// one activation runs the method (concurrent or recursive activations share
// the count, as in Truffle, and may move a poll by up to a batch).

#include <atomic>
#include <cstdint>
#include <optional>

#include "absl/functional/function_ref.h"
#include "nodes/directives.h"
#include "nodes/frame.h"
#include "nodes/value.h"

namespace morel {

class Node;
class NodeRuntime;

// The OSR state a runtime keeps for one BytecodeOSRNode (Truffle's
// BytecodeOSRMetadata): created lazily at the node's first back-edge poll,
// owned by the runtime (osr::BytecodeOsrMetadata extends it). Opaque here.
class BytecodeOSRMetadata {
 public:
  virtual ~BytecodeOSRMetadata() = default;
  // The shared marker of a node for which OSR was off when its metadata was
  // created (no compilation, no OSR, no runtime that offers it).
  static BytecodeOSRMetadata* Disabled();
};

class BytecodeOSRNode {
 public:
  // Truffle's OSR_POLL_INTERVAL: once past the threshold, a poll is due every
  // this many back edges.
  static constexpr int kPollInterval = 1024;
  // A next-poll count that is never reached: OSR is off for the node.
  static constexpr int64_t kNeverPoll = INT64_MAX;

  BytecodeOSRNode() = default;
  BytecodeOSRNode(const BytecodeOSRNode&) = delete;
  BytecodeOSRNode& operator=(const BytecodeOSRNode&) = delete;
  virtual ~BytecodeOSRNode() = default;

  // ---- what the language implements
  // Runs from `target_bci` to the end of the call target on `osr_frame` (a
  // frame of this node's root that CopyIntoOSRFrame filled) and returns the
  // call target's result. `interpreter_state` is what the first TryOSR for
  // `target_bci` passed (an OSR target keeps its entry's state: a
  // compilation constant, Truffle's interpreterState). The interpreter runs
  // it when OSR code leaves compiled code for the interpreter; OSR code
  // computes the same.
  virtual Value ExecuteOSR(Frame& osr_frame, int target_bci, int64_t interpreter_state) = 0;
  // Fills `osr_frame` from `parent_frame` before OSR code runs on it. The
  // default copies the whole frame storage (RootNode::frame_storage_size():
  // the descriptor's slots, the scratch slot, a bytecode interpreter's
  // operand stack).
  virtual void CopyIntoOSRFrame(Frame& osr_frame, const Frame& parent_frame, int target_bci);
  // Copies `osr_frame` back into `parent_frame` after OSR code returned or
  // threw. The default copies the whole frame storage.
  virtual void RestoreParentFrame(const Frame& osr_frame, Frame& parent_frame);
  // Before each OSR compilation of `target_bci` is requested (Truffle's
  // prepareOSR: e.g. initialize what the compiled code will read).
  virtual void PrepareOSR(int target_bci) {}

  // ---- the OSR metadata (the runtime's, created lazily; null until the
  // first poll, then the runtime's object or BytecodeOSRMetadata::Disabled())
  BytecodeOSRMetadata* GetOSRMetadata() const {
    return osr_metadata_.load(std::memory_order_acquire);
  }
  void SetOSRMetadata(BytecodeOSRMetadata* metadata) {
    osr_metadata_.store(metadata, std::memory_order_release);
  }

  // ---- the back-edge counter (the runtime's to read and reset). Racy on
  // purpose, as Truffle's: concurrent activations may lose increments.
  int64_t osr_back_edge_count() const {
    return osr_back_edge_count_.load(std::memory_order_relaxed);
  }
  // The count at which PollOSRBackEdge next calls the runtime.
  int64_t osr_next_poll() const { return osr_next_poll_.load(std::memory_order_relaxed); }
  // The runtime sets the count (Truffle's resetCounter) and the next poll.
  void SetOSRBackEdgeCount(int64_t count, int64_t next_poll) {
    osr_back_edge_count_.store(count, std::memory_order_relaxed);
    osr_next_poll_.store(next_poll, std::memory_order_relaxed);
  }
  void SetOSRNextPoll(int64_t next_poll) {
    osr_next_poll_.store(next_poll, std::memory_order_relaxed);
  }

  // ---- the language's calls
  // Counts `increment` back edges (Truffle's pollOSRBackEdge, with the
  // custom increment for interpreters that count in batches); true when an
  // OSR poll is due: then call TryOSR. Never true outside the interpreter
  // (compiled code counts nothing here). The runtime decides when a poll is
  // due (the first time it creates the node's metadata): Truffle's
  // `count >= threshold` at a multiple of 1024 back edges, or, for a batch,
  // a count at or above the threshold that crossed a multiple of 1024.
  [[gnu::always_inline]] static bool PollOSRBackEdge(BytecodeOSRNode& node, int increment = 1) {
    if (!InInterpreter()) return false;
    const int64_t previous = node.osr_back_edge_count_.load(std::memory_order_relaxed);
    const int64_t count = previous + increment;
    node.osr_back_edge_count_.store(count, std::memory_order_relaxed);
    if (count < node.osr_next_poll_.load(std::memory_order_relaxed)) [[likely]] return false;
    return node.PollSlowPath(previous, count);
  }
  // Back edges that may be counted before a poll can come due (>= 1): an
  // interpreter counting back edges in a local passes at most this many to
  // PollOSRBackEdge at once, so its polls fall on the same back edges as a
  // poll per back edge.
  static int64_t BackEdgesUntilPoll(const BytecodeOSRNode& node) {
    const int64_t until = node.osr_next_poll() - node.osr_back_edge_count();
    return until < 1 ? 1 : until;
  }
  // Adds back edges counted but not polled (fewer than BackEdgesUntilPoll:
  // the rest of a batch when an activation ends).
  static void CountOSRBackEdges(BytecodeOSRNode& node, int back_edges) {
    node.osr_back_edge_count_.store(node.osr_back_edge_count() + back_edges,
                                    std::memory_order_relaxed);
  }

  // After a due poll: the runtime may run OSR code from `target_bci` on a
  // copy of `parent_frame` (the OSR frame: CopyIntoOSRFrame, then OSR code,
  // then RestoreParentFrame). An engaged result is the result of the whole
  // call target: return it. Empty: keep interpreting (no code yet, still
  // compiling, OSR disabled). `before_transfer` runs right before OSR code
  // is entered.
  static std::optional<Value> TryOSR(BytecodeOSRNode& node, int target_bci,
                                     int64_t interpreter_state,
                                     absl::FunctionRef<void()> before_transfer,
                                     Frame& parent_frame);
  static std::optional<Value> TryOSR(BytecodeOSRNode& node, int target_bci,
                                     int64_t interpreter_state, Frame& parent_frame) {
    return TryOSR(node, target_bci, interpreter_state, [] {}, parent_frame);
  }

  // This object as the Node it is (every BytecodeOSRNode is a Node).
  Node& AsNode();
  const Node& AsNode() const;

 private:
  // The runtime of the node's call target, or null outside one.
  NodeRuntime* Runtime() const;
  [[gnu::noinline]] bool PollSlowPath(int64_t previous, int64_t count);

  std::atomic<BytecodeOSRMetadata*> osr_metadata_{nullptr};
  std::atomic<int64_t> osr_back_edge_count_{0};
  // 0: the first back edge calls the runtime, which creates the metadata.
  std::atomic<int64_t> osr_next_poll_{0};
};

}  // namespace morel

#endif  // MOREL_NODES_BYTECODE_OSR_NODE_H_
