#ifndef MOREL_ENGINE_RUNTIME_ENGINE_H_
#define MOREL_ENGINE_RUNTIME_ENGINE_H_

// Engine: runs call targets and owns everything shared by them: the
// configuration, the log, the call targets, and the runtime's reactions to
// what nodes report (NodeRuntime). One engine per guest context.
//
// Implemented so far: call-target creation and ownership, polymorphism event
// counting per node class, the log sink. Splitting, compilation and OSR plug
// in here as their packages arrive (issues #4, #5, #6 and the OSR issue).

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine_log.h"
#include "nodes/call_target.h"
#include "nodes/node_runtime.h"

namespace morel::runtime {

class Engine : public NodeRuntime {
 public:
  // Fails if the configuration names a log file that cannot be opened.
  static absl::StatusOr<std::unique_ptr<Engine>> Create(
      config::EngineConfig config);
  ~Engine() override;

  const config::EngineConfig& config() const { return config_; }
  EngineLog& log() { return *log_; }

  // NodeRuntime
  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override;
  void OnPolymorphicSpecialize(Node& source) override;

  // Polymorphic specialization reports so far, per node class (kind name).
  std::map<std::string, int> PolymorphicReportsByNodeClass() const;
  int polymorphic_report_count() const;

  // Every call target created, in creation order.
  std::vector<CallTarget*> call_targets() const;

 private:
  Engine(config::EngineConfig config, std::unique_ptr<EngineLog> log);

  config::EngineConfig config_;
  std::unique_ptr<EngineLog> log_;

  mutable std::mutex lock_;
  std::vector<std::unique_ptr<CallTarget>> call_targets_;
  std::map<std::string, int> reports_by_class_;
  int report_count_ = 0;
};

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_ENGINE_H_
