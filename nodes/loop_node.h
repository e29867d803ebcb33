#ifndef MOREL_NODES_LOOP_NODE_H_
#define MOREL_NODES_LOOP_NODE_H_

// LoopNode around a RepeatingNode (Truffle's LoopNode): runs the body until
// it stops asking to continue, counts iterations and reports them to the
// enclosing call target (its call-and-loop count drives compilation) and to
// the enclosing loops (their OSR thresholds count the iterations of their
// inner loops), and polls the runtime, which may offer on-stack replacement
// (osr/ builds on this).

#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "nodes/directives.h"
#include "nodes/frame.h"
#include "nodes/node.h"
#include "nodes/node_runtime.h"

namespace morel {

namespace pe {
class PartialEvaluator;
}  // namespace pe

class RepeatingNode : public Node {
 public:
  // The status that asks the loop to run the body again. Any other value
  // ends the loop and is returned by LoopNode::Execute (a language's break,
  // return, ... statuses).
  static constexpr int kContinueLoop = 0;

  using Node::Node;
  // Runs one iteration (typically: evaluate the condition, run the body).
  virtual int ExecuteRepeating(Frame& frame) = 0;

  // Compiled code (engine/pe): emits the whole loop — header, one iteration
  // per trip, exit — with the enclosing LoopNode already entered on the
  // resume path. Returns the loop's status where control reaches the exit
  // (a `return` in the body leaves through PartialEvaluator::Return), or -1
  // if this repeating node cannot be compiled (the default). A language's
  // loop statement uses it, and so does an OSR compilation of the loop
  // (osr/), which starts in the middle of a running activation.
  virtual int PartialEvaluateLoop(pe::PartialEvaluator& pe);
};

class LoopNode final : public Node {
 public:
  MOREL_NODE_KIND(LoopNode)
  Role role() const override { return Role::kLoop; }

  // `body` of a final class R: the loop calls R's ExecuteRepeating directly,
  // not through the vtable (one call less per iteration; inlined when R has
  // ExecuteRepeatingInline, MOREL_REPEATING_NODE), for as long as that node
  // is the body (a replacement goes back to the virtual call). Any other
  // class (or a RepeatingNode pointer): through the vtable.
  template <typename R>
  explicit LoopNode(std::unique_ptr<R> body, SourceSection source_section = {})
      : Node(std::move(source_section)), body_(std::move(body)) {
    static_assert(std::is_base_of_v<RepeatingNode, R>, "a loop's body is a RepeatingNode");
    if constexpr (std::is_final_v<R>) {
      typed_body_.store(body_.get(), std::memory_order_relaxed);
      run_ = &RunAs<R>;
    }
  }

  // Runs the loop; returns the body's final (non-continue) status. Polls
  // the runtime's safepoint after every iteration (NodeRuntime::OnSafepoint)
  // and the runtime for on-stack replacement (NodeRuntime::PollOSR) at the
  // first iteration whose count -- this entry's iterations plus what inner
  // loops reported meanwhile -- is above NodeRuntime::OsrLoopThreshold(),
  // then every OsrLoopPollInterval() iterations. When it leaves (also by a
  // guest error) it reports its iterations (ReportLoopCount) and its inner
  // loops' count starts from 0 again for the next entry.
  int Execute(Frame& frame) { return run_(*this, frame); }

  RepeatingNode* repeating_node() const { return body_.get(); }

  // Child 0 is one iteration of the repeating node; its outcome's status
  // says whether to go on looping.
  Outcome Resume(Frame& frame, int next_child,
                 absl::Span<const Outcome> done) override;
  void ForEachChild(ChildVisitor visitor) override { visitor(body_.slot()); }
  void OnChildReplaced(Node&, Node&) override {
    typed_body_.store(nullptr, std::memory_order_relaxed);
  }

  // Adds `iterations` (loop iterations run under `node`: by a loop, OSR
  // code, a bytecode interpreter) to the call target of `node`'s root and
  // to the current entry of every LoopNode from `node` up to the root, so
  // that they count toward those loops' OSR thresholds (Truffle's
  // LoopNode.reportLoopCount and reportChildLoopCount). The root's call
  // target is the function's also for code that runs in an OSR call
  // target: OSR roots do not hold the loop (osr/).
  static void ReportLoopCount(Node& node, int iterations);

  // What inner loops reported during the current entry (0 between entries).
  int base_loop_count() const { return base_loop_count_.load(std::memory_order_relaxed); }

  // Whether the runtime has an OSR target for this loop (osr/osr_policy.h
  // sets it): then every entry polls from its first iteration on, so that
  // existing OSR code is entered at once (Truffle's compilingLoop), not only
  // past the threshold.
  bool has_osr_target() const { return has_osr_target_.load(std::memory_order_relaxed); }
  void set_has_osr_target(bool value) { has_osr_target_.store(value, std::memory_order_relaxed); }

 private:
  // Counts one entry's iterations and reports them when the entry ends, also
  // when a guest error leaves it; then the loop's count of inner iterations
  // starts over (Truffle resets baseLoopCount in a finally).
  class IterationReporter {
   public:
    explicit IterationReporter(LoopNode& loop) : loop_(loop) {}
    ~IterationReporter() {
      if (iterations_ > 0) loop_.ReportOwnIterations(iterations_);
      loop_.base_loop_count_.store(0, std::memory_order_relaxed);
    }
    void Count() {
      if (iterations_ < (1 << 30)) ++iterations_;
    }
    int iterations() const { return iterations_; }

   private:
    LoopNode& loop_;
    int iterations_ = 0;
  };
  struct OsrPolling {
    int threshold;  // -1: never poll
    int interval;
  };
  // NodeRuntime::OsrLoopThreshold/OsrLoopPollInterval, asked once.
  OsrPolling Polling();
  // The runtime of the enclosing call target (null outside one), found once.
  NodeRuntime* Runtime();
  // Adds to the current entry's count of inner iterations (saturating;
  // Truffle's reportChildLoopCount).
  void ReportLoopCountToEntry(int iterations);
  // Reports this entry's own iterations: to the enclosing loops (not this
  // one) and the call target.
  void ReportOwnIterations(int iterations);
  // Adds `iterations` to the entries of the LoopNodes from `node` up to the
  // root; returns the root (null for a detached tree).
  static RootNode* ReportToEnclosingLoops(Node* node, int iterations);

  // The loop, with `step()` running one iteration.
  template <typename Step>
  MOREL_FAST_PATH int Run(Frame& frame, Step step);
  // Execute: through the body's vtable, or (RunAs) R's own ExecuteRepeating
  // while the body is still the R the loop was made with.
  static int RunVirtual(LoopNode& loop, Frame& frame);
  template <typename R>
  static int RunAs(LoopNode& loop, Frame& frame) {
    RepeatingNode* const body = loop.body_.get();
    if (body != loop.typed_body_.load(std::memory_order_relaxed)) [[unlikely]] {
      return RunVirtual(loop, frame);
    }
    R* const typed = static_cast<R*>(body);
    if constexpr (requires { typed->ExecuteRepeatingInline(frame); }) {
      return loop.Run(frame, [typed, &frame]() MOREL_FAST_LAMBDA {
        return typed->ExecuteRepeatingInline(frame);
      });
    } else {
      return loop.Run(frame, [typed, &frame] { return typed->R::ExecuteRepeating(frame); });
    }
  }
  // The OSR poll due at `count`: whether OSR code ran the rest of the loop
  // (its status in `*status`); else `*next_poll` moves on.
  bool PollOsr(Frame& frame, NodeRuntime* runtime, const OsrPolling& polling, int64_t count,
               int64_t* next_poll, int* status);

  Child<RepeatingNode> body_;
  int (*run_)(LoopNode&, Frame&) = &RunVirtual;
  // The body RunAs was made for; null once the body was replaced.
  std::atomic<const RepeatingNode*> typed_body_{nullptr};
  // Truffle's baseLoopCount: iterations inner loops reported during the
  // current entry; reset when an entry ends. Shared by recursive and
  // concurrent entries, as Truffle's field is (a count, not a guarantee).
  std::atomic<int> base_loop_count_{0};
  static constexpr int kUnknown = -2;
  std::atomic<int> osr_threshold_{kUnknown};  // published after osr_interval_
  std::atomic<int> osr_interval_{1024};
  std::atomic<NodeRuntime*> runtime_{nullptr};
  std::atomic<bool> has_osr_target_{false};
};

template <typename Step>
MOREL_FAST_PATH int LoopNode::Run(Frame& frame, Step step) {
  IterationReporter reporter(*this);
  const OsrPolling polling = Polling();
  NodeRuntime* runtime = Runtime();
  // The entry's count at which the next OSR poll is due: the first
  // iteration above the threshold (Truffle's profilingLoop), then every
  // interval (its compilingLoop, while the OSR code is being compiled).
  // (Truffle's compilingLoop: an entry of a loop that has an OSR target
  // polls at its first iteration.)
  int64_t next_poll = polling.threshold < 0 || runtime == nullptr ? INT64_MAX
                      : has_osr_target()                          ? 1
                                                                  : int64_t{polling.threshold} + 1;
  int status;
  while ((status = step()) == RepeatingNode::kContinueLoop) {
    reporter.Count();
    if (runtime != nullptr && runtime->SafepointRequested()) [[unlikely]] {
      runtime->OnSafepoint();
    }
    // Inner loops' iterations count too: they may add to it during an
    // iteration.
    const int64_t count =
        int64_t{reporter.iterations()} + base_loop_count_.load(std::memory_order_relaxed);
    if (count >= next_poll) [[unlikely]] {
      if (PollOsr(frame, runtime, polling, count, &next_poll, &status)) return status;
    }
  }
  return status;
}

}  // namespace morel

#endif  // MOREL_NODES_LOOP_NODE_H_
