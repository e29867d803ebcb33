#include "engine/runtime/engine.h"

#include <algorithm>
#include <climits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/container/flat_hash_map.h"
#include "engine/runtime/compiler.h"
#include "engine/codegen/backend_registry.h"
#include "engine/runtime/native_tier.h"

#include "nodes/heap.h"
#include "nodes/node.h"

namespace morel::runtime {
namespace {
std::mutex& ProcessTargetsLock();
absl::flat_hash_map<int64_t, CallTarget*>& ProcessTargets();
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
  heap::Initialize();
  return std::unique_ptr<Engine>(new Engine(std::move(config), *std::move(log)));
}

Engine::Engine(config::EngineConfig config, std::unique_ptr<EngineLog> log)
    : config_(std::move(config)), log_(std::move(log)) {
  splitting_ = std::make_unique<splitting::SplittingStrategy>(
      splitting::SplittingOptions::FromConfig(config_), log_.get(),
      [this](std::unique_ptr<RootNode> root, CallTarget* source) {
        auto target = std::make_unique<CallTarget>(std::move(root), this, source);
        CallTarget* raw = target.get();
        std::lock_guard<std::mutex> guard(lock_);
        ConfigureCompilation(*target);
        call_targets_.push_back(std::move(target));
        return raw;
      });
}

void Engine::Close() { splitting_->Close(); }

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

CallTarget* Engine::CreateCallTarget(std::unique_ptr<RootNode> root) {
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
}  // namespace

bool CompilationEnabled(const config::EngineConfig& config) {
  return config.compilation() && config.backend() != config::EngineConfig::none;
}

CallTarget* Engine::FindCallTargetInProcess(int64_t id) {
  std::lock_guard<std::mutex> guard(ProcessTargetsLock());
  auto it = ProcessTargets().find(id);
  return it == ProcessTargets().end() ? nullptr : it->second;
}

int Engine::FirstThreshold() const {
  if (config_.compile_immediately()) return 0;
  // Single tier (the first tier does not exist yet): Truffle's
  // SingleTierCompilationThreshold, at least MinInvokeThreshold calls.
  return std::max(config_.single_tier_compilation_threshold(),
                  config_.min_invoke_threshold());
}

void Engine::ConfigureCompilation(CallTarget& target) {
  {
    std::lock_guard<std::mutex> guard(ProcessTargetsLock());
    ProcessTargets()[target.id()] = &target;
  }
  if (!CompilationEnabled(config_) || target.root_node()->IsInternal()) {
    target.set_compilation_threshold(INT_MAX);
    return;
  }
  target.set_compilation_threshold(FirstThreshold());
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
  // Compiled synchronously: background compilation is issue #6.
  target.set_compilation_threshold(INT_MAX);
  Compile(target);
}

void Engine::Compile(CallTarget& target) {
  CompilationState* state;
  {
    std::lock_guard<std::mutex> guard(lock_);
    state = &compilations_[&target];
  }
  if (state->failed) return;
  absl::Time start = absl::Now();
  auto fail = [&](const absl::Status& status) {
    state->failed = true;  // permanent: never compiled again
    if (config_.trace_compilation() ||
        config_.compilation_failure_action() != config::EngineConfig::Silent) {
      log_->Log(absl::StrCat("opt failed ", TargetColumn(target), "|Tier 1|Time ",
                             absl::StrFormat("%4.0fms", absl::ToDoubleMilliseconds(
                                                            absl::Now() - start)),
                             "|Reason: ", status.message(), "|UTC ", UtcNow(), "|Src ",
                             SourceColumn(target)));
    }
  };
  if (config_.maximum_compilations() >= 0 &&
      state->successful >= config_.maximum_compilations()) {
    return fail(absl::ResourceExhaustedError(absl::StrCat(
        "Maximum compilation count ", config_.maximum_compilations(), " reached.")));
  }
  absl::StatusOr<std::unique_ptr<pe::Compilation>> compilation =
      CompileToIr(*this, target, runtime_functions_);
  if (!compilation.ok()) return fail(compilation.status());
  double pe_milliseconds = absl::ToDoubleMilliseconds(absl::Now() - start);
  int ir_nodes = 0;
  for (ir::Block* block : (*compilation)->function->blocks()) {
    ir_nodes += static_cast<int>(block->instructions().size());
  }
  int pe_nodes = (*compilation)->ir_nodes_after_pe;
  std::unique_ptr<InstalledCode> code;
  const void* native_entry = nullptr;
  size_t code_size = 0;
  if (config_.backend() == config::EngineConfig::ir_interpreter) {
    code = std::make_unique<IrTierCode>(*this, *std::move(compilation));
  } else {
    absl::StatusOr<NativeTier*> tier =
        NativeTier::Get(config::EngineConfig::Backend_Name(config_.backend()));
    if (!tier.ok()) return fail(tier.status());
    absl::StatusOr<std::unique_ptr<NativeCode>> native =
        (*tier)->Compile(*this, *std::move(compilation));
    if (!native.ok()) return fail(native.status());
    code_size = (*native)->compiled().code_size;
    native_entry = (*native)->compiled().entry;
    code = *std::move(native);
  }
  ++state->successful;
  double milliseconds = absl::ToDoubleMilliseconds(absl::Now() - start);
  InstalledCode* raw = code.get();
  {
    std::lock_guard<std::mutex> guard(lock_);
    code_.push_back(std::move(code));
  }
  target.set_installed_code(raw, native_entry);
  if (config_.trace_compilation()) {
    log_->Log(absl::StrCat(
        "opt done   ", TargetColumn(target), "|Tier 1|Time ",
        absl::StrFormat("%18s", absl::StrFormat("%4.0f(%4.0f+%-4.0f)ms", milliseconds,
                                                pe_milliseconds,
                                                milliseconds - pe_milliseconds)),
        absl::StrFormat("|AST %4d|Inlined %3dY %3dN|IR %6d/%6d|CodeSize %7d|Addr 0x%012x",
                        target.uninitialized_node_count(), 0, 0, pe_nodes, ir_nodes,
                        static_cast<int>(code_size),
                        reinterpret_cast<uintptr_t>(raw)),
        "|CompId n/a    |UTC ", UtcNow(), "|Src ", SourceColumn(target)));
  }
}

void Engine::OnDeoptimized(CallTarget& target, const std::string& reason) {
  target.set_installed_code(nullptr);
  target.set_compilation_threshold(target.call_and_loop_count() + FirstThreshold() + 1);
  if (config_.trace_compilation()) {
    log_->Log(absl::StrCat("opt deopt  ", TargetColumn(target), "|Invalidated  true|",
                           std::string(108, ' '), "|UTC ", UtcNow(), "|Src ", SourceColumn(target), "|Reason ",
                           reason.empty() ? "unknown" : reason));
  }
}

void Engine::InvalidateAllCode(const std::string& reason) {
  for (CallTarget* target : call_targets()) {
    if (target->installed_code() == nullptr) continue;
    target->set_installed_code(nullptr);
    ConfigureCompilation(*target);
    if (config_.trace_compilation()) {
      log_->Log(absl::StrCat("opt inval. ", TargetColumn(*target), " ", std::string(126, ' '),
                             "|UTC ", UtcNow(), "|Src ", SourceColumn(*target), "|Reason ", reason));
    }
  }
}

}  // namespace morel::runtime
