// Engine: on-stack replacement, the engine's half (engine/runtime/osr.h).

#include "engine/runtime/osr.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/runtime/engine.h"
#include "nodes/loop_node.h"
#include "nodes/root_node.h"
#include "osr/bytecode_osr_policy.h"
#include "osr/osr_policy.h"
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

osr::OsrOptions OsrOptionsFromConfig(const config::EngineConfig& config) {
  osr::OsrOptions options;
  options.enabled = config.osr();
  options.always_osr = config.always_osr();
  options.compilation_threshold = config.osr_compilation_threshold();
  options.max_compilation_re_attempts = config.osr_max_compilation_re_attempts();
  options.trace_compilation = config.trace_compilation();
  return options;
}

int Engine::OsrLoopThreshold() { return osr_policy_->LoopThreshold(); }

int Engine::OsrLoopPollInterval() { return osr_policy_->PollInterval(); }

bool Engine::PollOSR(LoopNode& loop, Frame& frame, int count, int* status) {
  return osr_policy_->Poll(loop, frame, count, status);
}

bool Engine::OnBytecodeOSRPoll(BytecodeOSRNode& node, int64_t previous, int64_t count) {
  return bytecode_osr_policy_->OnPoll(node, previous, count);
}

std::optional<Value> Engine::TryBytecodeOSR(BytecodeOSRNode& node, int target_bci,
                                            int64_t interpreter_state,
                                            absl::FunctionRef<void()> before_transfer,
                                            Frame& parent_frame) {
  return bytecode_osr_policy_->TryOSR(node, target_bci, interpreter_state, before_transfer,
                                      parent_frame);
}

bool Engine::OsrHostImpl::CompilationEnabled() { return engine_->CompilationEnabled(); }

bool Engine::OsrHostImpl::Closed() {
  std::lock_guard<std::mutex> guard(engine_->lock_);
  return engine_->closed_;
}

CallTarget* Engine::OsrHostImpl::CreateOsrTarget(std::unique_ptr<RootNode> root) {
  auto owned = std::make_unique<CallTarget>(std::move(root), engine_);
  engine_->ConfigureCompilation(*owned);  // internal: never compiled by calls
  CallTarget* target = owned.get();
  std::lock_guard<std::mutex> guard(engine_->lock_);
  engine_->call_targets_.push_back(std::move(owned));
  return target;
}

osr::OsrHost::CompilationState Engine::OsrHostImpl::OsrCompilationState(CallTarget& target) {
  std::lock_guard<std::mutex> guard(engine_->lock_);
  if (engine_->compilations_[&target].failed) return CompilationState::kFailed;
  if (engine_->queue_ != nullptr && engine_->queue_->IsActive(target)) {
    return CompilationState::kCompiling;
  }
  return CompilationState::kIdle;
}

void Engine::OsrHostImpl::RequestOsrCompilation(CallTarget& target) {
  // Truffle compiles OSR code as a last-tier request (first tier with
  // Mode=latency); it never profiles.
  engine_->RequestCompilation(target, engine_->TierFor(/*last_tier_request=*/true));
}

int Engine::OsrHostImpl::RunOsrCode(CallTarget& target, InstalledCode& code, Frame& frame) {
  return engine_->RunOsr(target, code, frame);
}

Value Engine::OsrHostImpl::RunBytecodeOsrCode(CallTarget& target, InstalledCode& code,
                                              Frame& frame) {
  return engine_->RunBytecodeOsr(target, code, frame);
}

std::string Engine::OsrHostImpl::TraceName(const CallTarget& target) {
  return engine_->TargetColumn(target);
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

Value Engine::RunBytecodeOsr(CallTarget& target, InstalledCode& code, Frame& frame) {
  using Pe = pe::PartialEvaluator;
  // The code's arguments (Pe::BytecodeOsrArgument): the frame's storage,
  // whose locals and operand stack it loads at entry and keeps current
  // around calls that may run guest code (stack walks read the locals), and
  // the activation's own arguments. Plain addresses, no guest objects.
  const absl::Span<const Value> arguments = frame.arguments();
  Value entry[Pe::kBytecodeOsrArgumentCount];
  entry[Pe::kOsrFrameStorage] = Value::Long(reinterpret_cast<intptr_t>(frame.slot_storage()));
  entry[Pe::kOsrArguments] = Value::Long(reinterpret_cast<intptr_t>(arguments.data()));
  entry[Pe::kOsrArgumentCount] = Value::Long(static_cast<int64_t>(arguments.size()));
  OsrActivation activation{&frame};
  activation.runs_to_end = true;
  OsrActivationScope scope(&activation);
  // The function's result, also after a deoptimization (the interpreter
  // then finished the function on the frame).
  return code.Invoke(target, absl::Span<const Value>(entry, Pe::kBytecodeOsrArgumentCount));
}

std::vector<CallTarget*> Engine::OsrTargetsOf(const RootNode& tree) const {
  std::vector<CallTarget*> targets;
  for (const auto& [loop, target] : osr_policy_->Loops()) {
    if (target != nullptr && target->root_node()->CompiledTreeRoot() == &tree) {
      targets.push_back(target);
    }
  }
  for (const osr::BytecodeOsrPolicy::Entry& entry : bytecode_osr_policy_->Entries()) {
    if (entry.target != nullptr && entry.root == &tree) targets.push_back(entry.target);
  }
  return targets;
}

}  // namespace morel::runtime
