#ifndef MOREL_ENGINE_PE_PARTIAL_EVALUATOR_H_
#define MOREL_ENGINE_PE_PARTIAL_EVALUATOR_H_

// PartialEvaluator: turns a call target's current node tree into IR
// (DESIGN §6). Language-agnostic: the language's nodes emit their own IR
// through this class, and their specializations through PeContext — the
// same Guard/Body templates the interpreter runs (nodes/specialization.h).
//
// What it provides to node code:
//  - guest values as PeValue (payload, tag) pairs of SSA values;
//  - the virtualized frame: locals are SSA values, merged at control-flow
//    joins through block parameters (an unassigned local is (0, illegal));
//  - the resume path: node code brackets its evaluation with Enter/Leave
//    and reports each finished child (DoneValue/DoneStatus); a guard's frame
//    state then records exactly what nodes/resume.h needs to resume the
//    interpreter there — the path (kept per compilation as a
//    ResumeTemplate indexed by the frame state's resume_point), the locals,
//    and the done values as the frame state's stack;
//  - structured control flow (merges, loops, the function exit);
//  - bailouts: a node that cannot be compiled gives a reason and the
//    compilation fails permanently with it.
//
// The compiled function's signature is (ptr args, i64 count) -> (i64, i64):
// a pointer to the argument Values, their number, and the result Value.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/ir/builder.h"
#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"
#include "nodes/assumption.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/execution.h"
#include "nodes/loop_node.h"
#include "nodes/node.h"
#include "nodes/value.h"

namespace morel::bytecode {
class BytecodeRootNode;
}  // namespace morel::bytecode

namespace morel::pe {

// PeValue, a guest value in compiled code, is declared with the node model's
// vocabulary (nodes/execution.h): nodes name it without seeing IR.

// Where a frame state resumes: the path from the root (first) to the
// innermost node. Each done outcome is either a status constant or the
// index of a value in the frame state's stack.
struct ResumeTemplate {
  // stack_index of the done outcome that an inlined callee's activation
  // produces: the caller's frame state at an inlined call resumes after the
  // call with the result of the frame inside it (ResumeInInterpreter).
  static constexpr int kInnerFrameResult = -1;
  struct Done {
    bool is_value;
    int stack_index;  // is_value: an index into the stack, or kInnerFrameResult
    int status;       // !is_value
  };
  struct Entry {
    Node* node;
    int next_child;
    std::vector<Done> done;
  };
  std::vector<Entry> path;
};

struct Compilation {
  CallTarget* target = nullptr;
  std::unique_ptr<ir::Function> function;
  std::vector<ResumeTemplate> resume_templates;  // by frame-state resume_point
  // The assumptions the code relies on and its validity cell (read after
  // calls); the engine registers it when it installs the code.
  std::unique_ptr<CodeDependencies> dependencies;
  int ir_nodes_after_pe = 0;
  // The trees of the call targets inlined into this code, with their
  // rewrite counts when partial evaluation read them: the engine discards
  // the code if any moved before installation (as it does for the root's).
  struct InlinedTree {
    RootNode* root;
    uint64_t rewrite_count;
  };
  std::vector<InlinedTree> inlined_trees;
  int tier = 2;  // PartialEvaluator::Options::tier
};

class PeContext;

// How partial evaluation asks the inliner (DESIGN §6: "ask the inliner which
// calls to expand"). The engine implements it over an inliner::CallTree
// (engine/runtime/inlining.h); the partial evaluator only knows opaque
// frames: null is the compilation's root, and InlineInto returns the
// callee's. Without one, nothing is inlined.
class InliningDecisions {
 public:
  virtual ~InliningDecisions() = default;
  // A direct call in `frame` of `callee` through `call`: the callee's frame
  // handle if its body is to be evaluated into this graph (inlined), else
  // null (the call stays a call_target). Also how exploration learns the
  // call sites of a graph.
  virtual const void* InlineInto(const void* frame, DirectCallNode* call, CallTarget* callee) = 0;
  // A call in `frame` whose callee is not known (a runtime call that may
  // run guest code, e.g. SL's indirect call): an Indirect call-tree node.
  virtual void OnIndirectCall(const void* frame) {}
  // Partial evaluation of the inlined callee behind `callee_frame` failed
  // (a construct that cannot be compiled): the call stays a call.
  virtual void OnInlineBailout(const void* callee_frame, const std::string& reason) {}
};

// The id operand of `call_target`: the callee's CallTarget address (alive
// as long as the engine, so as long as any code that calls it) with the
// number of guest arguments the call passes in its low 3 bits, saturated at
// 7 (informational: dispatchers take the count from the call's operands,
// so any number of arguments can be passed). No lookup on the call path.
inline int64_t EncodeCallTargetId(CallTarget* target, int argument_count) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(target)) |
         (argument_count < 7 ? argument_count : 7);
}
inline CallTarget* DecodeCallTarget(int64_t encoded) {
  return reinterpret_cast<CallTarget*>(static_cast<uintptr_t>(encoded) & ~uintptr_t{7});
}
inline int DecodeArgumentCount(int64_t encoded) { return static_cast<int>(encoded & 7); }

class PartialEvaluator {
 public:
  struct Options {
    // Stress mode (--engine.DeoptEveryN): every N-th guard executed fails.
    int deopt_every_n = 0;
    // Which direct calls to inline (null: none).
    InliningDecisions* inlining = nullptr;
    // The assumption that `target`'s tree is not rewritten (Truffle's
    // nodeRewritingAssumption): code that inlines `target` depends on it.
    // Null: inlined trees are only checked by their rewrite counts.
    std::function<Assumption*(CallTarget& target)> rewriting_assumption;
    // The compilation tier (engine/runtime/README.md, "Tiers"): 1, the first
    // tier, or 2, the last tier (also the only tier without MultiTier, and
    // OSR code's). Recorded in Compilation::tier; the engine chooses the
    // profiling below from it.
    int tier = 2;
    // First-tier code that profiles for the last tier (Truffle's
    // firstTierCall): the function's prologue counts the call into the
    // target's callCount and callAndLoopCount (saturating, inline at the
    // counters' addresses) and, once callCount >= last_tier_call_threshold
    // and callAndLoopCount >= the target's compilation_threshold() (read
    // on every call: the engine arms and disarms it), calls
    // NodeRuntime::OnLastTierThreshold on a cold path.
    bool profile_for_next_tier = false;
    int last_tier_call_threshold = 0;
    // With profile_for_next_tier: ProfileBackEdge() counts each loop
    // iteration into callAndLoopCount (--engine.FirstTierBackedgeCounts).
    bool profile_back_edges = false;
  };
  PartialEvaluator(CallTarget& target, ir::RuntimeRegistry& runtime)
      : PartialEvaluator(target, runtime, Options()) {}
  PartialEvaluator(CallTarget& target, ir::RuntimeRegistry& runtime, Options options);
  ~PartialEvaluator();

  // Partially evaluates the target's root (RootNode::PartialEvaluate). The
  // result is verified IR, not yet optimized.
  absl::StatusOr<std::unique_ptr<Compilation>> Run();

  ir::Builder& builder() { return builder_; }
  PeContext& context() { return *context_; }
  ir::RuntimeRegistry& runtime() { return runtime_; }
  // The compilation's call target (its code's owner).
  CallTarget& target() { return target_; }

  // ---- inlining (InliningDecisions). A direct call of `callee` through
  // `call`: its body evaluated into this graph if the inliner says so (the
  // callee's arguments are `arguments`, its locals SSA values like the
  // root's, its frame states chained to this frame's state after the call),
  // returning the callee's result; nullopt if the call is not inlined.
  std::optional<PeValue> TryInline(DirectCallNode* call, CallTarget* callee,
                                   absl::Span<const PeValue> arguments);
  // A call whose callee partial evaluation cannot see (an Indirect node).
  void NoteIndirectCall();

  // ---- guest values
  PeValue Constant(Value value);
  // Argument `index`, or NULL-like `missing` when fewer were passed.
  PeValue Argument(int index, Value missing);
  PeValue Local(int slot) const { return locals_[slot]; }
  // The locals as they are now, to give each branch of a split the same
  // starting state: take them before the first branch, restore them before
  // each other branch.
  std::vector<PeValue> SaveLocals() const { return locals_; }
  void RestoreLocals(std::vector<PeValue> locals) { locals_ = std::move(locals); }
  void SetLocal(int slot, PeValue value) { locals_[slot] = value; }
  // Local `slot` for a read that is an error before the first assignment
  // (which the interpreter reports): deoptimizes at the current path if the
  // slot is unassigned here (the result is then a placeholder), speculates
  // that it is assigned if that is not known.
  PeValue AssignedLocal(int slot);
  // True if the tag of `value` is the constant `tag`.
  static bool HasConstantTag(const PeValue& value, ValueTag tag);
  // True if the tag of `value` is a constant (any).
  static bool HasKnownTag(const PeValue& value);

  // ---- the resume path
  void Enter(Node* node);
  void DoneValue(PeValue value);
  void DoneStatus(int status);
  // Forgets the last done outcome (after a branch that evaluated a child
  // only conditionally).
  void UndoDone();
  // The innermost entry's done outcomes so far, and forgetting those past
  // the first `count` (the end of a branch's arm: its outcomes are not the
  // other arm's, nor anything's after the branch).
  int DoneCount() const { return static_cast<int>(path_.back().done.size()); }
  void TruncateDone(int count) {
    while (DoneCount() > count) UndoDone();
  }
  void Leave();
  // Sets where the innermost node resumes explicitly, for nodes whose
  // resume position is not "after their done children": a bytecode root
  // resumes at instruction `next_child` with `done_values` as its operand
  // stack (nodes/bytecode/bytecode_root_node.h). Replaces the innermost
  // entry's done outcomes.
  void SetResumePosition(int next_child, absl::Span<const PeValue> done_values);
  // A frame state resuming at the current path with the current locals.
  ir::FrameState* EagerFrameState();
  // The same state as a call's lazy frame state: the locals while the call
  // runs, which a stack walk reads from compiled frames (engine/runtime/
  // compiled_frames.h). Its resume point is the call node before the call's
  // result (no runtime resumes from it yet: validity cells cover that).
  // In an OSR compilation the chain ends before the OSR frame, which is the
  // interpreter's own (kept current around calls: BeforeCall), so the walk
  // lists it once; on the OSR frame itself there is no state (null).
  ir::FrameState* LazyFrameState();

  // ---- control flow. A Merge is a block whose parameters are all locals
  // plus `extra` values; jumping to it passes the current locals.
  struct Merge {
    ir::Block* block = nullptr;
  };
  Merge NewMerge(int extra_values = 0);
  void JumpTo(Merge& merge, const std::vector<ir::Value*>& extra = {});
  // Continues in `merge` with locals from its parameters; returns its extra
  // parameters. A merge nothing jumped to is a dead block (DCE removes it).
  std::vector<ir::Value*> Continue(Merge& merge);
  // A fresh block with no predecessors: code emitted after a terminator.
  void ContinueInDeadBlock();
  bool Terminated() const { return builder_.IsTerminated(); }
  // The function's exit: `return` jumps here with the result.
  void Return(PeValue value);
  // (Also bytecode OSR's `return`: the function's result.)
  // `return` of a statement-status language: in a function, Return(value);
  // in an OSR compilation, leaves the loop with `status` (the statement's
  // completion that means "return") after storing `value` as the frame's
  // return value.
  void Return(PeValue value, int status);

  // ---- on-stack replacement (osr/). An OSR compilation compiles one loop
  // of a running activation. Its arguments pointer is then the
  // activation's frame: slot i of the frame is Value i, and Value `size`
  // (one past the last slot) receives a return value. EnterOsr() makes
  // the locals the frame's slots; ExitOsr(status) stores every local back
  // and returns `status` as the loop's result (a long).
  void EnterOsr();
  void ExitOsr(int status);
  // Bytecode OSR (osr::BytecodeOsrRootNode) compiles a bytecode function
  // from an entry bci to its end: `return` returns the function's result.
  // Its arguments pointer is then this many Values (BytecodeOsrArgument),
  // whose payloads are the activation's frame storage (the locals, the
  // scratch slot, then the operand stack: BytecodeRootNode::stack_base),
  // the activation's argument Values and their number.
  enum BytecodeOsrArgument : int {
    kOsrFrameStorage = 0,
    kOsrArguments = 1,
    kOsrArgumentCount = 2,
    kBytecodeOsrArgumentCount = 3,
  };
  // Before a call that may run guest code: in an OSR compilation, the OSR
  // frame's slots get its current locals (a callee may walk the stack and
  // read them), also from an inlined callee's call. Nothing otherwise.
  void BeforeCall();
  // After such a call: in an OSR compilation, the locals are reloaded from
  // the frame if the callee may have written them (SL's helloEqualsWorld
  // writes its caller's frame; only a direct call from the OSR frame to a
  // target whose root WritesCallerFrame() can reach the OSR frame itself:
  // indirect calls to writers leave for the interpreter first, and a writer
  // deeper down writes its own caller's frame, which for an inlined caller
  // transfers to the interpreter first). Otherwise the locals stay in SSA
  // values.
  void AfterCall(bool callee_may_write_frame = true);
  bool osr() const { return osr_; }
  // The frame being evaluated is the OSR frame (the interpreter's own, whose
  // slots are real), not an inlined callee's.
  bool on_osr_frame() const { return osr_ && callers_.empty(); }

  // The innermost loop's continue (header) and break (exit) merges.
  void PushLoop(Merge* header, Merge* exit) { loops_.push_back({header, exit}); }
  void PopLoop() { loops_.pop_back(); }
  bool InLoop() const { return !loops_.empty(); }
  Merge& loop_header() { return *loops_.back().header; }
  Merge& loop_exit() { return *loops_.back().exit; }

  // After a call that may return the pending-exception marker: if it did,
  // return it from this function at once (nodes/pending_exception.h).
  PeValue PropagatePendingException(PeValue result);

  // ---- profiling for the next tier (Options::profile_for_next_tier)
  // A language's loop calls this on its back edge, the path from the end
  // of an iteration (and from a `continue`) to the loop header. In
  // first-tier code with profile_back_edges it adds the iteration to the
  // target's callAndLoopCount (an inline load, add, store per iteration),
  // as the interpreter's LoopNode reports iterations, so that a function
  // whose loops run long reaches the last tier at one of its next calls.
  // Counts into the compiled target (also for loops of inlined callees);
  // emits nothing in other code and in OSR code.
  void ProfileBackEdge();

  // ---- safepoints. A language's loop calls BackEdge() on its back edge
  // (where ProfileBackEdge would go, in a state whose path resumes at the
  // start of the next iteration): it emits a `safepoint` with an eager frame
  // state there -- compiled code polls the runtime's safepoint word
  // (NodeRuntime::safepoint_word) and, when it is set, leaves for the
  // interpreter, which polls too (a MaxCPUTime limit stops a compiled
  // infinite loop this way) -- then ProfileBackEdge().
  void BackEdge();

  // ---- assumptions and lazy invalidation (nodes/assumption.h)
  // Compiled code may rely on `assumption` without checking it: records it
  // as a dependency of this compilation (the engine refuses to install code
  // whose assumptions are invalid, and invalidates installed code when one
  // of them is). Emits nothing. Returns whether it is valid now; if not,
  // the caller should not rely on it (e.g. deoptimize instead).
  bool Assume(Assumption* assumption) { return dependencies_->Add(assumption); }
  CodeDependencies& dependencies() { return *dependencies_; }
  // After a call that may have run guest code (and so may have invalidated
  // this code while it was suspended in the call): deoptimizes if the
  // compilation's validity cell says the code was invalidated, resuming
  // *after* the call with `result`. The frame state's innermost entry is
  // the node being evaluated (the one that made the call) with its done
  // outcomes plus `result`, and next_child one past them: the node's
  // Resume must treat that as "my operation finished with this result" and
  // return it (nodes/resume.h; SLInvokeNode). Never re-executes the call.
  // Call it after PropagatePendingException. Returns `result`.
  PeValue CheckValidAfterCall(PeValue result);

  // Conditional deoptimization: continue only if `condition` holds.
  // `action`: kInvalidate (a speculation: failing it drops the code) or
  // kKeepCode (Truffle's transferToInterpreter: only this activation goes
  // back to the interpreter; the code stays installed).
  void Speculate(ir::Value* condition, std::string reason,
                 ir::DeoptAction action = ir::DeoptAction::kInvalidate);
  // Unconditional deoptimization (a path the interpreter must take).
  void Deopt(std::string reason, ir::DeoptAction action = ir::DeoptAction::kInvalidate);

  // ---- failure
  void Bailout(std::string reason);
  bool failed() const { return !bailout_.empty(); }
  const std::string& bailout_reason() const { return bailout_; }

 private:
  // The root's own PartialEvaluate, or EvaluateOsrLoop for an OSR root
  // (osr::OsrRootNode holds no compilation code: osr/ does not depend on
  // the engine).
  absl::Status EvaluateRoot(RootNode& root);
  // An OSR compilation of `loop` (its frame's slots as the locals, the
  // loop's status as the result), speculating on `entry_tags`.
  absl::Status EvaluateOsrLoop(LoopNode& loop, absl::Span<const ValueTag> entry_tags);
  // A bytecode root, merge-exploded over its constant code
  // (bytecode_explode.cc): from bci 0, or with `osr_entry_bci` >= 0 an OSR
  // compilation from that bci (a branch target) to the function's end, the
  // frame's locals and operand stack loaded at entry.
  absl::Status EvaluateBytecode(bytecode::BytecodeRootNode& root, int osr_entry_bci = -1,
                                absl::Span<const ValueTag> osr_entry_tags = {});
  // Bytecode OSR's entry: decodes the arguments (BytecodeOsrArgument),
  // loads the locals and `stack_height` operand-stack values from
  // `stack_base` of the frame storage; returns the stack.
  std::vector<PeValue> EnterBytecodeOsr(int stack_base, int stack_height);
  // At an OSR entry (the current path resumes there): speculates that each
  // local holds a value of its tag in `tags` (osr::OsrEntryTags: the
  // frame's at the request; illegal ones are not speculated on) and makes
  // that tag the local's constant. A frame with other tags deoptimizes,
  // invalidating the code.
  void SpeculateOsrEntryTags(absl::Span<const ValueTag> tags);

  // `awaiting_inner_result`: the state of a caller at an inlined call,
  // whose innermost entry resumes after the call with the result of the
  // inlined frame (ResumeTemplate::kInnerFrameResult). `for_stack_walk`:
  // chained to frame_.walk_caller_state instead of frame_.caller_state.
  ir::FrameState* FrameStateOfKind(ir::DeoptKind kind, bool awaiting_inner_result = false,
                                   bool for_stack_walk = false);
  // The arguments of a jump to a merge: every local, then `extra`.
  std::vector<ir::Value*> MergeArguments(const std::vector<ir::Value*>& extra) const;
  // An inlined callee's result, if every `return` it can reach returns the
  // same value (or constant): then the caller uses that value, not the
  // return block's parameters, so partial evaluation still knows a
  // constant result (a folded call, a type check) in the caller.
  std::optional<PeValue> SingleResult(ir::Block* callee_entry, ir::Block* return_block);

  CallTarget& target_;
  ir::RuntimeRegistry& runtime_;
  Options options_;
  std::unique_ptr<ir::Function> function_;
  ir::Builder builder_;
  std::unique_ptr<PeContext> context_;
  std::unique_ptr<CodeDependencies> dependencies_;
  ir::Value* args_pointer_ = nullptr;
  ir::Value* args_count_ = nullptr;
  std::vector<PeValue> locals_;
  struct PathEntry {
    Node* node;
    std::vector<ResumeTemplate::Done> done;
    std::vector<PeValue> done_values;
    int next_child = -1;  // -1: done.size() (SetResumePosition)
  };
  std::vector<PathEntry> path_;
  std::vector<ResumeTemplate> templates_;
  // The function's exit (a pending exception leaves through it from any
  // frame: nothing in between could handle it).
  ir::Block* exit_ = nullptr;
  bool osr_ = false;
  // OSR code that runs to the end of the function (bytecode OSR): Return
  // returns the function's result.
  bool osr_to_end_ = false;
  // In an OSR compilation: the frame storage's address (the arguments
  // pointer of a loop's OSR code; loaded from it for bytecode OSR).
  ir::Value* osr_frame_ = nullptr;
  // The frame being evaluated: the root's, or an inlined callee's. Its
  // locals, path and loops are locals_, path_ and loops_; an inlined call
  // saves the caller's in callers_ and restores them after the callee.
  struct FrameInfo {
    CallTarget* target = nullptr;
    const void* handle = nullptr;            // InliningDecisions' frame (null: root)
    ir::Block* return_block = nullptr;       // Return() jumps here with the result
    ir::FrameState* caller_state = nullptr;  // parent of this frame's states
    // Parent of this frame's calls' lazy states: caller_state, except in an
    // OSR compilation, whose chains for stack walks end before the OSR
    // frame (LazyFrameState).
    ir::FrameState* walk_caller_state = nullptr;
    std::vector<PeValue> arguments;          // inlined: the call's arguments
  };
  FrameInfo frame_;
  std::vector<Compilation::InlinedTree> inlined_trees_;
  // Options::profile_for_next_tier: the prologue's counting and check.
  void EmitProfilingPrologue();
  // Adds 1 (saturating at INT_MAX) to the profile word at `address` of the
  // target (CallTarget::*_address()); returns the new value.
  ir::Value* IncrementProfileCounter(const void* address);
  // Stores the OSR frame's locals (and `return_value`, if any) into it.
  void StoreOsrFrame(const PeValue* return_value);
  void LoadOsrFrame();
  struct Loop {
    Merge* header;
    Merge* exit;
  };
  std::vector<Loop> loops_;
  // The callers' frames while an inlined callee is evaluated, outermost
  // first (empty: the root's frame is current; in an OSR compilation, the
  // OSR frame is callers_.front() while a callee is evaluated).
  struct SavedFrame {
    FrameInfo frame;
    std::vector<PeValue> locals;
    std::vector<PathEntry> path;
    std::vector<Loop> loops;
  };
  std::vector<SavedFrame> callers_;
  std::string bailout_;
};

}  // namespace morel::pe

#endif  // MOREL_ENGINE_PE_PARTIAL_EVALUATOR_H_
