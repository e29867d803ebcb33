#ifndef MOREL_ENGINE_RUNTIME_ENGINE_H_
#define MOREL_ENGINE_RUNTIME_ENGINE_H_

// Engine: runs call targets and owns everything shared by them: the
// configuration, the log, the call targets, and the runtime's reactions to
// what nodes report (NodeRuntime). One engine per guest context.
//
// It owns call-target creation (split copies included), polymorphism event
// counting per node class, the log sink, splitting (delegated to
// splitting::SplittingStrategy, which prints TraceSplittingSummary when the
// engine closes) and the compilation policy: thresholds, the background
// compile queue (engine/runtime/compile_queue.h), installation, deopt and
// invalidation handling, and the TraceCompilation lines.

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "engine/config/engine_config.pb.h"
#include "engine/ir/frame_state.h"
#include "engine/ir/runtime_function.h"
#include "engine/opt/pipeline_options.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/runtime/compile_queue.h"
#include "engine/runtime/engine_log.h"
#include "engine/runtime/inlining.h"
#include "engine/runtime/resource_limits.h"
#include "nodes/assumption.h"
#include "nodes/call_target.h"
#include "nodes/guest_error.h"
#include "nodes/node_runtime.h"
#include "osr/bytecode_osr_policy.h"
#include "osr/osr_policy.h"
#include "splitting/splitting_strategy.h"

namespace morel::runtime {

// A permanent compilation failure under CompilationFailureAction=Throw (or
// Diagnose) without background compilation: raised to the caller of the
// call that triggered the compilation (Truffle's
// OptimizationFailedException). It unwinds like a guest error.
class OptimizationFailedError : public GuestError {
 public:
  using GuestError::GuestError;
};

// What compilation did in one engine so far: Engine::compilation_statistics(),
// and the file --engine.CompilationStatisticsFile names, which the test
// runners read to check that a compiled mode compiled
// (testing/conformance/README.md).
struct CompilationStatistics {
  // Code installed on a call target (an "opt done" line), OSR code included.
  int successful = 0;
  // Permanent failures of the compiler: partial evaluation, optimization or
  // code generation failed ("opt failed"); the target stays interpreted.
  int failed = 0;
  // Permanent failures by the recompilation policy, not the compiler: a
  // deopt cycle was detected or MaximumCompilations reached ("opt failed"
  // too).
  int recompilation_limits = 0;
  // Compiled code left for the interpreter ("opt deopt"), either action.
  int deopts = 0;
  // Installed code dropped: a broken assumption, a rewritten tree, a split
  // in a caller, InvalidateAllCode ("opt inval.").
  int invalidations = 0;
  // Guest (non-internal) call targets, split copies included, called at
  // least once.
  int executed_targets = 0;
  // Of those, the ones called at least as often as the first compilation
  // threshold (once, with CompileImmediately): the call that reached it
  // asked for a compilation unless compilation is off for the target.
  int due_targets = 0;
};

class Engine : public NodeRuntime {
 public:
  // Fails if the configuration names a log file that cannot be opened.
  static absl::StatusOr<std::unique_ptr<Engine>> Create(
      config::EngineConfig config);
  // Closes the engine (see Close()) and destroys the call targets.
  ~Engine() override;

  // Ends the engine's life: stops the compiler threads (queued compilations
  // are dropped, running ones finish) and prints the summaries that Truffle
  // prints at engine close (TraceSplittingSummary). Idempotent; the
  // destructor calls it.
  void Close();

  const config::EngineConfig& config() const { return config_; }
  // The optimizer's options of config() (DumpIR, VerifyIR, DisablePasses,
  // OptimizationFuel), validated once by Create.
  const opt::PipelineOptions& pipeline_options() const { return pipeline_options_; }
  EngineLog& log() { return *log_; }

  // NodeRuntime
  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override;
  void OnPolymorphicSpecialize(Node& source) override;
  CallTarget* BeforeDirectCall(DirectCallNode& call, CallTarget* target) override;
  bool ForceSplit(DirectCallNode& call) override;

  splitting::SplittingStrategy& splitting() { return *splitting_; }

  // ---- sandbox limits (engine/runtime/resource_limits.h)
  ResourceLimits& resource_limits() { return *limits_; }
  // A cancelled engine (a limit was exceeded) raises its ResourceLimitError
  // at every safepoint; otherwise the request is cleared.
  void OnSafepoint() override;
  [[noreturn]] void OnStackFramesExceeded(const CallTarget& target) override;

  // ---- compilation (engine/runtime/compiler.h)
  // The interpreter's request: a first-tier compilation (the only one
  // without MultiTier, a last-tier one) once callCount reaches its
  // threshold too.
  void OnCompilationThreshold(CallTarget& target) override;
  // First-tier code's request: a last-tier compilation, if the code that
  // asks is the target's installed first-tier code. Never throws (it runs
  // inside compiled code).
  void OnLastTierThreshold(CallTarget& target) override;
  // The compilation tiers (Truffle's EngineData, truffle_reference §4.2),
  // from the configuration.
  struct TierPolicy {
    bool multi_tier = true;        // MultiTier, forced off by CompileImmediately
    bool first_tier_only = false;  // Mode=latency
    bool backedge_counts = true;   // FirstTierBackedgeCounts
    int call_threshold_in_interpreter = 0;
    int call_and_loop_threshold_in_interpreter = 0;
    int call_threshold_in_first_tier = 0;
    int call_and_loop_threshold_in_first_tier = 0;
  };
  static TierPolicy TierPolicyOf(const config::EngineConfig& config);
  // The partial evaluator's options for compiling at `tier`: first-tier
  // code profiles for the last tier unless there is none (MultiTier off,
  // Mode=latency).
  void SetTierOptions(int tier, pe::PartialEvaluator::Options& options) const;
  // Whether code of `tier` profiles for the last tier (first-tier code with
  // MultiTier, not in Mode=latency).
  bool ProfilesForLastTier(int tier) const;
  // The call target with `id` in any engine of the process (ids are
  // process-unique): how a deoptimization finds the frame's target.
  static CallTarget* FindCallTargetInProcess(int64_t id);
  void OnNodeReplaced(CallTarget& target, Node& old_node, Node& new_node,
                      absl::string_view reason) override;
  // On-stack replacement (engine/runtime/osr.h; the policy: osr/osr_policy.h).
  int OsrLoopThreshold() override;
  int OsrLoopPollInterval() override;
  bool PollOSR(LoopNode& loop, Frame& frame, int count, int* status) override;
  bool OnBytecodeOSRPoll(BytecodeOSRNode& node, int64_t previous, int64_t count) override;
  std::optional<Value> TryBytecodeOSR(BytecodeOSRNode& node, int target_bci,
                                      int64_t interpreter_state,
                                      absl::FunctionRef<void()> before_transfer,
                                      Frame& parent_frame) override;
  // Compiled code of `target` deoptimized at `location` (the innermost node
  // of the frame state, if known). kInvalidate (a failed speculation,
  // transferToInterpreterAndInvalidate): the code is dropped, the target
  // goes back to the interpreter, re-profiles and may compile again; the
  // deopt counts toward deopt-cycle detection; traced `|Invalidated  true|`.
  // kKeepCode (transferToInterpreter): only this activation left the code,
  // which stays installed; nothing is counted; traced `|Invalidated false|`.
  // `code`: the compilation that deoptimized, if known. A kInvalidate deopt
  // of code that another compilation replaced meanwhile (first-tier code
  // still running after the last tier was installed) leaves the newer code
  // alone, like kKeepCode.
  void OnDeoptimized(CallTarget& target, const std::string& reason,
                     const Node* location = nullptr,
                     ir::DeoptAction action = ir::DeoptAction::kInvalidate,
                     const pe::Compilation* code = nullptr);
  // Blocks until no compilation is queued or running (tests, benchmarks).
  void WaitForCompilations();
  // Tests: runs on the compiling thread after partial evaluation and
  // optimization, before code generation and installation — where a
  // concurrent rewrite or invalidation must make the engine discard the code.
  void SetAfterPartialEvaluationHookForTesting(std::function<void(CallTarget&)> hook) {
    after_pe_hook_ = std::move(hook);
  }
  // ---- reclaiming dropped code. Code that is no longer installed
  // (invalidated, replaced by a higher tier, discarded) stays alive while
  // an activation of it may run. When this engine's compiled code has only
  // ever run on one thread, that thread frees dropped native code from
  // time to time (at call-target creation and compilation requests, which
  // run on it): it scans its own stack for return addresses into the
  // dropped code and frees the code nothing points into (its region goes
  // back to the code cache, its IR and metadata are deleted). Code that ran
  // on several threads is kept until the engine dies.
  // NativeCode::Invoke calls this on every entry into compiled code.
  void NoteThreadRunningCode() {
    const std::thread::id self = std::this_thread::get_id();
    if (code_thread_.load(std::memory_order_relaxed) != self) [[unlikely]] {
      NoteNewThreadRunningCode(self);
    }
  }
  // Frees what it can now, if on the code's thread; returns how many code
  // objects were freed. Tests call it; the engine calls it every
  // kReclaimInterval dropped codes.
  int ReclaimDroppedCode();
  // Installed or dropped code objects the engine still holds.
  size_t live_code_objects() const;

  // ---- freeing retired call targets. A retired target (RetireCallTarget:
  // the language will not call it anew) loses its code at once (running
  // activations finish in it) and is never compiled again. It is freed,
  // with its tree, and so are the split copies of it, once all of these
  // hold, checked by the one thread that has ever run this engine's guest
  // code (NodeRuntime::IsOnlyGuestThread; several: nothing is freed):
  //  - no interpreter activation of it is on that thread's stack (the
  //    Frame::Current() chain: frames of compiled callers are not in it,
  //    but CallTarget::Call and deoptimization push one for every
  //    interpreter activation);
  //  - nothing holds it (CallTarget::holder_count(): no call node was
  //    created for it or calls it as a split, no split copy of it lives);
  //  - no code object the engine holds (installed, or dropped and not yet
  //    freed: ReclaimDroppedCode runs first) was compiled from its tree:
  //    not as the compiled target, not inlined (the code embeds the tree's
  //    nodes and the target's counters; the targets it calls are held by
  //    call nodes of those trees, which keeps them);
  //  - it is neither queued nor being compiled, and no OSR state names a
  //    loop of its tree.
  // Freed targets leave call_targets() and count in
  // compilation_statistics() as before.
  void RetireCallTarget(CallTarget& target) override;
  // Frees what it can now (a no-op off the guest thread); returns how many
  // call targets were freed. Tests call it; CreateCallTarget calls it
  // whenever the retired targets doubled since the last time.
  int ReclaimRetiredCallTargets();
  // Call targets not freed yet (split copies and OSR targets included).
  size_t live_call_targets() const;

  // Drops every installed code. (A redefined function invalidates only the
  // code that depends on it: nodes/assumption.h.)
  void InvalidateAllCode(const std::string& reason);
  // Compiled code of `target` that had been invalidated deoptimized (a
  // running activation noticed the invalidation after a call): traced
  // only; the target's current code, if any, stays.
  void OnInvalidatedCodeDeoptimized(CallTarget& target, const std::string& reason);
  ir::RuntimeRegistry& runtime_functions() { return runtime_functions_; }

  // ---- inlining (engine/runtime/inlining.h)
  // Truffle's nodeRewritingAssumption of `target`: code that inlined
  // `target` depends on it, and a node replacement in `target`'s tree
  // invalidates it (OnNodeReplaced), so every compilation that inlined the
  // tree is dropped with the target's own code.
  Assumption* RewritingAssumption(CallTarget& target);
  // The inlining options of a compilation at `tier`
  // (FirstTierInliningPolicy or InliningPolicy, the budgets, TraceInlining,
  // DumpCallTree).
  InliningSettings InliningSettingsFor(int tier) const;

  // Polymorphic specialization reports so far, per node class (kind name).
  std::map<std::string, int> PolymorphicReportsByNodeClass() const;
  int polymorphic_report_count() const;

  // Every call target created and not freed (ReclaimRetiredCallTargets),
  // split copies included, in creation order. The pointers stay valid
  // until the guest thread's next reclamation.
  std::vector<CallTarget*> call_targets() const;

  // Thread-safe; the counts of compilations still running are not in yet.
  CompilationStatistics compilation_statistics() const;

 private:
  Engine(config::EngineConfig config, opt::PipelineOptions pipeline_options,
         std::unique_ptr<EngineLog> log);

  config::EngineConfig config_;
  TierPolicy tiers_;
  opt::PipelineOptions pipeline_options_;
  std::unique_ptr<EngineLog> log_;
  std::unique_ptr<splitting::SplittingStrategy> splitting_;
  std::unique_ptr<ResourceLimits> limits_;

  mutable std::mutex lock_;
  // Freed while the engine runs only when retired and unreachable
  // (ReclaimRetiredCallTargets); guarded by lock_.
  std::vector<std::unique_ptr<CallTarget>> call_targets_;
  // Retired call targets not freed yet, guarded by lock_. A split copy is
  // retired with its source (IsRetiredLocked).
  absl::flat_hash_set<const CallTarget*> retired_;
  bool IsRetiredLocked(const CallTarget& target) const;
  // ReclaimRetiredCallTargets runs when retired_ has grown to this size.
  static constexpr size_t kRetiredReclaimInterval = 64;
  size_t next_retired_reclaim_size_ = kRetiredReclaimInterval;  // guarded by lock_
  // Targets whose Compile() runs (background or not), guarded by lock_.
  absl::flat_hash_map<const CallTarget*, int> compiling_;
  // What freed targets contributed to compilation_statistics(), guarded
  // by lock_.
  int freed_executed_targets_ = 0;
  int freed_due_targets_ = 0;
  // Adds `target` to compilation_statistics()'s executed and due counts.
  void CountExecution(const CallTarget& target, int* executed, int* due) const;
  std::map<std::string, int> reports_by_class_;
  int report_count_ = 0;

  // Compilation policy and state.
  void ConfigureCompilation(CallTarget& target);
  // CompileOnly: whether `target` may be compiled at all.
  bool AcceptsForCompilation(const CallTarget& target) const;
  // Truffle's compile(lastTierRequest): the tier compiled, 2 for a
  // last-tier request unless Mode=latency, else 1.
  int TierFor(bool last_tier_request) const;
  // The call-and-loop count a compilation at `tier` is requested at (the
  // `Count/Thres` of the trace): the interpreter's threshold, or first-tier
  // code's for a last-tier compilation with MultiTier.
  int ThresholdOf(int tier) const;
  // The interpreter's threshold after a re-profile: `extra` beyond the
  // current call-and-loop count (saturating).
  int ReprofileThreshold(const CallTarget& target, int extra) const;
  // Queues a compilation of `target` at `tier`, or without background
  // compilation compiles it now.
  void RequestCompilation(CallTarget& target, int tier);
  // Compiles at `tier` and installs (replacing first-tier code by
  // last-tier code); `start` is the queue's record for a background
  // compilation (null when compiling on the calling thread). Skipped if
  // code of `tier` or higher is installed.
  void Compile(CallTarget& target, const CompileQueue::Start* start, int tier);
  CompileQueue& queue();
  std::string QueueColumn(const CompileQueue::QueueState& state) const;
  // TraceCompilationDetails lines.
  void LogQueued(const CallTarget& target, const CompileQueue::QueueState& state, int tier);
  void LogUnqueued(const CallTarget& target, const CompileQueue::QueueState& state, int tier,
                   absl::string_view reason);
  // CompilationFailureAction=Diagnose: compiles `target` at `tier` again
  // with every IR dump and the verifier on, into
  // <DumpPath>/diagnostics/<name>-<n>.txt headed by `failure`, and logs
  // where.
  void WriteDiagnostics(CallTarget& target, const absl::Status& failure, int tier);
  // A fresh dump-file stem <DumpPath>/<directory>/<target name, file-safe>-<n>
  // (n counts this process's dump files; the directory is created): the
  // caller appends its suffix.
  std::string NewDumpStem(absl::string_view directory, const CallTarget& target) const;
  void LogStart(const CallTarget& target, const CompileQueue::Start& start);
  // Writes compilation_statistics() to the CompilationStatisticsFile (Close).
  void WriteCompilationStatistics();
  // Detaches `target`'s code, lets it re-profile, traces `opt inval.`.
  void DropCode(CallTarget& target, absl::string_view reason);
  // The Compilation option, and a backend that compiles.
  bool CompilationEnabled() const;
  std::string TargetColumn(const CallTarget& target) const;
  // Installs `code` on `target` if every assumption it depends on is still
  // valid, registering it with them (nodes/assumption.h); else
  // sets `*refused` and returns false. Sets the target's compilation
  // threshold to `threshold` first, unless it is negative. Caller holds
  // lock_.
  bool InstallCode(CallTarget& target, InstalledCode* code, const void* native_entry,
                   int threshold, std::string* refused);
  // Invalidation handler of installed code (runs under the assumptions'
  // lock, so it never takes lock_): detaches `code` from `target` if still
  // installed, re-profiles, traces `opt inval.`.
  void InvalidateCode(CallTarget& target, InstalledCode* code, const std::string& reason);

  ir::RuntimeRegistry runtime_functions_;
  // Per target, guarded by lock_.
  struct CompilationState {
    int successful = 0;
    bool failed = false;
    // The highest tier compiled successfully so far (0: none), for the
    // queue's priority.
    int highest_tier = 0;
    // The call-and-loop count the profile counts from: 0, or where the
    // last re-profile started. The last tier's threshold is relative to it.
    int profile_base = 0;
    // Deopt-cycle detection: the last deoptimization's node and reason, how
    // often it repeated in a row, and whether that exceeded the allowance.
    std::string last_deopt;
    int deopt_repeats = 0;
    bool deopt_cycle = false;
  };
  std::map<const CallTarget*, CompilationState> compilations_;
  // Per target, created on first use (RewritingAssumption), under lock_.
  std::map<const CallTarget*, std::unique_ptr<CyclicAssumption>> rewriting_;
  // TraceInlining / DumpCallTree output of a finished compilation.
  void ReportInlining(const CallTarget& target, const InliningReport& report);
  // The counters of compilation_statistics() (the target counts are taken
  // from the call targets when asked).
  struct StatisticsCounters {
    std::atomic<int> successful{0};
    std::atomic<int> failed{0};
    std::atomic<int> recompilation_limits{0};
    std::atomic<int> deopts{0};
    std::atomic<int> invalidations{0};
  };
  StatisticsCounters statistics_;
  // Bumped by InvalidateAllCode: a compilation that started before may not
  // install its code.
  uint64_t invalidation_epoch_ = 0;
  bool closed_ = false;
  std::unique_ptr<CompileQueue> queue_;  // created at the first submission
  std::function<void(CallTarget&)> after_pe_hook_;
  // On-stack replacement (engine/runtime/osr.cc): the policy is osr/'s
  // (per-loop state, thresholds, re-attempts); the engine is its host
  // (OSR targets, compilation, running the code on the frame). Lock order:
  // lock_, then the policy's (a leaf).
  class OsrHostImpl;
  std::unique_ptr<OsrHostImpl> osr_host_;
  std::unique_ptr<osr::OsrPolicy> osr_policy_;
  std::unique_ptr<osr::BytecodeOsrPolicy> bytecode_osr_policy_;
  int RunOsr(CallTarget& target, InstalledCode& code, Frame& frame);
  Value RunBytecodeOsr(CallTarget& target, InstalledCode& code, Frame& frame);
  // The OSR targets whose code runs on `tree`'s activations, and the trees
  // with OSR state (loops' and bytecode entries').
  std::vector<CallTarget*> OsrTargetsOf(const RootNode& tree) const;
  // CompileOnly, parsed: name substrings to include (any) and exclude.
  std::vector<std::string> compile_only_include_;
  std::vector<std::string> compile_only_exclude_;
  // Installed and dropped code (dropped code until ReclaimDroppedCode
  // proves that no activation of it is left). Guarded by lock_.
  std::vector<std::unique_ptr<InstalledCode>> code_;
  // ReclaimDroppedCode runs when code_ has grown to this size.
  static constexpr size_t kReclaimInterval = 64;
  size_t next_reclaim_size_ = kReclaimInterval;  // guarded by lock_
  void MaybeReclaimDroppedCode();
  void NoteNewThreadRunningCode(std::thread::id self);
  // The thread that runs compiled code (default id: none yet); several:
  // reclamation is off for good.
  std::atomic<std::thread::id> code_thread_{};
  std::atomic<bool> code_on_several_threads_{false};
};

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_ENGINE_H_
