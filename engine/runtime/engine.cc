#include "engine/runtime/engine.h"

#include <pthread.h>

#include <algorithm>
#include <fstream>
#include <filesystem>
#include <atomic>
#include <climits>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/match.h"
#include "absl/strings/ascii.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/container/flat_hash_map.h"
#include "engine/opt/pass_registry.h"
#include "engine/opt/pipeline_config.h"
#include "engine/opt/pipeline_options.h"
#include "engine/runtime/compiler.h"
#include "engine/runtime/compiled_frames.h"
#include "engine/pe/runtime_call.h"
#include "engine/codegen/backend_registry.h"
#include "engine/runtime/native_tier.h"
#include "engine/runtime/osr.h"
#include "engine/runtime/splitting_config.h"

#include "nodes/assumption.h"
#include "nodes/frame.h"
#include "nodes/heap.h"
#include "nodes/loop_node.h"
#include "nodes/node.h"

namespace morel::runtime {
namespace {
std::mutex& ProcessTargetsLock();
// The backend's name for NativeTier::Get. The default, 'host', without
// Backend_Name: that builds the descriptors of engine_config.proto (and of
// descriptor.proto, for its custom options), a millisecond of start-up.
std::string NativeBackendName(config::EngineConfig::Backend backend) {
  if (backend == config::EngineConfig::host) return "host";
  return config::EngineConfig::Backend_Name(backend);
}
absl::flat_hash_map<int64_t, CallTarget*>& ProcessTargets();
const pe::Compilation* CompilationOf(InstalledCode* code);
}  // namespace
}  // namespace morel::runtime

namespace morel::runtime {

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(
    config::EngineConfig config) {
  absl::StatusOr<std::unique_ptr<EngineLog>> log = EngineLog::Open(config.log());
  if (!log.ok()) return log.status();
  if (!config.backend_plugin().empty()) {
    // The plugin registers its backend; --engine.Backend then selects it.
    if (absl::Status loaded = codegen::LoadBackendPlugin(config.backend_plugin());
        !loaded.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option engine.BackendPlugin: ", loaded.message()));
    }
  }
  // A backend for another architecture could only generate code this
  // machine cannot run: an error now, not a silent interpreter.
  if (config.backend() == config::EngineConfig::x86_64 ||
      config.backend() == config::EngineConfig::aarch64) {
    const std::string& requested = config::EngineConfig::Backend_Name(config.backend());
    if (std::string host = HostArchitecture(); requested != host) {
      return absl::InvalidArgumentError(absl::StrCat(
          "option engine.Backend: '", requested, "' generates code that this ", host,
          " host cannot run (use 'host', which is '", host,
          "' here, 'ir_interpreter' or 'none')"));
    }
  }
  // Pass names (DumpIR, DisablePasses) are checked against the pass
  // registry now, not at the first compilation; every compilation uses
  // these options (pipeline_options()).
  const opt::PassRegistry& registry = opt::PassRegistry::Standard();
  absl::StatusOr<opt::PipelineOptions> pipeline =
      opt::PipelineOptionsFromConfig(config, registry);
  if (!pipeline.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("option engine.", pipeline.status().message(),
                                                   "; passes: ",
                                                   absl::StrJoin(registry.names(), ", ")));
  }
  for (bool first_tier : {false, true}) {
    const std::string& name =
        first_tier ? config.first_tier_inlining_policy() : config.inlining_policy();
    if (absl::StatusOr<std::unique_ptr<inliner::InliningPolicy>> policy =
            inliner::CreatePolicy(name, first_tier, inliner::InliningOptions());
        !policy.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option engine.", first_tier ? "FirstTierInliningPolicy" : "InliningPolicy",
                       ": ", policy.status().message()));
    }
  }
  heap::Initialize();
  // Compiled code's guest runtime calls go through an entry that keeps
  // their compiled callers visible to stack walks (compiled_frames.h): the
  // native backend's, which creating its tier sets (Compile does, before
  // its partial evaluation registers any guest runtime call), or else one
  // that captures nothing (the IR tier lists its activations itself). The
  // tier is not created here: LLVM's target and the deopt entry cost a
  // process that never compiles about 3 ms at start-up.
  pe::SetGuestCallEntryIfUnset(GuestCallEntryWithoutCapture());
  std::unique_ptr<Engine> engine(
      new Engine(std::move(config), *std::move(pipeline), *std::move(log)));
  absl::StatusOr<std::unique_ptr<ResourceLimits>> limits =
      ResourceLimits::Create(engine->config_, *engine);
  if (!limits.ok()) return limits.status();
  engine->limits_ = *std::move(limits);
  engine->set_max_stack_frames(engine->config_.max_stack_frames());
  return engine;
}

void Engine::OnSafepoint() {
  if (std::string cancelled = limits_->cancellation(); !cancelled.empty()) {
    throw ResourceLimitError(cancelled);
  }
  NodeRuntime::OnSafepoint();
}

void Engine::OnStackFramesExceeded(const CallTarget& target) {
  limits_->Raise(absl::StrCat("Maximum frame limit of ", max_stack_frames(),
                              " exceeded (calling ", target.name(), ")."));
}

Engine::Engine(config::EngineConfig config, opt::PipelineOptions pipeline_options,
               std::unique_ptr<EngineLog> log)
    : config_(std::move(config)),
      tiers_(TierPolicyOf(config_)),
      pipeline_options_(std::move(pipeline_options)),
      log_(std::move(log)) {
  for (absl::string_view item : absl::StrSplit(config_.compile_only(), ',', absl::SkipWhitespace())) {
    item = absl::StripAsciiWhitespace(item);
    if (absl::ConsumePrefix(&item, "~")) {
      compile_only_exclude_.emplace_back(item);
    } else {
      compile_only_include_.emplace_back(item);
    }
  }
  if (config_.background_compilation() &&
      (config_.compilation_failure_action() == config::EngineConfig::Throw ||
       config_.compilation_failure_action() == config::EngineConfig::Diagnose)) {
    log_->Log(absl::StrCat(
        "WARNING: engine.CompilationFailureAction=",
        config::EngineConfig::CompilationFailureAction_Name(config_.compilation_failure_action()),
        " needs engine.BackgroundCompilation=false; compilation failures are printed instead."));
  }
  splitting_ = std::make_unique<splitting::SplittingStrategy>(
      SplittingOptionsFromConfig(config_), log_.get(),
      [this](std::unique_ptr<RootNode> root, CallTarget* source) {
        auto target = std::make_unique<CallTarget>(std::move(root), this, source);
        CallTarget* raw = target.get();
        std::lock_guard<std::mutex> guard(lock_);
        ConfigureCompilation(*target);
        // A split copy of a retired target is retired with it.
        if (IsRetiredLocked(*target)) target->set_compilation_threshold(INT_MAX);
        call_targets_.push_back(std::move(target));
        return raw;
      });
  osr_host_ = std::make_unique<OsrHostImpl>(this);
  // One set of OSR options for AST loops and bytecode methods alike.
  const osr::OsrOptions osr_options = OsrOptionsFromConfig(config_);
  osr_policy_ = std::make_unique<osr::OsrPolicy>(osr_options, osr_host_.get(), log_.get());
  bytecode_osr_policy_ =
      std::make_unique<osr::BytecodeOsrPolicy>(osr_options, osr_host_.get(), log_.get());
}

void Engine::Close() {
  if (limits_ != nullptr) limits_->Stop();
  std::unique_ptr<CompileQueue> queue;
  bool was_open;
  {
    std::lock_guard<std::mutex> guard(lock_);
    was_open = !closed_;
    closed_ = true;
    queue = std::move(queue_);
  }
  // Joins the compiler threads: nothing compiles once the targets die.
  if (queue != nullptr) queue->Shutdown();
  splitting_->Close();
  if (was_open && !config_.compilation_statistics_file().empty()) {
    WriteCompilationStatistics();
  }
  if (was_open && config_.print_heap_statistics()) {
    log_->Log(absl::StrCat("heap ", heap::FormatStatistics(heap::GetStatistics())));
  }
}

CompilationStatistics Engine::compilation_statistics() const {
  CompilationStatistics statistics;
  statistics.successful = statistics_.successful.load();
  statistics.failed = statistics_.failed.load();
  statistics.recompilation_limits = statistics_.recompilation_limits.load();
  statistics.deopts = statistics_.deopts.load();
  statistics.invalidations = statistics_.invalidations.load();
  std::lock_guard<std::mutex> guard(lock_);
  statistics.executed_targets = freed_executed_targets_;
  statistics.due_targets = freed_due_targets_;
  for (const auto& target : call_targets_) {
    CountExecution(*target, &statistics.executed_targets, &statistics.due_targets);
  }
  return statistics;
}

void Engine::WriteCompilationStatistics() {
  // One `name value` line each; background_compilation and deopt_every_n
  // are the conditions the runners judge the counts under.
  CompilationStatistics statistics = compilation_statistics();
  std::string text = absl::StrCat(
      "successful ", statistics.successful, "\nfailed ", statistics.failed,
      "\nrecompilation_limits ", statistics.recompilation_limits, "\ndeopts ", statistics.deopts,
      "\ninvalidations ", statistics.invalidations, "\nexecuted_targets ",
      statistics.executed_targets, "\ndue_targets ", statistics.due_targets,
      "\nbackground_compilation ", config_.background_compilation() ? 1 : 0,
      "\ndeopt_every_n ", config_.deopt_every_n(), "\n");
  std::ofstream out(config_.compilation_statistics_file(), std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    log_->Log(absl::StrCat("Cannot write the compilation statistics to '",
                           config_.compilation_statistics_file(), "'"));
  }
}

Engine::~Engine() {
  {
    std::lock_guard<std::mutex> guard(ProcessTargetsLock());
    for (const auto& target : call_targets_) ProcessTargets().erase(target->id());
  }
  Close();
  // Call targets reference each other through call nodes; destroy them
  // while every target is still alive, newest first.
  std::lock_guard<std::mutex> guard(lock_);
  while (!call_targets_.empty()) call_targets_.pop_back();
}

namespace {

// Erases from `regions` (start -> (end, index)) every region that a word of
// [from, top) points into. Reads whole frames of callers, redzones
// included, hence not instrumented by AddressSanitizer.
__attribute__((no_sanitize("address"))) void ScanStackForCode(
    const uintptr_t* from, uintptr_t top,
    std::map<uintptr_t, std::pair<uintptr_t, size_t>>& regions) {
  for (const uintptr_t* word = from; reinterpret_cast<uintptr_t>(word) < top && !regions.empty();
       ++word) {
    const uintptr_t value = *word;
    auto it = regions.upper_bound(value);
    if (it == regions.begin()) continue;
    --it;
    if (value < it->second.first) regions.erase(it);  // an activation may run it
  }
}

}  // namespace

void Engine::NoteNewThreadRunningCode(std::thread::id self) {
  std::thread::id none;
  if (code_thread_.compare_exchange_strong(none, self, std::memory_order_relaxed)) return;
  if (none != self) code_on_several_threads_.store(true, std::memory_order_relaxed);
}

size_t Engine::live_code_objects() const {
  std::lock_guard<std::mutex> guard(lock_);
  return code_.size();
}

void Engine::MaybeReclaimDroppedCode() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (code_.size() < next_reclaim_size_) return;
  }
  ReclaimDroppedCode();
}

int Engine::ReclaimDroppedCode() {
  if (code_on_several_threads_.load(std::memory_order_relaxed)) return 0;
  const std::thread::id runner = code_thread_.load(std::memory_order_relaxed);
  if (runner != std::thread::id() && runner != std::this_thread::get_id()) return 0;
  // This thread's stack, from here to its top: every activation of
  // compiled code on it is suspended in a call (this thread is here), so
  // its return address -- into its code -- is one of these words.
  uintptr_t top = 0;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    void* low = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attributes, &low, &size);
    pthread_attr_destroy(&attributes);
    top = reinterpret_cast<uintptr_t>(low) + size;
  }
  const auto* here = static_cast<const uintptr_t*>(__builtin_frame_address(0));
  if (top == 0 || top <= reinterpret_cast<uintptr_t>(here)) return 0;
  std::vector<std::unique_ptr<InstalledCode>> freed;
  {
    std::lock_guard<std::mutex> guard(lock_);
    // Dropped native code, by region start.
    std::map<uintptr_t, std::pair<uintptr_t, size_t>> dropped;  // start -> (end, index)
    for (size_t i = 0; i < code_.size(); ++i) {
      auto* native = dynamic_cast<NativeCode*>(code_[i].get());
      if (native == nullptr || native->compilation().target->installed_code() == native) continue;
      const codegen::CodeRegion& region = native->compiled().code.region;
      const auto start = reinterpret_cast<uintptr_t>(region.start);
      dropped[start] = {start + std::max(region.mapped_size, region.size), i};
    }
    ScanStackForCode(here, top, dropped);
    std::vector<bool> free_index(code_.size(), false);
    for (const auto& [start, entry] : dropped) free_index[entry.second] = true;
    std::vector<std::unique_ptr<InstalledCode>> kept;
    for (size_t i = 0; i < code_.size(); ++i) {
      (free_index[i] ? freed : kept).push_back(std::move(code_[i]));
    }
    code_ = std::move(kept);
    next_reclaim_size_ = code_.size() + kReclaimInterval;
  }
  // Destroyed outside lock_ (their dependencies unregister under the
  // assumptions' lock).
  return static_cast<int>(freed.size());
}

void Engine::CountExecution(const CallTarget& target, int* executed, int* due) const {
  if (target.root_node()->IsInternal() || target.call_count() == 0) return;
  ++*executed;
  if (target.call_count() >= std::max(1, tiers_.call_and_loop_threshold_in_interpreter)) ++*due;
}

bool Engine::IsRetiredLocked(const CallTarget& target) const {
  if (retired_.empty()) return false;
  if (retired_.contains(&target)) return true;
  // A split copy holds its source (CallTarget::HolderToken): the source
  // is not freed before it.
  const CallTarget* source = target.source_call_target();
  return source != nullptr && retired_.contains(source);
}

void Engine::RetireCallTarget(CallTarget& target) {
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (closed_ || !retired_.insert(&target).second) return;
  }
  // Never compiled again (Compile refuses retired targets, and old
  // activations calling it do not ask); its code is detached, and running
  // activations finish in it (dropped code is freed once none runs it).
  // Split copies' code goes at the next reclamation.
  target.set_compilation_threshold(INT_MAX);
  target.set_installed_code(nullptr);
}

size_t Engine::live_call_targets() const {
  std::lock_guard<std::mutex> guard(lock_);
  return call_targets_.size();
}

int Engine::ReclaimRetiredCallTargets() {
  // Only the thread that runs all guest code knows where every activation
  // is (its own stack), and only it creates call nodes and calls targets,
  // so nothing changes under this but the compiler threads' work.
  if (!IsOnlyGuestThread()) return 0;
  struct Unqueued {
    const CallTarget* target;
    CompileQueue::QueueState state;
    int tier;
  };
  std::vector<Unqueued> unqueued;
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (closed_ || retired_.empty()) return 0;
    for (const auto& target : call_targets_) {
      if (!IsRetiredLocked(*target)) continue;
      // Retired split copies lose their code too (their sources lost theirs
      // at retirement).
      if (target->installed_code() != nullptr) {
        target->set_compilation_threshold(INT_MAX);
        target->set_installed_code(nullptr);
      }
      // A queued compilation of a retired target would be refused when it
      // starts (Compile): cancelled now, it does not keep the target until
      // a compiler thread gets to it (with CompileImmediately on a loaded
      // machine, hundreds of redefined functions waited in the queue).
      Unqueued cancelled{target.get(), {}, 1};
      while (queue_ != nullptr && queue_->Cancel(*target, &cancelled.state, &cancelled.tier)) {
        unqueued.push_back(cancelled);
      }
    }
  }
  if (config_.trace_compilation_details()) {
    for (const Unqueued& u : unqueued) LogUnqueued(*u.target, u.state, u.tier, "Target retired");
  }
  // Frees the dropped code no activation runs: what is left pins targets.
  ReclaimDroppedCode();
  // The trees with an interpreter activation on this (the only guest)
  // thread: CallTarget::Call and deoptimization push a frame for each,
  // compiled callers in between included.
  absl::flat_hash_set<const RootNode*> active;
  for (const Frame* frame = Frame::Current(); frame != nullptr; frame = frame->caller()) {
    active.insert(frame->root());
  }
  int freed_count = 0;
  // Freeing a target drops its call nodes' and its own tokens, which may
  // free others (a retired caller of a retired callee, a split's source):
  // again until nothing more goes.
  for (;;) {
    std::vector<std::unique_ptr<CallTarget>> freed;
    std::vector<std::unique_ptr<CyclicAssumption>> assumptions;
    {
      std::lock_guard<std::mutex> guard(lock_);
      if (closed_ || retired_.empty()) break;
      // The targets whose trees compiled code was made from (the compiled
      // one and the inlined ones): the code embeds their nodes and
      // counters. The targets it calls are held by call nodes of those
      // trees.
      absl::flat_hash_set<const CallTarget*> compiled;
      for (const auto& code : code_) {
        const pe::Compilation* compilation = CompilationOf(code.get());
        // Code of another kind: what it names is unknown.
        if (compilation == nullptr) return freed_count;
        compiled.insert(compilation->target);
        for (const pe::Compilation::InlinedTree& tree : compilation->inlined_trees) {
          compiled.insert(tree.root->call_target());
        }
      }
      // Trees with OSR state (the loop's OSR target runs on the tree).
      absl::flat_hash_set<const RootNode*> osr_trees;
      for (const auto& [loop, target] : osr_policy_->Loops()) osr_trees.insert(loop->GetRootNode());
      for (const osr::BytecodeOsrPolicy::Entry& entry : bytecode_osr_policy_->Entries()) {
        osr_trees.insert(entry.root);
      }
      std::vector<std::unique_ptr<CallTarget>> kept;
      kept.reserve(call_targets_.size());
      for (std::unique_ptr<CallTarget>& target : call_targets_) {
        const RootNode* root = target->root_node();
        const bool free = IsRetiredLocked(*target) && target->holder_count() == 0 &&
                          !active.contains(root) && !osr_trees.contains(root) &&
                          !compiled.contains(target.get()) &&
                          !compiling_.contains(target.get()) &&
                          (queue_ == nullptr || !queue_->IsActive(*target));
        (free ? freed : kept).push_back(std::move(target));
      }
      call_targets_ = std::move(kept);
      for (const std::unique_ptr<CallTarget>& target : freed) {
        CountExecution(*target, &freed_executed_targets_, &freed_due_targets_);
        compilations_.erase(target.get());
        if (auto it = rewriting_.find(target.get()); it != rewriting_.end()) {
          assumptions.push_back(std::move(it->second));
          rewriting_.erase(it);
        }
        retired_.erase(target.get());
      }
    }
    if (freed.empty()) break;
    {
      std::lock_guard<std::mutex> guard(ProcessTargetsLock());
      for (const auto& target : freed) ProcessTargets().erase(target->id());
    }
    for (const auto& target : freed) splitting_->OnTargetFreed(*target);
    freed_count += static_cast<int>(freed.size());
    // Destroyed outside lock_, newest first (as ~Engine does).
    while (!freed.empty()) freed.pop_back();
  }
  std::lock_guard<std::mutex> guard(lock_);
  next_retired_reclaim_size_ = std::max(kRetiredReclaimInterval, 2 * retired_.size());
  return freed_count;
}

CallTarget* Engine::CreateCallTarget(std::unique_ptr<RootNode> root) {
  limits_->CheckASTDepth(*root);
  MaybeReclaimDroppedCode();
  bool reclaim_retired;
  {
    std::lock_guard<std::mutex> guard(lock_);
    reclaim_retired = retired_.size() >= next_retired_reclaim_size_;
  }
  if (reclaim_retired) ReclaimRetiredCallTargets();
  auto target = std::make_unique<CallTarget>(std::move(root), this);
  CallTarget* raw = target.get();
  ConfigureCompilation(*raw);
  {
    std::lock_guard<std::mutex> guard(lock_);
    call_targets_.push_back(std::move(target));
  }
  splitting_->OnTargetCreated(*raw);
  return raw;
}

void Engine::OnPolymorphicSpecialize(Node& source) {
  {
    std::lock_guard<std::mutex> guard(lock_);
    ++reports_by_class_[std::string(source.kind_name())];
    ++report_count_;
  }
  splitting_->OnPolymorphicSpecialize(source);
}

CallTarget* Engine::BeforeDirectCall(DirectCallNode& call, CallTarget* target) {
  return splitting_->BeforeCall(call, target);
}

bool Engine::ForceSplit(DirectCallNode& call) { return splitting_->ForceSplit(call); }

std::map<std::string, int> Engine::PolymorphicReportsByNodeClass() const {
  std::lock_guard<std::mutex> guard(lock_);
  return reports_by_class_;
}

int Engine::polymorphic_report_count() const {
  std::lock_guard<std::mutex> guard(lock_);
  return report_count_;
}

std::vector<CallTarget*> Engine::call_targets() const {
  std::lock_guard<std::mutex> guard(lock_);
  std::vector<CallTarget*> targets;
  for (const auto& target : call_targets_) targets.push_back(target.get());
  return targets;
}

}  // namespace morel::runtime

namespace morel::runtime {

namespace {
std::mutex& ProcessTargetsLock() {
  static auto* lock = new std::mutex();
  return *lock;
}
absl::flat_hash_map<int64_t, CallTarget*>& ProcessTargets() {
  static auto* targets = new absl::flat_hash_map<int64_t, CallTarget*>();
  return *targets;
}

std::string UtcNow() {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3S", absl::Now(), absl::UTCTimeZone());
}

// The compilation of compiled code (null for code of another kind).
const pe::Compilation* CompilationOf(InstalledCode* code) {
  if (auto* ir_code = dynamic_cast<IrTierCode*>(code)) return &ir_code->compilation();
  if (auto* native = dynamic_cast<NativeCode*>(code)) return &native->compilation();
  return nullptr;
}

// The assumptions and validity cell of compiled code (null for code of
// another kind).
CodeDependencies* DependenciesOf(InstalledCode* code) {
  const pe::Compilation* compilation = CompilationOf(code);
  return compilation != nullptr ? compilation->dependencies.get() : nullptr;
}

// The tier of installed code: 0 for none, 2 for code of another kind.
int TierOf(InstalledCode* code) {
  if (code == nullptr) return 0;
  const pe::Compilation* compilation = CompilationOf(code);
  return compilation != nullptr ? compilation->tier : 2;
}
}  // namespace

bool Engine::CompilationEnabled() const {
  return config_.compilation() && config_.backend() != config::EngineConfig::none;
}

CallTarget* Engine::FindCallTargetInProcess(int64_t id) {
  std::lock_guard<std::mutex> guard(ProcessTargetsLock());
  auto it = ProcessTargets().find(id);
  return it == ProcessTargets().end() ? nullptr : it->second;
}

bool Engine::AcceptsForCompilation(const CallTarget& target) const {
  const std::string& name = target.root_node()->name();
  for (const std::string& excluded : compile_only_exclude_) {
    if (absl::StrContains(name, excluded)) return false;
  }
  if (compile_only_include_.empty()) return true;
  for (const std::string& included : compile_only_include_) {
    if (absl::StrContains(name, included)) return true;
  }
  return false;
}

Engine::TierPolicy Engine::TierPolicyOf(const config::EngineConfig& config) {
  TierPolicy tiers;
  tiers.multi_tier = config.multi_tier() && !config.compile_immediately();
  tiers.first_tier_only = config.mode() == config::EngineConfig::latency;
  tiers.backedge_counts = config.first_tier_backedge_counts();
  if (config.compile_immediately()) return tiers;  // every threshold 0
  if (tiers.multi_tier) {
    tiers.call_threshold_in_interpreter = std::min(config.first_tier_min_invoke_threshold(),
                                                   config.first_tier_compilation_threshold());
    tiers.call_and_loop_threshold_in_interpreter = config.first_tier_compilation_threshold();
  } else {
    tiers.call_threshold_in_interpreter =
        std::min(config.min_invoke_threshold(), config.single_tier_compilation_threshold());
    tiers.call_and_loop_threshold_in_interpreter = config.single_tier_compilation_threshold();
  }
  tiers.call_threshold_in_first_tier =
      std::min(config.min_invoke_threshold(), config.last_tier_compilation_threshold());
  tiers.call_and_loop_threshold_in_first_tier = config.last_tier_compilation_threshold();
  return tiers;
}

int Engine::TierFor(bool last_tier_request) const {
  return last_tier_request && !tiers_.first_tier_only ? 2 : 1;
}

int Engine::ThresholdOf(int tier) const {
  return tier == 2 && tiers_.multi_tier ? tiers_.call_and_loop_threshold_in_first_tier
                                        : tiers_.call_and_loop_threshold_in_interpreter;
}

namespace {
int SaturatingSum(int64_t a, int64_t b) {
  return static_cast<int>(std::min<int64_t>(a + b, INT_MAX));
}
}  // namespace

int Engine::ReprofileThreshold(const CallTarget& target, int extra) const {
  return SaturatingSum(target.call_and_loop_count(), extra);
}

bool Engine::ProfilesForLastTier(int tier) const {
  return tier == 1 && tiers_.multi_tier && !tiers_.first_tier_only;
}

void Engine::SetTierOptions(int tier, pe::PartialEvaluator::Options& options) const {
  options.tier = tier;
  options.profile_for_next_tier = ProfilesForLastTier(tier);
  options.last_tier_call_threshold = tiers_.call_threshold_in_first_tier;
  options.profile_back_edges = options.profile_for_next_tier && tiers_.backedge_counts;
}

void Engine::ConfigureCompilation(CallTarget& target) {
  {
    std::lock_guard<std::mutex> guard(ProcessTargetsLock());
    ProcessTargets()[target.id()] = &target;
  }
  if (!CompilationEnabled() || target.root_node()->IsInternal() ||
      !AcceptsForCompilation(target)) {
    target.set_compilation_threshold(INT_MAX);
    return;
  }
  target.set_compilation_threshold(tiers_.call_and_loop_threshold_in_interpreter);
}

// Truffle's "Src" field: "<source name>:<start line> 0x<source hash>".
std::string SourceColumn(const CallTarget& target) {
  const SourceSection* section = target.root_node()->EncapsulatingSourceSection();
  if (section == nullptr) return "n/a";
  uint32_t hash = static_cast<uint32_t>(std::hash<std::string>()(section->source->text()));
  return absl::StrFormat("%s:%d 0x%x", section->source->name(), section->line, hash);
}

std::string Engine::TargetColumn(const CallTarget& target) const {
  return absl::StrFormat("engine=%-2d id=%-5d %-50s ", 1, target.id(), target.name());
}

void Engine::OnCompilationThreshold(CallTarget& target) {
  MaybeReclaimDroppedCode();
  // Truffle's shouldCompile: callCount must be at its threshold too (else
  // the next call asks again).
  if (target.call_count() < tiers_.call_threshold_in_interpreter) return;
  {
    // Under lock_, which installation holds: a call that found no code just
    // before code was installed asks nothing (and leaves the threshold of
    // that code alone).
    std::lock_guard<std::mutex> guard(lock_);
    if (target.installed_code() != nullptr) return;
    int threshold = target.compilation_threshold();
    compilations_[&target].profile_base =
        std::max(0, threshold - tiers_.call_and_loop_threshold_in_interpreter);
    // Submitted: no second request until the code is installed, dropped or
    // the compilation is discarded.
    target.set_compilation_threshold(INT_MAX);
    if (closed_) return;
  }
  RequestCompilation(target, TierFor(/*last_tier_request=*/!tiers_.multi_tier));
}

void Engine::OnLastTierThreshold(CallTarget& target) {
  {
    std::lock_guard<std::mutex> guard(lock_);
    // Only the installed first-tier code asks: an activation of first-tier
    // code that was dropped (or replaced) meanwhile may still be running.
    if (TierOf(target.installed_code()) != 1) return;
    target.set_compilation_threshold(INT_MAX);  // the code asks once
    if (closed_) return;
    if (target.installed_code() == nullptr) {
      // Dropped just now (DropCode does not take lock_): the interpreter
      // re-profiles.
      target.set_compilation_threshold(
          ReprofileThreshold(target, tiers_.call_and_loop_threshold_in_interpreter + 1));
      return;
    }
  }
  try {
    RequestCompilation(target, TierFor(/*last_tier_request=*/true));
  } catch (const OptimizationFailedError&) {
    // CompilationFailureAction=Throw without background compilation: the
    // failure is printed, and cannot unwind through compiled code.
  }
}

void Engine::RequestCompilation(CallTarget& target, int tier) {
  if (!config_.background_compilation()) {
    if (config_.trace_compilation_details()) {
      // As in Truffle, a foreground compilation goes through the queue too;
      // the calling thread is its only client.
      LogQueued(target, {1, +1, 1.0, 0}, tier);
      LogStart(target, {&target, tier, target.call_and_loop_count(), 0.0, {0, -1, 0, 0}});
    }
    Compile(target, nullptr, tier);
    return;
  }
  std::function<void(const CompileQueue::QueueState&)> trace;
  if (config_.trace_compilation_details()) {
    trace = [&](const CompileQueue::QueueState& state) { LogQueued(target, state, tier); };
  }
  int compiled_tier;
  {
    std::lock_guard<std::mutex> guard(lock_);
    compiled_tier = compilations_[&target].highest_tier;
  }
  queue().Submit(target, tier, trace, compiled_tier);
}

void Engine::LogQueued(const CallTarget& target, const CompileQueue::QueueState& state,
                       int tier) {
  log_->Log(absl::StrCat(
      "opt queued ", TargetColumn(target), "|Tier ", tier, "|",
      absl::StrFormat("Count/Thres  %9d/%9d", target.call_and_loop_count(), ThresholdOf(tier)),
      "|", QueueColumn(state), "|UTC ", UtcNow(), "|Src ", SourceColumn(target)));
}

void Engine::LogStart(const CallTarget& target, const CompileQueue::Start& start) {
  log_->Log(absl::StrCat("opt start  ", TargetColumn(target), "|Tier ", start.tier,
                         absl::StrFormat("|Priority %9d|Rate %.6f|", start.priority, start.rate),
                         QueueColumn(start.queue), "|UTC ", UtcNow(), "|Src ",
                         SourceColumn(target), "|Bonuses none"));
}

CompileQueue& Engine::queue() {
  std::lock_guard<std::mutex> guard(lock_);
  if (queue_ == nullptr) {
    int threads = CompileQueue::ThreadCount(
        config_.compiler_threads(), static_cast<int>(std::thread::hardware_concurrency()));
    queue_ = std::make_unique<CompileQueue>(
        threads,
        [this](const CompileQueue::Start& start) { Compile(*start.target, &start, start.tier); });
  }
  return *queue_;
}

void Engine::WaitForCompilations() {
  CompileQueue* queue;
  {
    std::lock_guard<std::mutex> guard(lock_);
    queue = queue_.get();
  }
  if (queue != nullptr) queue->WaitUntilIdle();
}

// Truffle's QUEUE_FORMAT, with its 35 trailing spaces.
std::string Engine::QueueColumn(const CompileQueue::QueueState& state) const {
  return absl::StrCat(
      absl::StrFormat("Queue: Size %4d Change %c%-2d Load %5.2f Time %5dus", state.size,
                      state.change < 0 ? '-' : '+', state.change < 0 ? -state.change : state.change,
                      state.load, state.time_us),
      std::string(35, ' '));
}

std::string Engine::NewDumpStem(absl::string_view directory, const CallTarget& target) const {
  static std::atomic<int> counter{0};
  std::string name;
  for (char c : target.name()) name += absl::ascii_isalnum(c) || c == '-' ? c : '_';
  std::filesystem::path path = std::filesystem::path(config_.dump_path()) / std::string(directory);
  std::error_code error;  // a directory that cannot be made fails the file's open
  std::filesystem::create_directories(path, error);
  return (path / absl::StrCat(name, "-", counter.fetch_add(1) + 1)).string();
}

void Engine::WriteDiagnostics(CallTarget& target, const absl::Status& failure, int tier) {
  std::string path = NewDumpStem("diagnostics", target) + ".txt";
  std::ofstream out(path);
  if (!out) {
    log_->Log(absl::StrCat("Cannot write the diagnostics of ", target.name(), " to '", path,
                           "'"));
    return;
  }
  out << ";; compilation of " << target.name() << " failed: " << failure.message() << "\n";
  // The same compilation again, verified and dumped pass by pass (a
  // failure that depends on timing, e.g. a rewrite, may not repeat).
  absl::StatusOr<std::unique_ptr<pe::Compilation>> again =
      CompileToIr(*this, target, runtime_functions_, tier, nullptr, &out);
  if (again.ok()) out << ";; partial evaluation and optimization succeeded this time\n";
  log_->Log(absl::StrCat("Diagnostic output of the failed compilation of ", target.name(),
                         " saved in '", path, "'"));
}

void Engine::Compile(CallTarget& target, const CompileQueue::Start* start, int tier) {
  CompilationState* state;
  uint64_t epoch;
  // While this runs, `target` is not freed (ReclaimRetiredCallTargets).
  struct Compiling {
    Engine& engine;
    const CallTarget& target;
    explicit Compiling(Engine& e, const CallTarget& t) : engine(e), target(t) {
      std::lock_guard<std::mutex> guard(engine.lock_);
      ++engine.compiling_[&target];
    }
    ~Compiling() {
      std::lock_guard<std::mutex> guard(engine.lock_);
      if (--engine.compiling_[&target] == 0) engine.compiling_.erase(&target);
    }
  } compiling(*this, target);
  {
    std::lock_guard<std::mutex> guard(lock_);
    state = &compilations_[&target];  // std::map: the pointer stays valid
    epoch = invalidation_epoch_;
    // A retired target is never compiled again.
    if (state->failed || closed_ || IsRetiredLocked(target)) return;
    // Truffle's needsCompile: a first-tier request needs no code at all, a
    // last-tier one no last-tier code.
    if (TierOf(target.installed_code()) >= tier) return;
  }
  if (start != nullptr && config_.trace_compilation_details()) LogStart(target, *start);
  absl::Time begin = absl::Now();
  auto fail = [&](const absl::Status& status, bool recompilation_limit = false) {
    {
      std::lock_guard<std::mutex> guard(lock_);
      state->failed = true;  // permanent: never compiled again
    }
    ++(recompilation_limit ? statistics_.recompilation_limits : statistics_.failed);
    auto action = config_.compilation_failure_action();
    if (config_.trace_compilation() || action != config::EngineConfig::Silent) {
      log_->Log(absl::StrCat("opt failed ", TargetColumn(target), "|Tier ", tier, "|Time ",
                             absl::StrFormat("%4.0fms", absl::ToDoubleMilliseconds(
                                                            absl::Now() - begin)),
                             "|Reason: ", status.message(), "|UTC ", UtcNow(), "|Src ",
                             SourceColumn(target)));
    }
    if (action == config::EngineConfig::Diagnose) WriteDiagnostics(target, status, tier);
    if (action == config::EngineConfig::ExitVM) {
      log_->Log("Exiting VM due to engine.CompilationFailureAction=ExitVM");
      std::fflush(nullptr);
      // Truffle's System.exit(-1); _exit because this may be a compiler
      // thread while the guest still runs.
      std::_Exit(255);
    }
    if ((action == config::EngineConfig::Throw || action == config::EngineConfig::Diagnose) &&
        start == nullptr) {
      // Raised to the caller of the call that triggered the compilation,
      // like Truffle's OptimizationFailedException (only without background
      // compilation; with it, Create() warned and the failure is printed).
      throw OptimizationFailedError(absl::StrCat("Compilation of ", target.name(),
                                                 " failed: ", status.message()));
    }
  };
  std::string deopt_cycle;
  int successful;
  {
    std::lock_guard<std::mutex> guard(lock_);
    successful = state->successful;
    if (state->deopt_cycle) deopt_cycle = state->last_deopt;
  }
  if (!deopt_cycle.empty()) {
    return fail(absl::ResourceExhaustedError(
                    absl::StrCat("Deopt taken too many times: ", deopt_cycle)),
                /*recompilation_limit=*/true);
  }
  if (config_.maximum_compilations() >= 0 && successful >= config_.maximum_compilations()) {
    return fail(absl::ResourceExhaustedError(absl::StrCat(
                    "Maximum compilation count ", config_.maximum_compilations(), " reached.")),
                /*recompilation_limit=*/true);
  }
  // The native tier first: creating it sets the guest-call entry that
  // partial evaluation registers guest runtime calls with.
  NativeTier* native_tier = nullptr;
  if (config_.backend() != config::EngineConfig::ir_interpreter) {
    absl::StatusOr<NativeTier*> created = NativeTier::Get(NativeBackendName(config_.backend()));
    if (!created.ok()) return fail(created.status());
    native_tier = *created;
  }
  uint64_t rewrites = 0;
  InliningReport inlining;
  absl::StatusOr<std::unique_ptr<pe::Compilation>> compilation =
      CompileToIr(*this, target, runtime_functions_, tier, &rewrites, nullptr, &inlining);
  if (!compilation.ok()) return fail(compilation.status());
  std::vector<pe::Compilation::InlinedTree> inlined_trees = (*compilation)->inlined_trees;
  if (after_pe_hook_) after_pe_hook_(target);
  double pe_milliseconds = absl::ToDoubleMilliseconds(absl::Now() - begin);
  int ir_nodes = (*compilation)->function->InstructionCount();
  int pe_nodes = (*compilation)->ir_nodes_after_pe;
  std::unique_ptr<InstalledCode> code;
  const void* native_entry = nullptr;
  size_t code_size = 0;
  if (config_.backend() == config::EngineConfig::ir_interpreter) {
    code = std::make_unique<IrTierCode>(*this, *std::move(compilation));
  } else {
    absl::StatusOr<std::unique_ptr<NativeCode>> native =
        native_tier->Compile(*this, *std::move(compilation));
    if (!native.ok()) return fail(native.status());
    code_size = (*native)->compiled().code_size;
    native_entry = (*native)->compiled().entry;
    code = *std::move(native);
  }
  double milliseconds = absl::ToDoubleMilliseconds(absl::Now() - begin);
  InstalledCode* raw = code.get();
  std::string discarded;
  {
    std::lock_guard<std::mutex> guard(lock_);
    // Kept even if discarded: the code region stays registered with its
    // tier until the engine dies.
    code_.push_back(std::move(code));
    if (closed_) return;
    bool inlined_rewritten = false;
    for (const pe::Compilation::InlinedTree& tree : inlined_trees) {
      inlined_rewritten |= tree.root->rewrite_count() != tree.rewrite_count;
    }
    if (IsRetiredLocked(target)) {
      // Retired during the compilation: dropped at once, as its code was.
      return;
    } else if (target.root_node()->CompiledTreeRoot()->rewrite_count() != rewrites) {
      discarded = "the tree was rewritten during compilation";
    } else if (inlined_rewritten) {
      discarded = "the tree of an inlined call target was rewritten during compilation";
    } else if (invalidation_epoch_ != epoch) {
      discarded = "code was invalidated during compilation";
    } else {
      // First-tier code that profiles asks for the last tier at
      // profile_base + LastTierCompilationThreshold (Truffle:
      // callAndLoopThresholdInFirstTier); other code asks nothing, and the
      // threshold stays INT_MAX from the request.
      int threshold =
          ProfilesForLastTier(tier)
              ? SaturatingSum(state->profile_base, tiers_.call_and_loop_threshold_in_first_tier)
              : -1;
      if (InstallCode(target, raw, native_entry, threshold, &discarded)) {
        ++state->successful;
        ++statistics_.successful;
        state->highest_tier = std::max(state->highest_tier, tier);
      }
    }
  }
  if (!discarded.empty()) {
    // A non-permanent bailout (Truffle: "opt unque." with the reason): the
    // target re-profiles (in the interpreter, or in first-tier code still
    // installed) and may compile again.
    target.set_compilation_threshold(
        ReprofileThreshold(target, tiers_.call_and_loop_threshold_in_interpreter));
    if (config_.trace_compilation_details()) {
      LogUnqueued(target, {0, 0, 0, 0}, tier, absl::StrCat("Non permanent bailout: ", discarded));
    }
    return;
  }
  ReportInlining(target, inlining);
  if (config_.trace_compilation()) {
    log_->Log(absl::StrCat(
        "opt done   ", TargetColumn(target), "|Tier ", tier, "|Time ",
        absl::StrFormat("%18s", absl::StrFormat("%4.0f(%4.0f+%-4.0f)ms", milliseconds,
                                                pe_milliseconds,
                                                milliseconds - pe_milliseconds)),
        absl::StrFormat("|AST %4d|Inlined %3dY %3dN|IR %6d/%6d|CodeSize %7d|Addr 0x%012x",
                        target.uninitialized_node_count(), inlining.inlined_y,
                        inlining.inlined_n, pe_nodes, ir_nodes, static_cast<int>(code_size),
                        reinterpret_cast<uintptr_t>(native_entry != nullptr
                                                        ? native_entry
                                                        : static_cast<const void*>(raw))),
        "|CompId n/a    |UTC ", UtcNow(), "|Src ", SourceColumn(target)));
  }
}

void Engine::OnDeoptimized(CallTarget& target, const std::string& reason,
                           const Node* location, ir::DeoptAction action,
                           const pe::Compilation* code) {
  ++statistics_.deopts;
  const pe::Compilation* installed = CompilationOf(target.installed_code());
  if (action == ir::DeoptAction::kKeepCode ||
      (code != nullptr && installed != nullptr && installed != code)) {
    // Truffle's transferToInterpreter(): the code stays (and so does the
    // profile); a recompilation would produce the same code, so this is no
    // deopt cycle either. Or code that newer code replaced (the last tier
    // over a running first-tier activation): invalidating the replaced
    // code's activation leaves the newer code installed.
    if (config_.trace_compilation()) {
      log_->Log(absl::StrCat("opt deopt  ", TargetColumn(target), "|Invalidated false|",
                             std::string(108, ' '), "|UTC ", UtcNow(), "|Src ",
                             SourceColumn(target), "|Reason ",
                             reason.empty() ? "unknown" : reason));
    }
    return;
  }
  target.set_installed_code(nullptr);
  target.set_compilation_threshold(
      ReprofileThreshold(target, tiers_.call_and_loop_threshold_in_interpreter + 1));
  {
    // Deopt-cycle detection (Truffle's DeoptCycleDetectionThreshold and
    // AllowedRepeats): once the target compiled `threshold` times, code
    // that deoptimizes at the same node for the same reason as its
    // predecessor did means recompiling does not help.
    std::lock_guard<std::mutex> guard(lock_);
    CompilationState& state = compilations_[&target];
    std::string key = reason.empty() ? "unknown" : reason;
    if (location != nullptr) {
      absl::StrAppend(&key, " at ", location->kind_name());
      if (const SourceSection* section = location->EncapsulatingSourceSection()) {
        absl::StrAppend(&key, " (", section->source->name(), ":", section->line, ":",
                        section->column, ")");
      }
    }
    int threshold = config_.deopt_cycle_detection_threshold();
    if (threshold >= 0 && state.successful >= threshold && key == state.last_deopt) {
      ++state.deopt_repeats;
      state.deopt_cycle =
          state.deopt_repeats > std::max(0, config_.deopt_cycle_detection_allowed_repeats());
    } else {
      state.deopt_repeats = 0;
    }
    state.last_deopt = key;
  }
  if (config_.trace_compilation()) {
    log_->Log(absl::StrCat("opt deopt  ", TargetColumn(target), "|Invalidated  true|",
                           std::string(108, ' '), "|UTC ", UtcNow(), "|Src ", SourceColumn(target), "|Reason ",
                           reason.empty() ? "unknown" : reason));
  }
}

Assumption* Engine::RewritingAssumption(CallTarget& target) {
  std::lock_guard<std::mutex> guard(lock_);
  std::unique_ptr<CyclicAssumption>& slot = rewriting_[&target];
  if (slot == nullptr) {
    slot = std::make_unique<CyclicAssumption>(absl::StrCat("nodeRewriting ", target.name()));
  }
  return slot->Get();
}

InliningSettings Engine::InliningSettingsFor(int tier) const {
  InliningSettings settings;
  // MaxStackFrames counts every guest frame at CallTarget::Call: an
  // inlined call would make none.
  settings.options.inlining = config_.inlining() && config_.max_stack_frames() == 0;
  settings.options.expansion_budget = config_.inlining_expansion_budget();
  settings.options.inlining_budget = config_.inlining_inlining_budget();
  settings.options.recursion_depth = config_.inlining_recursion_depth();
  settings.options.inline_only = config_.inline_only();
  // Truffle: the first tier's policy is FirstTierInliningPolicy ("": the
  // lowest priority, TrivialOnly), the last tier's InliningPolicy ("": the
  // highest, Default).
  settings.first_tier = tier == 1;
  settings.policy = tier == 1 ? config_.first_tier_inlining_policy() : config_.inlining_policy();
  settings.trace = config_.trace_inlining();
  settings.trace_details = config_.trace_inlining_details();
  settings.dump_call_tree = config_.dump_call_tree();
  return settings;
}

void Engine::ReportInlining(const CallTarget& target, const InliningReport& report) {
  for (const std::string& line : report.trace) log_->Log(line);
  if (config_.dump_call_tree() && !report.dot_before.empty()) {
    std::string stem = NewDumpStem("calltree", target);
    for (const auto& [suffix, text] : {std::pair<const char*, const std::string*>{
                                           "-before.dot", &report.dot_before},
                                       {"-after.dot", &report.dot_after}}) {
      std::string path = stem + suffix;
      std::ofstream out(path);
      out << *text;
      if (!out) {
        log_->Log(absl::StrCat("Cannot write the call tree of ", target.name(), " to '", path,
                               "'"));
      }
    }
  }
  // Truffle's collectTargetsToDequeue: a target inlined into its only
  // caller has no reason to be compiled on its own.
  CompileQueue* queue;
  {
    std::lock_guard<std::mutex> guard(lock_);
    queue = queue_.get();
  }
  if (queue == nullptr) return;
  for (CallTarget* dequeued : report.dequeue) {
    CompileQueue::QueueState state;
    int tier = 1;
    if (queue->Cancel(*dequeued, &state, &tier)) {
      // Like a discarded compilation: it may be requested again later.
      dequeued->set_compilation_threshold(
          ReprofileThreshold(*dequeued, tiers_.call_and_loop_threshold_in_interpreter));
      if (config_.trace_compilation_details()) {
        LogUnqueued(*dequeued, state, tier, "Target inlined into only caller");
      }
    }
  }
}

void Engine::LogUnqueued(const CallTarget& target, const CompileQueue::QueueState& state, int tier,
                         absl::string_view reason) {
  log_->Log(absl::StrCat(
      "opt unque. ", TargetColumn(target), "|Tier ", tier, "|",
      absl::StrFormat("Count/Thres  %9d/%9d", target.call_and_loop_count(), ThresholdOf(tier)), "|",
      QueueColumn(state), "|UTC ", UtcNow(), "|Src ", SourceColumn(target), "|Reason ", reason));
}

void Engine::OnNodeReplaced(CallTarget& target, Node&, Node&, absl::string_view reason) {
  // Code that inlined this tree goes too (its rewriting assumption).
  CyclicAssumption* rewriting = nullptr;
  {
    std::lock_guard<std::mutex> guard(lock_);
    auto it = rewriting_.find(&target);
    if (it != rewriting_.end()) rewriting = it->second.get();
  }
  if (rewriting != nullptr) rewriting->Invalidate(reason);
  // Truffle's nodeReplaced: the target's code no longer matches its tree
  // ("Split call node" for a split in a caller). The rewrite count, bumped
  // by Node::Replace, already stops compilations in flight. The OSR code of
  // the tree's loops goes too (Truffle: onOSRNodeReplaced).
  std::vector<CallTarget*> dropped = {&target};
  {
    std::lock_guard<std::mutex> guard(lock_);
    for (CallTarget* osr_target : OsrTargetsOf(*target.root_node())) {
      dropped.push_back(osr_target);
    }
  }
  for (CallTarget* invalid : dropped) {
    if (invalid->installed_code() != nullptr) DropCode(*invalid, reason);
  }
}

void Engine::DropCode(CallTarget& target, absl::string_view reason) {
  ++statistics_.invalidations;
  target.set_installed_code(nullptr);
  target.set_compilation_threshold(
      ReprofileThreshold(target, tiers_.call_and_loop_threshold_in_interpreter + 1));
  if (config_.trace_compilation()) {
    log_->Log(absl::StrCat("opt inval. ", TargetColumn(target), " ", std::string(126, ' '),
                           "|UTC ", UtcNow(), "|Src ", SourceColumn(target), "|Reason ", reason));
  }
}

// Lock order: lock_ (held here by Compile), then the assumptions' lock.
// Invalidation handlers run under the assumptions' lock and never take lock_.
bool Engine::InstallCode(CallTarget& target, InstalledCode* code, const void* native_entry,
                         int threshold, std::string* refused) {
  // The threshold first: it belongs to the new code (an interpreter call
  // that meanwhile finds it reached waits for lock_, held here, and then
  // finds the code). Replacing first-tier code by last-tier code is one
  // store: running activations of the old code finish in it.
  auto install = [&] {
    if (threshold >= 0) target.set_compilation_threshold(threshold);
    target.set_installed_code(code, native_entry);
  };
  CodeDependencies* dependencies = DependenciesOf(code);
  if (dependencies == nullptr) {
    install();
    return true;
  }
  // Checked and registered under the assumptions' lock: an invalidation
  // racing with this either comes first (the code is refused) or after (it
  // finds the code registered and invalidates it).
  return dependencies->InstallIfValid(
      [this, &target, code](const std::string& reason) { InvalidateCode(target, code, reason); },
      install, refused);
}

void Engine::InvalidateCode(CallTarget& target, InstalledCode* code, const std::string& reason) {
  // The validity cell is already cleared: running activations of `code`
  // deoptimize after their current call. Detach the code if it is still
  // the target's (it may have deoptimized and been replaced since).
  if (target.installed_code() == code) DropCode(target, reason);
}

void Engine::OnInvalidatedCodeDeoptimized(CallTarget& target, const std::string& reason) {
  ++statistics_.deopts;
  // Invalidation already detached the code and reset the profile; the
  // target's current code (perhaps a newer compilation) stays.
  if (config_.trace_compilation()) {
    log_->Log(absl::StrCat("opt deopt  ", TargetColumn(target), "|Invalidated false|",
                           std::string(108, ' '), "|UTC ", UtcNow(), "|Src ",
                           SourceColumn(target), "|Reason ", reason.empty() ? "unknown" : reason));
  }
}

void Engine::InvalidateAllCode(const std::string& reason) {
  std::vector<CodeDependencies*> compiled;
  {
    std::lock_guard<std::mutex> guard(lock_);
    ++invalidation_epoch_;
    for (const auto& code : code_) {
      if (CodeDependencies* dependencies = DependenciesOf(code.get())) {
        compiled.push_back(dependencies);
      }
    }
  }
  // Clears every validity cell, so activations running compiled code stop
  // after their current call too; the handler of installed code detaches
  // it and prints `opt inval.` (code never freed: the pointers stay valid).
  for (CodeDependencies* dependencies : compiled) dependencies->Invalidate(reason);
  // Code installed without dependencies, if any. Under lock_: no target
  // is freed meanwhile (neither DropCode nor ConfigureCompilation takes it).
  std::lock_guard<std::mutex> guard(lock_);
  for (const auto& target : call_targets_) {
    if (target->installed_code() == nullptr) continue;
    DropCode(*target, reason);
    if (!IsRetiredLocked(*target)) ConfigureCompilation(*target);  // back to the first threshold
  }
}

}  // namespace morel::runtime
