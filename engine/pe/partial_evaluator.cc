#include "engine/pe/partial_evaluator.h"

#include <atomic>
#include <climits>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "engine/ir/alias_class.h"
#include "engine/ir/verifier.h"
#include "engine/pe/pe_context.h"
#include "engine/pe/runtime_call.h"
#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"
#include "osr/bytecode_osr_root_node.h"
#include "osr/osr_root_node.h"

namespace morel::pe {

namespace {

// --engine.DeoptEveryN: false on every N-th call, process-wide.
std::atomic<int64_t> stress_counter{0};
std::atomic<int> stress_period{0};
bool StressGuardPasses() {
  int period = stress_period.load(std::memory_order_relaxed);
  return period <= 0 || (stress_counter.fetch_add(1, std::memory_order_relaxed) + 1) % period != 0;
}

// First-tier code's cold path (Options::profile_for_next_tier).
void RequestLastTier(CallTarget* target) { target->runtime()->OnLastTierThreshold(*target); }

// The profile words of call targets (CallTarget::*_address()): only the
// profiling code below accesses them.
const ir::AliasClass* ProfileWords() {
  static const ir::AliasClass* alias = ir::AliasClass::Get("CallTarget profile");
  return alias;
}

}  // namespace

PartialEvaluator::PartialEvaluator(CallTarget& target, ir::RuntimeRegistry& runtime,
                                   Options options)
    : target_(target),
      runtime_(runtime),
      options_(options),
      function_(std::make_unique<ir::Function>(
          target.name(), std::vector<ir::Type>{ir::Type::kPtr, ir::Type::kI64},
          std::vector<ir::Type>{ir::Type::kI64, ir::Type::kI64})),
      builder_(function_.get()),
      context_(std::make_unique<PeContext>(*this)),
      dependencies_(std::make_unique<CodeDependencies>()) {}

PartialEvaluator::~PartialEvaluator() = default;

absl::StatusOr<std::unique_ptr<Compilation>> PartialEvaluator::Run() {
  RootNode* root = target_.root_node();
  ir::Block* entry = builder_.CreateEntryBlock();
  builder_.SetInsertionPoint(entry);
  args_pointer_ = entry->params()[0];
  args_count_ = entry->params()[1];
  ir::Value* zero = builder_.I64(0);
  ir::Value* illegal = builder_.I64(kIllegalTag);
  locals_.assign(root->frame_descriptor().size(), PeValue{zero, illegal});

  // The exit block returns its two parameters.
  ir::Block* exit = builder_.CreateBlock();
  ir::Value* payload = builder_.AddBlockParam(exit, ir::Type::kI64);
  ir::Value* tag = builder_.AddBlockParam(exit, ir::Type::kI64);
  builder_.SetInsertionPoint(exit);
  builder_.Return({payload, tag});
  builder_.SetInsertionPoint(entry);
  exit_ = exit;
  frame_.target = &target_;
  frame_.return_block = exit;
  if (options_.profile_for_next_tier) EmitProfilingPrologue();

  absl::Status status = EvaluateRoot(*root);
  if (!status.ok()) return status;
  if (failed()) return absl::UnimplementedError(bailout_);
  if (!Terminated()) builder_.Unreachable();
  if (absl::Status verified = ir::Verify(*function_); !verified.ok()) {
    return absl::InternalError(absl::StrCat("partial evaluation of ", target_.name(),
                                            " produced invalid IR: ", verified.message()));
  }
  auto compilation = std::make_unique<Compilation>();
  compilation->target = &target_;
  compilation->function = std::move(function_);
  compilation->resume_templates = std::move(templates_);
  compilation->dependencies = std::move(dependencies_);
  compilation->inlined_trees = std::move(inlined_trees_);
  compilation->ir_nodes_after_pe = compilation->function->InstructionCount();
  compilation->tier = options_.tier;
  return compilation;
}

ir::Value* PartialEvaluator::IncrementProfileCounter(const void* address) {
  ir::Value* word = builder_.PConst(reinterpret_cast<uint64_t>(address));
  ir::Value* count = builder_.Load(ir::Type::kI64, word, 0, ProfileWords());
  ir::Value* below_max = builder_.ICmp(ir::Cond::kSlt, count, builder_.I64(INT_MAX));
  ir::Value* next = builder_.Binary(ir::Opcode::kIadd, count,
                                    builder_.Convert(ir::Opcode::kZext, ir::Type::kI64, below_max));
  builder_.Store(next, word, 0, ProfileWords());
  return next;
}

void PartialEvaluator::EmitProfilingPrologue() {
  // callCount and callAndLoopCount after this call, as Truffle's
  // firstTierCall compares them.
  ir::Value* calls = IncrementProfileCounter(target_.call_count_address());
  ir::Value* calls_and_loops = IncrementProfileCounter(target_.call_and_loop_count_address());
  ir::Value* threshold_word =
      builder_.PConst(reinterpret_cast<uint64_t>(target_.compilation_threshold_address()));
  ir::Value* threshold = builder_.Load(ir::Type::kI64, threshold_word, 0, ProfileWords());
  ir::Value* reached = builder_.Binary(
      ir::Opcode::kAnd,
      builder_.ICmp(ir::Cond::kSge, calls, builder_.I64(options_.last_tier_call_threshold)),
      builder_.ICmp(ir::Cond::kSge, calls_and_loops, threshold));
  ir::Block* request = builder_.CreateBlock();
  ir::Block* body = builder_.CreateBlock();
  builder_.Br(reached, request, {}, body, {});
  builder_.SetInsertionPoint(request);
  builder_.CallRuntime(RuntimeCall<&RequestLastTier>(runtime_, ir::RuntimeEffects::kNoDeopt,
                                                     "morel::pe::RequestLastTier"),
                       {builder_.PConst(reinterpret_cast<uint64_t>(&target_))});
  builder_.Jump(body);
  builder_.SetInsertionPoint(body);
}

void PartialEvaluator::ProfileBackEdge() {
  if (!options_.profile_for_next_tier || !options_.profile_back_edges || osr_) return;
  IncrementProfileCounter(target_.call_and_loop_count_address());
}

void PartialEvaluator::BackEdge() {
  builder_.Safepoint(EagerFrameState());
  ProfileBackEdge();
}

PeValue PartialEvaluator::Constant(Value value) {
  return PeValue{builder_.I64(static_cast<int64_t>(value.bits)),
                 builder_.I64(static_cast<int64_t>(value.tag))};
}

PeValue PartialEvaluator::Argument(int index, Value missing) {
  if (!callers_.empty()) {
    // The call's operands: a missing argument folds to `missing`.
    return static_cast<size_t>(index) < frame_.arguments.size() ? frame_.arguments[index]
                                                                : Constant(missing);
  }
  // index < count ? args[index] : missing
  ir::Value* present = builder_.ICmp(ir::Cond::kSgt, args_count_, builder_.I64(index));
  ir::Block* load = builder_.CreateBlock();
  Merge merge = NewMerge(2);
  PeValue fallback = Constant(missing);
  builder_.Br(present, load, {}, merge.block, MergeArguments({fallback.payload, fallback.tag}));
  builder_.SetInsertionPoint(load);
  int32_t offset = static_cast<int32_t>(index * sizeof(Value));
  ir::Value* loaded_payload = builder_.Load(ir::Type::kI64, args_pointer_, offset);
  ir::Value* loaded_tag = builder_.Load(ir::Type::kI64, args_pointer_, offset + 8);
  JumpTo(merge, {loaded_payload, loaded_tag});
  std::vector<ir::Value*> extra = Continue(merge);
  return PeValue{extra[0], extra[1]};
}

bool PartialEvaluator::HasConstantTag(const PeValue& value, ValueTag tag) {
  ir::Instruction* definition = value.tag->instruction();
  return definition != nullptr && definition->opcode() == ir::Opcode::kIconst &&
         static_cast<ValueTag>(definition->imm()) == tag;
}

PeValue PartialEvaluator::AssignedLocal(int slot) {
  PeValue value = Local(slot);
  if (HasConstantTag(value, kIllegalTag)) {
    Deopt("uninitialized local");
    return context().Unreachable();
  }
  if (!HasKnownTag(value)) {
    PeContext& c = context();
    c.Speculate(c.Not(c.HasTag(value, kIllegalTag)), "uninitialized local");
  }
  return value;
}

bool PartialEvaluator::HasKnownTag(const PeValue& value) {
  ir::Instruction* definition = value.tag->instruction();
  return definition != nullptr && definition->opcode() == ir::Opcode::kIconst;
}

void PartialEvaluator::Enter(Node* node) { path_.push_back(PathEntry{node, {}, {}}); }

void PartialEvaluator::SetResumePosition(int next_child, absl::Span<const PeValue> done_values) {
  PathEntry& entry = path_.back();
  entry.next_child = next_child;
  entry.done.assign(done_values.size(), ResumeTemplate::Done{true, 0, 0});
  entry.done_values.assign(done_values.begin(), done_values.end());
}

void PartialEvaluator::DoneValue(PeValue value) {
  PathEntry& entry = path_.back();
  entry.done.push_back(ResumeTemplate::Done{true, 0, 0});
  entry.done_values.push_back(value);
}

void PartialEvaluator::DoneStatus(int status) {
  path_.back().done.push_back(ResumeTemplate::Done{false, 0, status});
}

void PartialEvaluator::UndoDone() {
  PathEntry& entry = path_.back();
  if (entry.done.back().is_value) entry.done_values.pop_back();
  entry.done.pop_back();
}

void PartialEvaluator::Leave() { path_.pop_back(); }

ir::FrameState* PartialEvaluator::EagerFrameState() {
  return FrameStateOfKind(ir::DeoptKind::kEager);
}

ir::FrameState* PartialEvaluator::LazyFrameState() {
  if (on_osr_frame()) return nullptr;
  return FrameStateOfKind(ir::DeoptKind::kLazy, /*awaiting_inner_result=*/false,
                          /*for_stack_walk=*/true);
}

ir::FrameState* PartialEvaluator::FrameStateOfKind(ir::DeoptKind kind, bool awaiting_inner_result,
                                                   bool for_stack_walk) {
  ResumeTemplate resume;
  std::vector<ir::ValuePair> stack;
  for (size_t i = 0; i < path_.size(); ++i) {
    const PathEntry& entry = path_[i];
    ResumeTemplate::Entry out{
        entry.node,
        entry.next_child >= 0 ? entry.next_child : static_cast<int>(entry.done.size()),
        {}};
    size_t value_index = 0;
    for (ResumeTemplate::Done done : entry.done) {
      if (done.is_value) {
        done.stack_index = static_cast<int>(stack.size());
        const PeValue& v = entry.done_values[value_index++];
        stack.push_back(ir::ValuePair{v.payload, v.tag});
      }
      out.done.push_back(done);
    }
    resume.path.push_back(std::move(out));
  }
  if (awaiting_inner_result) {
    MOREL_CHECK(!resume.path.empty());
    ResumeTemplate::Entry& call = resume.path.back();
    call.done.push_back(ResumeTemplate::Done{true, ResumeTemplate::kInnerFrameResult, 0});
    call.next_child = static_cast<int>(call.done.size());
  }
  std::vector<ir::ValuePair> locals;
  for (const PeValue& local : locals_) locals.push_back(ir::ValuePair{local.payload, local.tag});
  int64_t resume_point = static_cast<int64_t>(templates_.size());
  templates_.push_back(std::move(resume));
  return builder_.CreateFrameState(kind, frame_.target->id(), resume_point, std::move(locals),
                                   std::move(stack),
                                   for_stack_walk ? frame_.walk_caller_state : frame_.caller_state);
}

std::vector<ir::Value*> PartialEvaluator::MergeArguments(
    const std::vector<ir::Value*>& extra) const {
  std::vector<ir::Value*> values;
  for (const PeValue& local : locals_) {
    values.push_back(local.payload);
    values.push_back(local.tag);
  }
  values.insert(values.end(), extra.begin(), extra.end());
  return values;
}

PartialEvaluator::Merge PartialEvaluator::NewMerge(int extra_values) {
  Merge merge;
  merge.block = builder_.CreateBlock();
  for (size_t i = 0; i < locals_.size() * 2 + extra_values; ++i) {
    builder_.AddBlockParam(merge.block, ir::Type::kI64);
  }
  return merge;
}

void PartialEvaluator::JumpTo(Merge& merge, const std::vector<ir::Value*>& extra) {
  builder_.Jump(merge.block, MergeArguments(extra));
}

std::vector<ir::Value*> PartialEvaluator::Continue(Merge& merge) {
  builder_.SetInsertionPoint(merge.block);
  const std::vector<ir::Value*>& params = merge.block->params();
  for (size_t i = 0; i < locals_.size(); ++i) {
    locals_[i] = PeValue{params[2 * i], params[2 * i + 1]};
  }
  return std::vector<ir::Value*>(params.begin() + 2 * locals_.size(), params.end());
}

void PartialEvaluator::ContinueInDeadBlock() { builder_.SetInsertionPoint(builder_.CreateBlock()); }

void PartialEvaluator::Return(PeValue value) {
  MOREL_CHECK_MSG(!on_osr_frame() || osr_to_end_,
                  "Return(value) in a loop's OSR compilation: use Return(value, status)");
  builder_.Jump(frame_.return_block, {value.payload, value.tag});
  ContinueInDeadBlock();
}

void PartialEvaluator::Return(PeValue value, int status) {
  if (!on_osr_frame()) return Return(value);
  StoreOsrFrame(&value);
  builder_.Jump(exit_, {builder_.I64(status), builder_.I64(kLongTag)});
  ContinueInDeadBlock();
}

absl::Status PartialEvaluator::EvaluateRoot(RootNode& root) {
  if (auto* osr_root = dynamic_cast<osr::OsrRootNode*>(&root)) {
    return EvaluateOsrLoop(*osr_root->loop(), osr_root->entry_tags().Get());
  }
  if (auto* bytecode_osr = dynamic_cast<osr::BytecodeOsrRootNode*>(&root)) {
    // The partial evaluator explodes nodes/bytecode interpreters; another
    // BytecodeOSRNode's OSR code cannot be compiled (the policy then turns
    // OSR off for its method).
    auto* interpreter = dynamic_cast<bytecode::BytecodeRootNode*>(
        &bytecode_osr->osr_node()->AsNode());
    if (interpreter == nullptr) {
      return absl::UnimplementedError(absl::StrCat(
          "bytecode OSR of ", bytecode_osr->osr_node()->AsNode().kind_name(),
          ": only nodes/bytecode interpreters can be compiled"));
    }
    const int bci = bytecode_osr->entry_bci();
    if (bci >= static_cast<int>(interpreter->code().size()) || interpreter->stack_height(bci) < 0 ||
        interpreter->stack_height(bci) != bytecode_osr->interpreter_state()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bytecode OSR entry ", bci, " of ", interpreter->name(),
          " is no reachable instruction with the interpreter state's stack height"));
    }
    return EvaluateBytecode(*interpreter, bci, bytecode_osr->entry_tags().Get());
  }
  if (auto* bytecode_root = dynamic_cast<bytecode::BytecodeRootNode*>(&root)) {
    return EvaluateBytecode(*bytecode_root);
  }
  return root.PartialEvaluate(*this);
}

absl::Status PartialEvaluator::EvaluateOsrLoop(LoopNode& loop,
                                               absl::Span<const ValueTag> entry_tags) {
  EnterOsr();
  Enter(&loop);
  // A deoptimization here resumes the loop from its start.
  SpeculateOsrEntryTags(entry_tags);
  int status = loop.repeating_node()->PartialEvaluateLoop(*this);
  if (status < 0) {
    return absl::UnimplementedError(
        absl::StrCat("loops of ", loop.repeating_node()->kind_name(), " cannot be compiled"));
  }
  Leave();
  if (!Terminated()) ExitOsr(status);
  return absl::OkStatus();
}

void PartialEvaluator::EnterOsr() {
  osr_ = true;
  osr_frame_ = args_pointer_;
  LoadOsrFrame();
}

std::vector<PeValue> PartialEvaluator::EnterBytecodeOsr(int stack_base, int stack_height) {
  static_assert(sizeof(Value) == 16 && offsetof(Value, bits) == 0 && offsetof(Value, tag) == 8);
  MOREL_CHECK_MSG(callers_.empty(), "bytecode OSR of an inlined callee");
  osr_ = true;
  osr_to_end_ = true;
  auto payload = [&](BytecodeOsrArgument index, ir::Type type) {
    return builder_.Load(type, args_pointer_, static_cast<int32_t>(index * sizeof(Value)));
  };
  osr_frame_ = payload(kOsrFrameStorage, ir::Type::kPtr);
  ir::Value* arguments = payload(kOsrArguments, ir::Type::kPtr);
  args_count_ = payload(kOsrArgumentCount, ir::Type::kI64);
  args_pointer_ = arguments;  // Argument() reads the activation's arguments
  LoadOsrFrame();
  std::vector<PeValue> stack;
  for (int i = 0; i < stack_height; ++i) {
    int32_t offset = static_cast<int32_t>((stack_base + i) * sizeof(Value));
    stack.push_back(PeValue{builder_.Load(ir::Type::kI64, osr_frame_, offset),
                            builder_.Load(ir::Type::kI64, osr_frame_, offset + 8)});
  }
  return stack;
}

void PartialEvaluator::SpeculateOsrEntryTags(absl::Span<const ValueTag> tags) {
  for (size_t slot = 0; slot < locals_.size() && slot < tags.size(); ++slot) {
    if (tags[slot] == kIllegalTag) continue;
    ir::Value* tag = builder_.I64(static_cast<int64_t>(tags[slot]));
    Speculate(builder_.ICmp(ir::Cond::kEq, locals_[slot].tag, tag), "OSR entry tag");
    locals_[slot].tag = tag;
  }
}

void PartialEvaluator::LoadOsrFrame() {
  for (size_t slot = 0; slot < locals_.size(); ++slot) {
    int32_t offset = static_cast<int32_t>(slot * sizeof(Value));
    locals_[slot] = PeValue{builder_.Load(ir::Type::kI64, osr_frame_, offset),
                            builder_.Load(ir::Type::kI64, osr_frame_, offset + 8)};
  }
}

void PartialEvaluator::StoreOsrFrame(const PeValue* return_value) {
  const std::vector<PeValue>& locals = callers_.empty() ? locals_ : callers_.front().locals;
  for (size_t slot = 0; slot <= locals.size(); ++slot) {
    const PeValue* value = slot < locals.size() ? &locals[slot] : return_value;
    if (value == nullptr) break;
    int32_t offset = static_cast<int32_t>(slot * sizeof(Value));
    builder_.Store(value->payload, osr_frame_, offset);
    builder_.Store(value->tag, osr_frame_, offset + 8);
  }
}

void PartialEvaluator::BeforeCall() {
  if (osr_) StoreOsrFrame(nullptr);
}

void PartialEvaluator::AfterCall(bool callee_may_write_frame) {
  if (on_osr_frame() && callee_may_write_frame) LoadOsrFrame();
}

void PartialEvaluator::ExitOsr(int status) {
  MOREL_CHECK(on_osr_frame());
  StoreOsrFrame(nullptr);
  builder_.Jump(exit_, {builder_.I64(status), builder_.I64(kLongTag)});
  ContinueInDeadBlock();
}

PeValue PartialEvaluator::PropagatePendingException(PeValue result) {
  ir::Value* pending = builder_.ICmp(ir::Cond::kEq, result.tag,
                                     builder_.I64(static_cast<int64_t>(kPendingExceptionTag)));
  ir::Block* leave = builder_.CreateBlock();
  ir::Block* go_on = builder_.CreateBlock();
  builder_.Br(pending, leave, {}, go_on, {});
  builder_.SetInsertionPoint(leave);
  builder_.Jump(exit_, {result.payload, result.tag});
  builder_.SetInsertionPoint(go_on);
  return result;
}

PeValue PartialEvaluator::CheckValidAfterCall(PeValue result) {
  // The cell is a plain i64 at a constant address; `load` is effectful
  // (engine/ir/opcodes.def), so no pass merges it with an earlier read or
  // moves it across the call. Under DeoptEveryN the check is a stress
  // guard like any other, which exercises the resume-after-call point.
  DoneValue(result);
  ir::Value* cell = builder_.PConst(reinterpret_cast<uint64_t>(dependencies_->validity_address()));
  ir::Value* valid =
      builder_.ICmp(ir::Cond::kNe, builder_.Load(ir::Type::kI64, cell, 0), builder_.I64(0));
  Speculate(valid, "invalidated");
  UndoDone();
  return result;
}

void PartialEvaluator::Speculate(ir::Value* condition, std::string reason, ir::DeoptAction action) {
  if (options_.deopt_every_n > 0) {
    stress_period.store(options_.deopt_every_n, std::memory_order_relaxed);
    ir::Value* passes = context_->Call<&StressGuardPasses>();
    condition = builder_.Binary(ir::Opcode::kAnd, condition, passes);
  }
  builder_.Guard(condition, EagerFrameState(), std::move(reason), action);
}

void PartialEvaluator::Deopt(std::string reason, ir::DeoptAction action) {
  builder_.Deopt(EagerFrameState(), std::move(reason), action);
  ContinueInDeadBlock();
}

std::optional<PeValue> PartialEvaluator::TryInline(DirectCallNode* call, CallTarget* callee,
                                                   absl::Span<const PeValue> arguments) {
  // OSR compilations inline too: the OSR frame's states are the parents of
  // the callee's (a deoptimization resumes the callee, then the OSR frame),
  // while its calls' lazy states, for stack walks, end before the OSR frame
  // (LazyFrameState).
  if (options_.inlining == nullptr) return std::nullopt;
  const void* callee_frame = options_.inlining->InlineInto(frame_.handle, call, callee);
  if (callee_frame == nullptr) return std::nullopt;
  RootNode* callee_root = callee->root_node();
  // A rewrite of the callee's tree after this point invalidates the code:
  // through its rewriting assumption once installed, through the rewrite
  // count until then (read under the tree's lock, like the root's).
  if (options_.rewriting_assumption) {
    if (Assumption* rewriting = options_.rewriting_assumption(*callee)) Assume(rewriting);
  }
  // Only try: the root's tree is locked already, and another compiler
  // thread may hold this callee's while it waits for ours (each compilation
  // locks its own root first). A busy callee stays a call. (The interpreter
  // never holds two tree locks, so trying is enough to rule out a cycle.)
  std::unique_lock<std::recursive_mutex> tree_lock(callee_root->lock(), std::try_to_lock);
  if (!tree_lock.owns_lock()) {
    options_.inlining->OnInlineBailout(callee_frame, "the callee's tree is being compiled");
    return std::nullopt;
  }
  inlined_trees_.push_back(Compilation::InlinedTree{callee_root, callee_root->rewrite_count()});

  // The caller's state while the callee runs: after the call, waiting for
  // the callee frame's result (a deoptimization inside the callee resumes
  // the callee's activation, then the caller's with its result).
  ir::FrameState* caller_state = FrameStateOfKind(ir::DeoptKind::kLazy,
                                                  /*awaiting_inner_result=*/true);
  ir::FrameState* walk_caller_state =
      !osr_            ? caller_state
      : on_osr_frame() ? nullptr
                       : FrameStateOfKind(ir::DeoptKind::kLazy, /*awaiting_inner_result=*/true,
                                          /*for_stack_walk=*/true);
  const size_t first_callee_block = function_->blocks().size();
  ir::Block* return_block = builder_.CreateBlock();
  ir::Value* payload = builder_.AddBlockParam(return_block, ir::Type::kI64);
  ir::Value* tag = builder_.AddBlockParam(return_block, ir::Type::kI64);

  // The IR emitted so far stays if the callee bails out: its blocks become
  // unreachable from a call emitted instead (the callee's entry is a fresh
  // block the current one jumps to only on success).
  ir::Block* before = builder_.insertion_block();
  ir::Block* callee_entry = builder_.CreateBlock();
  builder_.SetInsertionPoint(callee_entry);

  callers_.push_back(
      SavedFrame{std::move(frame_), std::move(locals_), std::move(path_), std::move(loops_)});
  frame_ = FrameInfo{.target = callee,
                     .handle = callee_frame,
                     .return_block = return_block,
                     .caller_state = caller_state,
                     .walk_caller_state = walk_caller_state,
                     .arguments = std::vector<PeValue>(arguments.begin(), arguments.end())};
  PeValue unassigned = Constant(Value::Illegal());
  locals_.assign(callee_root->frame_descriptor().size(), unassigned);
  path_.clear();
  loops_.clear();
  std::string previous_bailout = std::move(bailout_);
  bailout_.clear();

  absl::Status status = EvaluateRoot(*callee_root);
  if (status.ok() && !failed() && !Terminated()) builder_.Unreachable();
  std::string reason = !status.ok() ? std::string(status.message()) : bailout_;

  SavedFrame& saved = callers_.back();
  frame_ = std::move(saved.frame);
  locals_ = std::move(saved.locals);
  path_ = std::move(saved.path);
  loops_ = std::move(saved.loops);
  callers_.pop_back();
  bailout_ = std::move(previous_bailout);

  if (!reason.empty()) {
    // The callee's blocks are unreachable (DCE removes them) but must be
    // well formed for the verifier: every one left open (where the callee
    // stopped, its return block, merges it never finished) ends in
    // `unreachable`. The call stays a call.
    for (size_t i = first_callee_block; i < function_->blocks().size(); ++i) {
      ir::Block* block = function_->blocks()[i];
      if (block->terminator() == nullptr) {
        builder_.SetInsertionPoint(block);
        builder_.Unreachable();
      }
    }
    builder_.SetInsertionPoint(before);
    options_.inlining->OnInlineBailout(callee_frame, reason);
    return std::nullopt;
  }
  builder_.SetInsertionPoint(before);
  builder_.Jump(callee_entry);
  builder_.SetInsertionPoint(return_block);
  if (std::optional<PeValue> result = SingleResult(callee_entry, return_block)) return *result;
  return PeValue{payload, tag};
}

std::optional<PeValue> PartialEvaluator::SingleResult(ir::Block* callee_entry,
                                                      ir::Block* return_block) {
  // The jumps to the return block from the callee's reachable blocks (its
  // blocks are all new; code after a `return` is in blocks nothing reaches).
  std::vector<const std::vector<ir::Value*>*> results;
  std::vector<ir::Block*> work = {callee_entry};
  absl::flat_hash_set<ir::Block*> seen = {callee_entry};
  while (!work.empty()) {
    ir::Block* block = work.back();
    work.pop_back();
    const ir::Instruction* terminator = block->terminator();
    if (terminator == nullptr) return std::nullopt;
    for (const ir::BlockCall& target : terminator->targets()) {
      if (target.block == return_block) {
        results.push_back(&target.args);
      } else if (seen.insert(target.block).second) {
        work.push_back(target.block);
      }
    }
  }
  if (results.empty()) return std::nullopt;
  ir::Value* words[2];  // payload and tag, both i64
  for (int i = 0; i < 2; ++i) {
    ir::Value* first = (*results[0])[i];
    const std::optional<int64_t> constant = PeContext::ConstantI64(first);
    for (const std::vector<ir::Value*>* args : results) {
      ir::Value* value = (*args)[i];
      if (value != first && (!constant || PeContext::ConstantI64(value) != constant)) {
        return std::nullopt;
      }
    }
    // A constant again where it is used (each return made its own); any
    // other value is one definition that dominates every return.
    words[i] = !constant || results.size() == 1 ? first : builder_.I64(*constant);
  }
  return PeValue{words[0], words[1]};
}

void PartialEvaluator::NoteIndirectCall() {
  if (options_.inlining != nullptr) options_.inlining->OnIndirectCall(frame_.handle);
}

void PartialEvaluator::Bailout(std::string reason) {
  if (bailout_.empty()) bailout_ = std::move(reason);
}

}  // namespace morel::pe
