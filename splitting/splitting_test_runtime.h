#ifndef MOREL_SPLITTING_SPLITTING_TEST_RUNTIME_H_
#define MOREL_SPLITTING_SPLITTING_TEST_RUNTIME_H_

// SplittingTestRuntime: the smallest NodeRuntime that splits — it owns its
// call targets and delegates to a SplittingStrategy exactly as the engine
// does, and records the "Split call node" notifications. Lets splitting/ be
// tested on its own, without engine/ (testonly).

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/log_sink.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/node_runtime.h"
#include "splitting/splitting_strategy.h"

namespace morel::splitting {

// Writes "[engine] <message>" lines, as the engine's EngineLog does, to a
// file (truncated) or to stderr.
class TestLogSink final : public LogSink {
 public:
  // An empty path, or one that cannot be opened, means stderr.
  explicit TestLogSink(const std::string& path);
  ~TestLogSink() override;
  TestLogSink(const TestLogSink&) = delete;
  TestLogSink& operator=(const TestLogSink&) = delete;

  void Log(absl::string_view message) override;

 private:
  std::mutex lock_;
  std::FILE* file_;
};

class SplittingTestRuntime : public NodeRuntime {
 public:
  struct Notification {
    CallTarget* caller;
    Node* node;
    std::string reason;
  };

  // Logs to `log_path` (empty: stderr).
  explicit SplittingTestRuntime(const SplittingOptions& options,
                                const std::string& log_path = "");
  ~SplittingTestRuntime() override;

  SplittingStrategy& strategy() { return *strategy_; }

  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override;
  void OnPolymorphicSpecialize(Node& source) override;
  CallTarget* BeforeDirectCall(DirectCallNode& call, CallTarget* target) override;
  bool ForceSplit(DirectCallNode& call) override;
  void OnNodeReplaced(CallTarget& target, Node& old_node, Node& new_node,
                      absl::string_view reason) override;

  // Split copies made so far, in creation order.
  std::vector<CallTarget*> split_targets() const;
  std::vector<Notification> notifications() const;

 private:
  TestLogSink log_;
  std::unique_ptr<SplittingStrategy> strategy_;
  mutable std::mutex lock_;
  std::vector<std::unique_ptr<CallTarget>> targets_;
  std::vector<CallTarget*> splits_;
  std::vector<Notification> notifications_;
};

}  // namespace morel::splitting

#endif  // MOREL_SPLITTING_SPLITTING_TEST_RUNTIME_H_
