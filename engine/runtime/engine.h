#ifndef MOREL_ENGINE_RUNTIME_ENGINE_H_
#define MOREL_ENGINE_RUNTIME_ENGINE_H_

// Engine: runs call targets and owns everything shared by them: the
// configuration, the log, the call targets, and the runtime's reactions to
// what nodes report (NodeRuntime). One engine per guest context.
//
// Implemented so far: call-target creation and ownership (split copies
// included), polymorphism event counting per node class, the log sink, and
// splitting (delegated to splitting::SplittingStrategy, which prints
// TraceSplittingSummary when the engine closes). Compilation and OSR plug in
// here as their packages arrive (issues #5, #6 and the OSR issue).

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/config/engine_config.pb.h"
#include "engine/ir/runtime_function.h"
#include "engine/runtime/engine_log.h"
#include "nodes/call_target.h"
#include "nodes/node_runtime.h"
#include "splitting/splitting_strategy.h"

namespace morel::runtime {

class Engine : public NodeRuntime {
 public:
  // Fails if the configuration names a log file that cannot be opened.
  static absl::StatusOr<std::unique_ptr<Engine>> Create(
      config::EngineConfig config);
  // Closes the engine (see Close()) and destroys the call targets.
  ~Engine() override;

  // Ends the engine's life for reporting: prints the summaries that Truffle
  // prints at engine close (TraceSplittingSummary). Idempotent; the
  // destructor calls it.
  void Close();

  const config::EngineConfig& config() const { return config_; }
  EngineLog& log() { return *log_; }

  // NodeRuntime
  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override;
  void OnPolymorphicSpecialize(Node& source) override;
  CallTarget* BeforeDirectCall(DirectCallNode& call, CallTarget* target) override;
  bool ForceSplit(DirectCallNode& call) override;

  splitting::SplittingStrategy& splitting() { return *splitting_; }

  // ---- compilation (engine/runtime/compiler.h)
  void OnCompilationThreshold(CallTarget& target) override;
  // The call target with `id` in any engine of the process (ids are
  // process-unique): how a deoptimization finds the frame's target.
  static CallTarget* FindCallTargetInProcess(int64_t id);
  // Compiled code of `target` deoptimized (it is dropped: the target goes
  // back to the interpreter, re-profiles and may compile again).
  void OnDeoptimized(CallTarget& target, const std::string& reason);
  // Drops every installed code (e.g. a function was redefined).
  void InvalidateAllCode(const std::string& reason);
  ir::RuntimeRegistry& runtime_functions() { return runtime_functions_; }

  // Polymorphic specialization reports so far, per node class (kind name).
  std::map<std::string, int> PolymorphicReportsByNodeClass() const;
  int polymorphic_report_count() const;

  // Every call target created, split copies included, in creation order.
  std::vector<CallTarget*> call_targets() const;

 private:
  Engine(config::EngineConfig config, std::unique_ptr<EngineLog> log);

  config::EngineConfig config_;
  std::unique_ptr<EngineLog> log_;
  std::unique_ptr<splitting::SplittingStrategy> splitting_;

  mutable std::mutex lock_;
  std::vector<std::unique_ptr<CallTarget>> call_targets_;
  std::map<std::string, int> reports_by_class_;
  int report_count_ = 0;

  // Compilation policy and state.
  void ConfigureCompilation(CallTarget& target);
  int FirstThreshold() const;
  void Compile(CallTarget& target);
  std::string TargetColumn(const CallTarget& target) const;

  ir::RuntimeRegistry runtime_functions_;
  struct CompilationState {
    int successful = 0;
    bool failed = false;
  };
  std::map<const CallTarget*, CompilationState> compilations_;
  // Installed and dropped code; never freed while the engine lives,
  // since activations of dropped code may still be running.
  std::vector<std::unique_ptr<InstalledCode>> code_;
};

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_ENGINE_H_
