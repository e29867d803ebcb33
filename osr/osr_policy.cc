#include "osr/osr_policy.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "nodes/root_node.h"

namespace morel::osr {

OsrPolicy::OsrPolicy(const OsrOptions& options, OsrHost* host, LogSink* log)
    : options_(options), host_(host), log_(log) {}

int OsrPolicy::LoopThreshold() {
  if (!host_->CompilationEnabled() || !options_.enabled) return -1;
  return options_.always_osr ? 0 : options_.compilation_threshold;
}

int OsrPolicy::PollInterval() const {
  // Truffle polls its OSR target every 1024 iterations (OSR_POLL_INTERVAL);
  // AlwaysOSR polls every iteration.
  return options_.always_osr ? 1 : 1024;
}

bool OsrPolicy::Poll(LoopNode& loop, Frame& frame, int count, int* status) {
  if (!options_.always_osr && count <= options_.compilation_threshold) {
    // Truffle's compilingLoop: an entry of a loop with an OSR target polls
    // from its first iteration; below the threshold only installed code
    // runs. A target without code that is not compiling sends the loop back
    // to profiling (the threshold), where a later request counts as a
    // re-attempt.
    if (!loop.has_osr_target()) return false;
    CallTarget* target = nullptr;
    {
      std::lock_guard<std::mutex> guard(mutex_);
      auto it = loops_.find(&loop);
      if (it != loops_.end() && !it->second.disabled) target = it->second.target;
    }
    if (target == nullptr) {
      loop.set_has_osr_target(false);
      return false;
    }
    if (InstalledCode* code = target->installed_code()) {
      *status = host_->RunOsrCode(*target, *code, frame);
      return true;
    }
    if (host_->OsrCompilationState(*target) != OsrHost::CompilationState::kCompiling) {
      loop.set_has_osr_target(false);
    }
    return false;
  }
  // Truffle's profilingLoop: `iterations + baseLoopCount > osrThreshold`.
  RootNode* function_root = loop.GetRootNode();
  if (function_root == nullptr || function_root->call_target() == nullptr) return false;
  CallTarget* target = nullptr;
  InstalledCode* code = CodeToRun(
      [&] { return &loops_[&loop]; },
      [&] { return std::make_unique<OsrRootNode>(&loop, function_root); }, frame, &target);
  loop.set_has_osr_target(!IsDisabled(loop));
  if (code == nullptr) return false;
  *status = host_->RunOsrCode(*target, *code, frame);
  return true;
}

InstalledCode* OsrPolicy::CodeToRun(absl::FunctionRef<EntryState*()> find_state,
                                    absl::FunctionRef<std::unique_ptr<RootNode>()> make_root,
                                    const Frame& frame, CallTarget** target_out) {
  EntryState* state;
  CallTarget* target;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    state = find_state();
    if (state->disabled) return nullptr;  // before asking the host: one lock
    target = state->target;
    // Truffle's compileLoop: the first thread creates the target; the
    // others keep interpreting meanwhile.
    if (target == nullptr) {
      if (state->creating) return nullptr;
      state->creating = true;
    }
  }
  if (host_->Closed()) {
    if (target == nullptr) {
      std::lock_guard<std::mutex> guard(mutex_);
      state->creating = false;
    }
    return nullptr;
  }
  if (target == nullptr) {
    target = host_->CreateOsrTarget(make_root());
    std::lock_guard<std::mutex> guard(mutex_);
    state->target = target;
    state->creating = false;
  }
  InstalledCode* code = target->installed_code();
  if (code == nullptr) {
    const OsrHost::CompilationState compilation = host_->OsrCompilationState(*target);
    if (compilation == OsrHost::CompilationState::kCompiling) {
      return nullptr;  // still compiling: keep interpreting
    }
    std::string disabled_reason;
    {
      std::lock_guard<std::mutex> guard(mutex_);
      if (state->disabled) return nullptr;  // another thread disabled it
      if (compilation == OsrHost::CompilationState::kFailed) {
        disabled_reason = "OSR compilation failed";
      } else if (state->requested &&
                 ++state->reattempts > options_.max_compilation_re_attempts) {
        // The first request is free; each later one (after a deopt or a
        // discarded compilation) is a re-attempt.
        disabled_reason = absl::StrCat("Max OSR compilation re-attempts reached (",
                                       options_.max_compilation_re_attempts, ")");
      } else {
        state->requested = true;
      }
      state->disabled = !disabled_reason.empty();
    }
    if (!disabled_reason.empty()) {
      TraceDisabled(*target, disabled_reason);
      return nullptr;
    }
    // The host made `target` of make_root()'s OsrRootNode.
    static_cast<OsrRootNode*>(target->root_node())->entry_tags().Record(frame);
    host_->RequestOsrCompilation(*target);  // queued, or compiled now
    code = target->installed_code();
    if (code == nullptr) return nullptr;
  }
  *target_out = target;
  return code;
}

std::vector<std::pair<const LoopNode*, CallTarget*>> OsrPolicy::Loops() const {
  std::lock_guard<std::mutex> guard(mutex_);
  std::vector<std::pair<const LoopNode*, CallTarget*>> loops;
  loops.reserve(loops_.size());
  for (const auto& [loop, state] : loops_) loops.emplace_back(loop, state.target);
  return loops;
}

bool OsrPolicy::IsDisabled(const LoopNode& loop) const {
  std::lock_guard<std::mutex> guard(mutex_);
  auto it = loops_.find(&loop);
  return it != loops_.end() && it->second.disabled;
}

void OsrPolicy::TraceDisabled(const CallTarget& target, const std::string& reason) {
  if (!options_.trace_compilation || log_ == nullptr) return;
  log_->Log(absl::StrCat("opt osr disabled ", host_->TraceName(target), "|Reason ", reason));
}

}  // namespace morel::osr
