// Engine: on-stack replacement (policy in engine/runtime/osr.h).

#include "engine/runtime/osr.h"

#include <climits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "engine/runtime/engine.h"
#include "nodes/loop_node.h"
#include "nodes/root_node.h"
#include "osr/osr_root_node.h"

namespace morel::runtime {
namespace {

thread_local OsrActivation* current_osr_activation = nullptr;

// Makes `activation` the thread's current one for the scope.
class OsrActivationScope {
 public:
  explicit OsrActivationScope(OsrActivation* activation) : activation_(activation) {
    activation->previous = current_osr_activation;
    current_osr_activation = activation;
  }
  ~OsrActivationScope() { current_osr_activation = activation_->previous; }

 private:
  OsrActivation* activation_;
};

}  // namespace

OsrActivation* CurrentOsrActivation() { return current_osr_activation; }

int Engine::OsrPollMask() {
  if (!CompilationEnabled() || !config_.osr()) return -1;
  // Truffle polls its OSR target every 1024 iterations (OSR_POLL_INTERVAL);
  // AlwaysOSR polls every iteration.
  return config_.always_osr() ? 0 : 1023;
}

bool Engine::PollOSR(LoopNode& loop, Frame& frame, int iterations, int* status) {
  if (!config_.always_osr() && iterations <= config_.osr_compilation_threshold()) return false;
  RootNode* function_root = loop.GetRootNode();
  if (function_root == nullptr || function_root->call_target() == nullptr) return false;
  CallTarget* target;
  {
    std::lock_guard<std::mutex> guard(lock_);
    OsrLoop& state = osr_loops_[&loop];
    if (state.disabled || closed_) return false;
    target = state.target;
  }
  if (target == nullptr) {
    // Truffle's compileLoop: the first thread wins (here: under lock_).
    auto root = std::make_unique<osr::OsrRootNode>(&loop, function_root);
    auto owned = std::make_unique<CallTarget>(std::move(root), this);
    ConfigureCompilation(*owned);  // internal: never compiled by calls
    std::lock_guard<std::mutex> guard(lock_);
    OsrLoop& state = osr_loops_[&loop];
    if (state.target == nullptr) {
      state.target = owned.get();
      call_targets_.push_back(std::move(owned));
    }
    target = state.target;
  }
  InstalledCode* code = target->installed_code();
  if (code == nullptr) {
    {
      std::lock_guard<std::mutex> guard(lock_);
      OsrLoop& state = osr_loops_[&loop];
      if (compilations_[target].failed) {
        DisableOsr(state, *target, "OSR compilation failed");
        return false;
      }
      // Still compiling: keep interpreting.
      if (queue_ != nullptr && queue_->IsActive(*target)) return false;
      // The first request is free; each later one (after a deopt or a
      // discarded compilation) is a re-attempt.
      if (state.requested && ++state.reattempts > config_.osr_max_compilation_re_attempts()) {
        DisableOsr(state, *target,
                   absl::StrCat("Max OSR compilation re-attempts reached (",
                                config_.osr_max_compilation_re_attempts(), ")"));
        return false;
      }
      state.requested = true;
    }
    // Truffle compiles OSR code as a last-tier request (first tier with
    // Mode=latency); it never profiles.
    RequestCompilation(*target, TierFor(/*last_tier_request=*/true));  // queued, or compiled now
    code = target->installed_code();
    if (code == nullptr) return false;
  }
  *status = RunOsr(*target, *code, frame);
  return true;
}

void Engine::DisableOsr(OsrLoop& loop, const CallTarget& target, const std::string& reason) {
  if (loop.disabled) return;
  loop.disabled = true;
  if (config_.trace_compilation()) {
    log_->Log(absl::StrCat("opt osr disabled ", TargetColumn(target), "|Reason ", reason));
  }
}

int Engine::RunOsr(CallTarget& target, InstalledCode& code, Frame& frame) {
  const FrameDescriptor& descriptor = frame.descriptor();
  const int size = descriptor.size();
  // The code runs on the frame's own slots (engine/pe EnterOsr/ExitOsr): it
  // stores its locals back before every call that may run guest code, so
  // stack walks (stacktrace()) see current values, and when the loop exits.
  // Slot `size` receives the value of a `return` inside the loop.
  Value* slots = frame.slot_storage();
  slots[size] = Value::Illegal();
  OsrActivation activation{&frame};
  Value result;
  {
    OsrActivationScope scope(&activation);
    result = code.Invoke(target, absl::Span<const Value>(slots, static_cast<size_t>(size)));
  }
  // After a deoptimization the interpreter finished the loop on the frame
  // and kept the slot kinds up to date itself.
  if (!activation.deoptimized) {
    for (int i = 0; i < size; ++i) {
      if (!slots[i].IsIllegal()) descriptor.RecordWrite(i, slots[i]);
    }
    if (!slots[size].IsIllegal()) frame.set_return_value(slots[size]);
  }
  slots[size] = Value::Illegal();
  return static_cast<int>(result.bits);
}

}  // namespace morel::runtime
