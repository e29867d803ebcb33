#include "osr/bytecode_osr_policy.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nodes/bytecode_osr_node.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/root_node.h"
#include "osr/bytecode_osr_root_node.h"
#include "testing/test_language/test_runtime.h"

// The policy with a language's own BytecodeOSRNode (not nodes/bytecode): a
// "bytecode" loop written in C++ that counts local 0 up to argument 0, one
// back edge to one of two loop headers per iteration but the last, and a
// fake compiler whose "code" runs the node's ExecuteOSR -- Truffle's
// BytecodeOSRNodeTest, on the policy alone.

namespace morel::osr {
namespace {

constexpr int kHeaderA = 4;
constexpr int kHeaderB = 9;
constexpr int64_t kState = 77;  // the interpreter state the loop passes

class CountingLoop final : public RootNode, public BytecodeOSRNode {
 public:
  MOREL_NODE_KIND(CountingLoop)
  explicit CountingLoop(std::unique_ptr<FrameDescriptor> descriptor)
      : RootNode(SourceSection(), "count", std::move(descriptor)) {}

  // Argument 0: n; argument 1 (optional): the header, kHeaderA by default.
  Value Execute(Frame& frame) override {
    frame.Set(0, Value::Long(0));
    return Loop(frame, /*poll=*/true);
  }

  Value ExecuteOSR(Frame& osr_frame, int target, int64_t interpreter_state) override {
    ++osr_executions;
    osr_targets.push_back(target);
    EXPECT_EQ(interpreter_state, kState);
    EXPECT_EQ(Frame::Current(), &osr_frame);  // the OSR frame stands for the activation
    entry_values.push_back(osr_frame.Get(0).AsLong());
    return Loop(osr_frame, /*poll=*/false);
  }

  void CopyIntoOSRFrame(Frame& osr_frame, const Frame& parent_frame, int target) override {
    ++copies;
    BytecodeOSRNode::CopyIntoOSRFrame(osr_frame, parent_frame, target);
  }
  void RestoreParentFrame(const Frame& osr_frame, Frame& parent_frame) override {
    ++restores;
    BytecodeOSRNode::RestoreParentFrame(osr_frame, parent_frame);
  }
  void PrepareOSR(int target) override { prepared.push_back(target); }

  int osr_executions = 0;
  int copies = 0;
  int restores = 0;
  int before_transfers = 0;
  std::vector<int> osr_targets;
  std::vector<int64_t> entry_values;  // local 0 in the OSR frame at entry
  std::vector<int> prepared;
  int64_t parent_after_osr = -1;  // local 0 of the activation after OSR

 private:
  Value Loop(Frame& frame, bool poll) {
    const int64_t n = frame.arguments()[0].AsLong();
    const int header = frame.arguments().size() > 1 ? static_cast<int>(frame.arguments()[1].AsLong())
                                                    : kHeaderA;
    for (;;) {
      const int64_t i = frame.Get(0).AsLong();
      if (i >= n) return Value::Long(i);
      frame.Set(0, Value::Long(i + 1));
      if (i + 1 >= n) return Value::Long(i + 1);  // no back edge after the last
      if (poll && PollOSRBackEdge(*this)) {
        std::optional<Value> result =
            TryOSR(*this, header, kState, [&] { ++before_transfers; }, frame);
        if (result.has_value()) {
          parent_after_osr = frame.Get(0).AsLong();
          return *result;
        }
      }
    }
  }
};

class NoCode final : public InstalledCode {
 public:
  Value Invoke(CallTarget&, absl::Span<const Value>) override { return Value::Illegal(); }
};

// A compiler whose code is the OSR root run by the interpreter.
class FakeHost final : public OsrHost {
 public:
  explicit FakeHost(NodeRuntime* runtime) : runtime_(runtime) {}
  bool CompilationEnabled() override { return compilation_enabled; }
  CallTarget* CreateOsrTarget(std::unique_ptr<RootNode> root) override {
    targets.push_back(std::make_unique<CallTarget>(std::move(root), runtime_));
    return targets.back().get();
  }
  CompilationState OsrCompilationState(CallTarget& target) override {
    auto it = states.find(&target);
    return it == states.end() ? CompilationState::kIdle : it->second;
  }
  void RequestOsrCompilation(CallTarget& target) override {
    requested.push_back(&target);
    if (install_on_request) target.set_installed_code(&code);
    if (compile_in_background) states[&target] = CompilationState::kCompiling;
  }
  int RunOsrCode(CallTarget&, InstalledCode&, Frame&) override {
    ADD_FAILURE() << "no loop OSR here";
    return 0;
  }
  Value RunBytecodeOsrCode(CallTarget& target, InstalledCode& ran, Frame& osr_frame) override {
    EXPECT_EQ(&ran, &code);
    ++runs;
    return target.root_node()->Execute(osr_frame);
  }
  // Compilation `target` finished with code.
  void Finish(CallTarget& target) {
    states.erase(&target);
    target.set_installed_code(&code);
  }

  bool compilation_enabled = true;
  bool install_on_request = true;
  bool compile_in_background = false;
  std::map<CallTarget*, CompilationState> states;
  std::vector<CallTarget*> requested;
  int runs = 0;
  NoCode code;
  std::vector<std::unique_ptr<CallTarget>> targets;

 private:
  NodeRuntime* runtime_;
};

class RecordingLog final : public LogSink {
 public:
  void Log(absl::string_view message) override { lines.emplace_back(message); }
  std::vector<std::string> lines;
};

// The engine's wiring: NodeRuntime's bytecode OSR calls go to the policy.
class PolicyRuntime final : public test_language::TestRuntime {
 public:
  bool OnBytecodeOSRPoll(BytecodeOSRNode& node, int64_t previous, int64_t count) override {
    ++polls;
    return policy->OnPoll(node, previous, count);
  }
  std::optional<Value> TryBytecodeOSR(BytecodeOSRNode& node, int target_bci,
                                      int64_t interpreter_state,
                                      absl::FunctionRef<void()> before_transfer,
                                      Frame& parent_frame) override {
    ++tries;
    return policy->TryOSR(node, target_bci, interpreter_state, before_transfer, parent_frame);
  }
  BytecodeOsrPolicy* policy = nullptr;
  int polls = 0;
  int tries = 0;
};

class BytecodeOsrPolicyTest : public ::testing::Test {
 protected:
  static constexpr int kThreshold = 10 * 1024;  // BytecodeOSRNodeTest's

  BytecodeOsrPolicyTest() : host_(&runtime_) {
    options_.compilation_threshold = kThreshold;
    options_.max_compilation_re_attempts = 1;
    options_.trace_compilation = true;
  }

  // Creates the policy and the node (call before using them).
  void Start() {
    policy_ = std::make_unique<BytecodeOsrPolicy>(options_, &host_, &log_);
    runtime_.policy = policy_.get();
    auto descriptor = std::make_unique<FrameDescriptor>();
    descriptor->AddSlot("i");
    auto root = std::make_unique<CountingLoop>(std::move(descriptor));
    node_ = root.get();
    function_ = runtime_.CreateCallTarget(std::move(root));
  }

  int64_t Count(int64_t n, int header = kHeaderA) {
    return function_->Call({Value::Long(n), Value::Long(header)}).AsLong();
  }

  OsrOptions options_;
  PolicyRuntime runtime_;
  FakeHost host_;
  RecordingLog log_;
  std::unique_ptr<BytecodeOsrPolicy> policy_;
  CountingLoop* node_ = nullptr;
  CallTarget* function_ = nullptr;
};

TEST_F(BytecodeOsrPolicyTest, MetadataIsCreatedLazily) {
  Start();
  EXPECT_EQ(node_->GetOSRMetadata(), nullptr);
  EXPECT_EQ(Count(1), 1);  // no back edge
  EXPECT_EQ(node_->GetOSRMetadata(), nullptr);
  EXPECT_EQ(Count(2), 2);  // one back edge: the first poll creates it
  EXPECT_NE(node_->GetOSRMetadata(), nullptr);
  EXPECT_NE(node_->GetOSRMetadata(), BytecodeOSRMetadata::Disabled());
  // The next poll is due at the threshold (a multiple of 1024).
  EXPECT_EQ(node_->osr_next_poll(), kThreshold);
}

TEST_F(BytecodeOsrPolicyTest, OffWithoutOsrOrCompilation) {
  options_.enabled = false;
  Start();
  EXPECT_EQ(Count(3 * kThreshold), 3 * kThreshold);
  EXPECT_EQ(node_->GetOSRMetadata(), BytecodeOSRMetadata::Disabled());
  EXPECT_EQ(runtime_.polls, 1);  // and never again
  EXPECT_TRUE(host_.targets.empty());
  EXPECT_TRUE(policy_->IsDisabled(*node_));
}

TEST_F(BytecodeOsrPolicyTest, ThresholdPlusOneIterationsTriggerOsrExactlyTheThresholdDoesNot) {
  Start();
  // `threshold` iterations are threshold - 1 back edges: no OSR.
  EXPECT_EQ(Count(kThreshold), kThreshold);
  EXPECT_EQ(runtime_.tries, 0);
  EXPECT_TRUE(host_.targets.empty());
  // The count is the method's: the next activation's first back edge
  // reaches the threshold, and OSR runs the rest of it.
  EXPECT_EQ(Count(100), 100);
  EXPECT_EQ(runtime_.tries, 1);
  ASSERT_EQ(host_.targets.size(), 1u);
  EXPECT_EQ(host_.targets[0]->name(), absl::StrCat("count<OSR@", kHeaderA, ">"));
  auto* root = dynamic_cast<BytecodeOsrRootNode*>(host_.targets[0]->root_node());
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->osr_node(), node_);
  EXPECT_EQ(root->entry_bci(), kHeaderA);
  EXPECT_EQ(root->interpreter_state(), kState);
  EXPECT_EQ(root->CompiledTreeRoot(), node_);
  EXPECT_TRUE(root->IsInternal());
  // The request recorded the activation's tags (local 0, a long).
  EXPECT_EQ(root->entry_tags().Get(), std::vector<ValueTag>{kLongTag});
  EXPECT_EQ(node_->osr_executions, 1);
  EXPECT_EQ(node_->entry_values, std::vector<int64_t>{1});
  EXPECT_EQ(node_->prepared, std::vector<int>{kHeaderA});
}

TEST_F(BytecodeOsrPolicyTest, FrameTransferInterpreterStateAndBeforeTransfer) {
  Start();
  EXPECT_EQ(Count(kThreshold + 500), kThreshold + 500);
  EXPECT_EQ(node_->before_transfers, 1);
  EXPECT_EQ(node_->copies, 1);
  EXPECT_EQ(node_->restores, 1);
  // The OSR frame got the activation's locals at the threshold's back edge;
  // the activation's frame got the OSR frame's back at the end.
  EXPECT_EQ(node_->entry_values, std::vector<int64_t>{kThreshold});
  EXPECT_EQ(node_->parent_after_osr, kThreshold + 500);
  EXPECT_EQ(host_.runs, 1);
}

TEST_F(BytecodeOsrPolicyTest, OsrFiresAtTheLoopThatPolledEachWithItsOwnTarget) {
  Start();
  EXPECT_EQ(Count(kThreshold + 1, kHeaderB), kThreshold + 1);
  ASSERT_EQ(host_.targets.size(), 1u);
  EXPECT_EQ(node_->osr_targets, std::vector<int>{kHeaderB});
  EXPECT_EQ(host_.targets[0]->name(), absl::StrCat("count<OSR@", kHeaderB, ">"));
  // The other header: a target of its own, compiled at the secondary
  // threshold (the method's first request reset the count to the threshold).
  EXPECT_EQ(Count(kThreshold + 1, kHeaderA), kThreshold + 1);
  ASSERT_EQ(host_.targets.size(), 2u);
  EXPECT_EQ(node_->osr_targets, (std::vector<int>{kHeaderB, kHeaderA}));
  EXPECT_EQ(host_.requested.size(), 2u);
  EXPECT_EQ(policy_->Entries().size(), 2u);
}

TEST_F(BytecodeOsrPolicyTest, SecondaryThresholdAndBackOff) {
  host_.install_on_request = false;  // requested, then nothing installed
  Start();
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);
  EXPECT_EQ(host_.requested.size(), 1u);
  // The request reset the count to the threshold.
  EXPECT_EQ(node_->osr_back_edge_count(), kThreshold);
  // Polls every 1024 back edges, but no new request below 2 x threshold.
  EXPECT_EQ(Count(kThreshold - 1), kThreshold - 1);
  EXPECT_EQ(host_.requested.size(), 1u);
  EXPECT_GT(runtime_.tries, 5);
  // The back edge that reaches 2 x threshold requests again (a re-attempt).
  EXPECT_EQ(Count(3), 3);
  EXPECT_EQ(host_.requested.size(), 2u);
  EXPECT_EQ(host_.requested[1], host_.targets[0].get());  // the same target
  EXPECT_EQ(policy_->ReAttempts(*node_), 1);
}

TEST_F(BytecodeOsrPolicyTest, OneCompilationInFlightPerMethod) {
  host_.install_on_request = false;
  host_.compile_in_background = true;
  Start();
  EXPECT_EQ(Count(kThreshold + 1, kHeaderA), kThreshold + 1);  // A compiling
  ASSERT_EQ(host_.requested.size(), 1u);
  // B at the secondary threshold while A compiles: no request; the counter
  // is reset instead.
  EXPECT_EQ(Count(kThreshold + 1, kHeaderB), kThreshold + 1);
  EXPECT_EQ(host_.requested.size(), 1u);
  EXPECT_EQ(host_.targets.size(), 2u);
  EXPECT_LE(node_->osr_back_edge_count(), kThreshold + 1);
  // A done: B may compile at its next chance.
  host_.Finish(*host_.targets[0]);
  EXPECT_EQ(Count(kThreshold + 1, kHeaderB), kThreshold + 1);
  EXPECT_EQ(host_.requested.size(), 2u);
  EXPECT_EQ(host_.requested[1], host_.targets[1].get());
}

TEST_F(BytecodeOsrPolicyTest, TargetStartsWithTheFunctionsCountAndCountsPollsWhileCompiling) {
  host_.install_on_request = false;
  host_.compile_in_background = true;
  Start();
  EXPECT_EQ(Count(5), 5);
  EXPECT_EQ(Count(5), 5);
  EXPECT_EQ(runtime_.tries, 0);
  // The third call reaches the threshold: its target starts with the
  // function's 3 calls; that try and every later one while the compilation
  // is queued add the poll interval.
  EXPECT_EQ(Count(kThreshold + 4 * 1024), kThreshold + 4 * 1024);
  ASSERT_EQ(host_.targets.size(), 1u);
  EXPECT_EQ(function_->call_and_loop_count(), 3);
  EXPECT_GE(runtime_.tries, 4);
  EXPECT_EQ(host_.targets[0]->call_and_loop_count(), 3 + 1024 * runtime_.tries);
  // Installed: trying runs the code and counts nothing more.
  host_.Finish(*host_.targets[0]);
  const int count = host_.targets[0]->call_and_loop_count();
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);
  EXPECT_EQ(node_->osr_executions, 1);
  EXPECT_EQ(host_.targets[0]->call_and_loop_count(), count);
}

TEST_F(BytecodeOsrPolicyTest, SameTargetReusedAfterDeoptimization) {
  Start();
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);
  ASSERT_EQ(host_.targets.size(), 1u);
  CallTarget* target = host_.targets[0].get();
  // The code went away (a deoptimization that invalidated it, a replaced
  // node): the next request at the secondary threshold compiles the same
  // target again.
  target->set_installed_code(nullptr);
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);
  EXPECT_EQ(host_.targets.size(), 1u);
  ASSERT_EQ(host_.requested.size(), 2u);
  EXPECT_EQ(host_.requested[1], target);
  EXPECT_EQ(node_->osr_executions, 2);
  EXPECT_FALSE(policy_->IsDisabled(*node_));
}

TEST_F(BytecodeOsrPolicyTest, ReAttemptLimitDisablesTheMethodWithTrace) {
  host_.install_on_request = false;
  Start();
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);  // free
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);  // re-attempt 1 of 1
  EXPECT_EQ(host_.requested.size(), 2u);
  EXPECT_FALSE(policy_->IsDisabled(*node_));
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);  // re-attempt 2: disabled
  EXPECT_EQ(host_.requested.size(), 2u);
  EXPECT_TRUE(policy_->IsDisabled(*node_));
  ASSERT_EQ(log_.lines.size(), 1u);
  EXPECT_EQ(log_.lines[0], absl::StrCat("opt osr disabled count<OSR@", kHeaderA,
                                        ">|Reason Max OSR compilation re-attempts reached (1)"));
  // Disabled for good, for every entry: no polls, no requests.
  const int polls = runtime_.polls;
  EXPECT_EQ(Count(3 * kThreshold, kHeaderB), 3 * kThreshold);
  EXPECT_EQ(runtime_.polls, polls);
  EXPECT_EQ(host_.requested.size(), 2u);
  EXPECT_EQ(node_->osr_next_poll(), BytecodeOSRNode::kNeverPoll);
}

TEST_F(BytecodeOsrPolicyTest, UncompilableLoopReturnsTheNormalResultAndDisables) {
  host_.install_on_request = false;
  Start();
  EXPECT_EQ(Count(kThreshold + 1), kThreshold + 1);
  host_.states[host_.targets[0].get()] = OsrHost::CompilationState::kFailed;
  EXPECT_EQ(Count(1025), 1025);
  EXPECT_TRUE(policy_->IsDisabled(*node_));
  ASSERT_EQ(log_.lines.size(), 1u);
  EXPECT_EQ(log_.lines[0], absl::StrCat("opt osr disabled count<OSR@", kHeaderA,
                                        ">|Reason OSR compilation failed"));
}

TEST_F(BytecodeOsrPolicyTest, AlwaysOsrEntersAtTheFirstBackEdge) {
  options_.always_osr = true;
  Start();
  EXPECT_EQ(Count(10), 10);
  EXPECT_EQ(node_->entry_values, std::vector<int64_t>{1});
  EXPECT_EQ(host_.runs, 1);
}

TEST_F(BytecodeOsrPolicyTest, PollsOfABatchOfBackEdges) {
  Start();
  // An interpreter that counts back edges in a local hands them over in
  // batches: a batch that crosses a multiple of 1024 at or above the
  // threshold makes a poll due (Truffle's custom-increment poll).
  EXPECT_FALSE(BytecodeOSRNode::PollOSRBackEdge(*node_, 1));  // creates the metadata
  EXPECT_EQ(BytecodeOSRNode::BackEdgesUntilPoll(*node_), kThreshold - 1);
  EXPECT_FALSE(BytecodeOSRNode::PollOSRBackEdge(*node_, kThreshold - 2));
  EXPECT_TRUE(BytecodeOSRNode::PollOSRBackEdge(*node_, 5));  // crosses the threshold
  EXPECT_FALSE(BytecodeOSRNode::PollOSRBackEdge(*node_, 1000));
  EXPECT_TRUE(BytecodeOSRNode::PollOSRBackEdge(*node_, 100));  // crosses threshold + 1024
}

}  // namespace
}  // namespace morel::osr
