#ifndef MOREL_TESTING_TEST_LANGUAGE_TEST_RUNTIME_H_
#define MOREL_TESTING_TEST_LANGUAGE_TEST_RUNTIME_H_

// TestRuntime: a NodeRuntime for framework tests. It owns the call targets it
// creates and records every event the node model reports (polymorphic
// specializations, node replacements, loop counts, direct-call creation and
// split consultations), so tests can assert on them without an Engine.
//
// Splitting is off unless a test asks for it: with split_on_call(true),
// BeforeDirectCall splits a needs-split callee for the calling node (an
// uninitialized copy; the caller registration moves to the copy).

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/node_runtime.h"

namespace morel::test_language {

class TestRuntime : public NodeRuntime {
 public:
  struct Replacement {
    CallTarget* target;
    std::string old_kind;
    std::string new_kind;
    std::string reason;
  };
  struct LoopReport {
    CallTarget* target;
    int iterations;
  };
  struct DirectCallConsultation {
    DirectCallNode* call;
    CallTarget* target;
  };

  TestRuntime();
  ~TestRuntime() override;

  // NodeRuntime
  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override;
  void OnPolymorphicSpecialize(Node& source) override;
  void OnDirectCallNodeCreated(DirectCallNode& call) override;
  CallTarget* BeforeDirectCall(DirectCallNode& call, CallTarget* target) override;
  void OnNodeReplaced(CallTarget& target, Node& old_node, Node& new_node,
                      absl::string_view reason) override;
  void OnLoopCount(CallTarget& target, int iterations) override;

  // A split copy of `source` (its root cloned uninitialized), owned here.
  CallTarget* CreateSplit(CallTarget* source);
  void set_split_on_call(bool split) { split_on_call_ = split; }
  // MaxStackFrames (NodeRuntime): 0, the default, for no limit.
  using NodeRuntime::set_max_stack_frames;

  // ---- recorded events (copies; safe to call while other threads run)
  std::vector<std::string> polymorphic_reports() const;  // kind names
  std::vector<Node*> polymorphic_report_sources() const;
  int polymorphic_report_count() const;
  std::vector<Replacement> replacements() const;
  std::vector<LoopReport> loop_reports() const;
  std::vector<DirectCallConsultation> direct_call_consultations() const;
  int direct_call_nodes_created() const;
  void ClearEvents();

 private:
  mutable std::mutex lock_;
  std::vector<std::unique_ptr<CallTarget>> targets_;
  bool split_on_call_ = false;
  std::vector<std::string> reports_;
  std::vector<Node*> report_sources_;
  std::vector<Replacement> replacements_;
  std::vector<LoopReport> loop_reports_;
  std::vector<DirectCallConsultation> consultations_;
  int direct_call_nodes_created_ = 0;
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_TEST_RUNTIME_H_
