#include "osr/osr_policy.h"

#include "absl/strings/str_cat.h"
#include "nodes/root_node.h"

namespace morel::osr {

OsrPolicy::OsrPolicy(const OsrOptions& options, OsrHost* host, LogSink* log)
    : options_(options), host_(host), log_(log) {}

int OsrPolicy::PollMask() {
  if (!host_->CompilationEnabled() || !options_.enabled) return -1;
  // Truffle polls its OSR target every 1024 iterations (OSR_POLL_INTERVAL);
  // AlwaysOSR polls every iteration.
  return options_.always_osr ? 0 : 1023;
}

bool OsrPolicy::Poll(LoopNode& loop, Frame& frame, int iterations, int* status) {
  if (!options_.always_osr && iterations <= options_.compilation_threshold) return false;
  RootNode* function_root = loop.GetRootNode();
  if (function_root == nullptr || function_root->call_target() == nullptr) return false;
  if (host_->Closed()) return false;
  CallTarget* target;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    LoopState& state = loops_[&loop];
    if (state.disabled) return false;
    target = state.target;
    // Truffle's compileLoop: the first thread creates the target; the
    // others keep interpreting meanwhile.
    if (target == nullptr) {
      if (state.creating) return false;
      state.creating = true;
    }
  }
  if (target == nullptr) {
    target = host_->CreateOsrTarget(std::make_unique<OsrRootNode>(&loop, function_root));
    std::lock_guard<std::mutex> guard(mutex_);
    LoopState& state = loops_[&loop];
    state.target = target;
    state.creating = false;
  }
  InstalledCode* code = target->installed_code();
  if (code == nullptr) {
    const OsrHost::CompilationState compilation = host_->OsrCompilationState(*target);
    std::string disabled_reason;
    {
      std::lock_guard<std::mutex> guard(mutex_);
      LoopState& state = loops_[&loop];
      if (compilation == OsrHost::CompilationState::kFailed) {
        if (DisableLocked(state)) disabled_reason = "OSR compilation failed";
      } else if (compilation == OsrHost::CompilationState::kCompiling) {
        return false;  // still compiling: keep interpreting
      } else if (state.disabled) {
        return false;
      } else if (state.requested &&
                 ++state.reattempts > options_.max_compilation_re_attempts) {
        // The first request is free; each later one (after a deopt or a
        // discarded compilation) is a re-attempt.
        if (DisableLocked(state)) {
          disabled_reason = absl::StrCat("Max OSR compilation re-attempts reached (",
                                         options_.max_compilation_re_attempts, ")");
        }
      } else {
        state.requested = true;
      }
      if (state.disabled && disabled_reason.empty()) return false;
    }
    if (!disabled_reason.empty()) {
      TraceDisabled(*target, disabled_reason);
      return false;
    }
    host_->RequestOsrCompilation(*target);  // queued, or compiled now
    code = target->installed_code();
    if (code == nullptr) return false;
  }
  *status = host_->RunOsrCode(*target, *code, frame);
  return true;
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

bool OsrPolicy::DisableLocked(LoopState& state) {
  if (state.disabled) return false;
  state.disabled = true;
  return true;
}

void OsrPolicy::TraceDisabled(const CallTarget& target, const std::string& reason) {
  if (!options_.trace_compilation || log_ == nullptr) return;
  log_->Log(absl::StrCat("opt osr disabled ", host_->TraceName(target), "|Reason ", reason));
}

}  // namespace morel::osr
