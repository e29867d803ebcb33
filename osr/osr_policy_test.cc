#include "osr/osr_policy.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel::osr {
namespace {

using test_language::Add;
using test_language::Arg;
using test_language::Block;
using test_language::Const;
using test_language::DefineFunction;
using test_language::LessThan;
using test_language::Read;
using test_language::While;
using test_language::Write;

constexpr int kOsrStatus = 42;

class NoCode final : public InstalledCode {
 public:
  Value Invoke(CallTarget&, absl::Span<const Value>) override { return Value::Illegal(); }
};

// A compiler that records what the policy asks of it.
class FakeHost final : public OsrHost {
 public:
  explicit FakeHost(NodeRuntime* runtime) : runtime_(runtime) {}

  bool CompilationEnabled() override { return compilation_enabled; }
  bool Closed() override { return closed; }
  CallTarget* CreateOsrTarget(std::unique_ptr<RootNode> root) override {
    targets.push_back(std::make_unique<CallTarget>(std::move(root), runtime_));
    return targets.back().get();
  }
  CompilationState OsrCompilationState(CallTarget&) override { return state; }
  void RequestOsrCompilation(CallTarget& target) override {
    ++requests;
    if (install_on_request) target.set_installed_code(&code);
  }
  int RunOsrCode(CallTarget&, InstalledCode& ran, Frame&) override {
    EXPECT_EQ(&ran, &code);
    ++runs;
    return kOsrStatus;
  }

  bool compilation_enabled = true;
  bool closed = false;
  bool install_on_request = false;
  CompilationState state = CompilationState::kIdle;
  int requests = 0;
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

class OsrPolicyTest : public ::testing::Test {
 protected:
  OsrPolicyTest() : host_(&runtime_) {
    // f(n) { i = 0; while (i < n) i = i + 1; i }
    auto descriptor = std::make_unique<FrameDescriptor>();
    const int i = descriptor->AddSlot("i");
    function_ = DefineFunction(
        runtime_, "f",
        Block(Write(i, Const(0)),
              While(LessThan(Read(i), Arg(0)), Write(i, Add(Read(i), Const(1)))), Read(i)),
        std::move(descriptor));
    function_->root_node()->ForEachNode([&](Node& node) {
      if (auto* loop = dynamic_cast<LoopNode*>(&node)) loop_ = loop;
    });
  }

  // Polls `policy` as LoopNode does after `iterations` iterations.
  bool Poll(OsrPolicy& policy, int iterations, int* status) {
    Frame frame(&function_->root_node()->frame_descriptor(), slots_, {}, function_->root_node(),
                nullptr);
    return policy.Poll(*loop_, frame, iterations, status);
  }

  std::string DisabledLine(const std::string& reason) const {
    return absl::StrCat("opt osr disabled ", host_.targets.at(0)->name(), "|Reason ", reason);
  }

  test_language::TestRuntime runtime_;
  FakeHost host_;
  RecordingLog log_;
  CallTarget* function_ = nullptr;
  LoopNode* loop_ = nullptr;
  Value slots_[2] = {Value::Illegal(), Value::Illegal()};  // i, the scratch slot
};

// Truffle's defaults (truffle_reference.md); that they are also the
// EngineConfig's is engine/runtime/osr_config_test.
TEST_F(OsrPolicyTest, DefaultsAreTruffles) {
  OsrOptions options;
  EXPECT_TRUE(options.enabled);
  EXPECT_FALSE(options.always_osr);
  EXPECT_EQ(options.compilation_threshold, 100352);
  EXPECT_EQ(options.max_compilation_re_attempts, 30);
  EXPECT_FALSE(options.trace_compilation);
}

TEST_F(OsrPolicyTest, ThresholdAndPollInterval) {
  OsrOptions options;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).LoopThreshold(), 100352);
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).PollInterval(), 1024);
  options.always_osr = true;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).LoopThreshold(), 0);
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).PollInterval(), 1);
  options.enabled = false;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).LoopThreshold(), -1);
  options.enabled = true;
  host_.compilation_enabled = false;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).LoopThreshold(), -1);
}

TEST_F(OsrPolicyTest, RequestsAfterTheThreshold) {
  ASSERT_NE(loop_, nullptr);
  OsrOptions options;
  options.compilation_threshold = 2000;
  OsrPolicy policy(options, &host_, &log_);
  int status = -1;
  EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_FALSE(Poll(policy, 2000, &status));
  EXPECT_TRUE(host_.targets.empty());
  EXPECT_EQ(host_.requests, 0);
  slots_[0] = Value::Long(2048);
  EXPECT_FALSE(Poll(policy, 2048, &status));  // requested, no code yet
  ASSERT_EQ(host_.targets.size(), 1u);
  EXPECT_EQ(host_.requests, 1);
  auto* root = dynamic_cast<OsrRootNode*>(host_.targets[0]->root_node());
  ASSERT_NE(root, nullptr);
  // The request recorded the frame's tags, which the compiled code
  // speculates on at its entry.
  EXPECT_EQ(root->entry_tags().Get(), std::vector<ValueTag>{kLongTag});
  EXPECT_EQ(root->loop(), loop_);
  EXPECT_EQ(root->function_root(), function_->root_node());
  EXPECT_EQ(policy.Loops().size(), 1u);
  EXPECT_EQ(policy.Loops()[0].second, host_.targets[0].get());
  EXPECT_EQ(status, -1);
}

TEST_F(OsrPolicyTest, RunsInstalledCode) {
  OsrOptions options;
  options.compilation_threshold = 10;
  host_.install_on_request = true;
  OsrPolicy policy(options, &host_, &log_);
  int status = -1;
  EXPECT_TRUE(Poll(policy, 1024, &status));  // compiled at once and entered
  EXPECT_EQ(status, kOsrStatus);
  EXPECT_TRUE(Poll(policy, 1024, &status));  // the next entry reuses the code
  EXPECT_EQ(host_.requests, 1);
  EXPECT_EQ(host_.runs, 2);
  EXPECT_EQ(host_.targets.size(), 1u);
}

TEST_F(OsrPolicyTest, AlwaysOsrIgnoresTheThreshold) {
  OsrOptions options;
  options.always_osr = true;
  host_.install_on_request = true;
  OsrPolicy policy(options, &host_, &log_);
  int status = -1;
  EXPECT_TRUE(Poll(policy, 1, &status));
  EXPECT_EQ(status, kOsrStatus);
}

TEST_F(OsrPolicyTest, StillCompilingIsNoReattempt) {
  OsrOptions options;
  options.compilation_threshold = 0;
  options.max_compilation_re_attempts = 1;
  OsrPolicy policy(options, &host_, &log_);
  int status;
  EXPECT_FALSE(Poll(policy, 1024, &status));  // the first request
  host_.state = OsrHost::CompilationState::kCompiling;
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_EQ(host_.requests, 1);
  EXPECT_FALSE(policy.IsDisabled(*loop_));
}

TEST_F(OsrPolicyTest, ReattemptLimitDisablesWithTrace) {
  OsrOptions options;
  options.compilation_threshold = 0;
  options.max_compilation_re_attempts = 2;
  options.trace_compilation = true;
  OsrPolicy policy(options, &host_, &log_);
  int status;
  // The first request is free, then two re-attempts; the third disables.
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_EQ(host_.requests, 3);
  EXPECT_FALSE(policy.IsDisabled(*loop_));
  EXPECT_TRUE(log_.lines.empty());
  EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_TRUE(policy.IsDisabled(*loop_));
  EXPECT_EQ(host_.requests, 3);
  ASSERT_EQ(log_.lines.size(), 1u);
  EXPECT_EQ(log_.lines[0], DisabledLine("Max OSR compilation re-attempts reached (2)"));
  // Disabled for good: no request, no second trace line, code is not run.
  host_.install_on_request = true;
  EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_EQ(host_.requests, 3);
  EXPECT_EQ(log_.lines.size(), 1u);
}

TEST_F(OsrPolicyTest, PermanentFailureDisables) {
  OsrOptions options;
  options.compilation_threshold = 0;
  options.trace_compilation = true;
  OsrPolicy policy(options, &host_, &log_);
  int status;
  EXPECT_FALSE(Poll(policy, 1024, &status));
  host_.state = OsrHost::CompilationState::kFailed;
  EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_TRUE(policy.IsDisabled(*loop_));
  EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_EQ(host_.requests, 1);
  ASSERT_EQ(log_.lines.size(), 1u);
  EXPECT_EQ(log_.lines[0], DisabledLine("OSR compilation failed"));
}

TEST_F(OsrPolicyTest, NoTraceWithoutTraceCompilationOrSink) {
  OsrOptions options;
  options.compilation_threshold = 0;
  options.max_compilation_re_attempts = 0;
  host_.state = OsrHost::CompilationState::kFailed;
  OsrPolicy policy(options, &host_, &log_);
  int status;
  EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_TRUE(policy.IsDisabled(*loop_));
  EXPECT_TRUE(log_.lines.empty());
  options.trace_compilation = true;
  OsrPolicy unlogged(options, &host_, /*log=*/nullptr);
  EXPECT_FALSE(Poll(unlogged, 1024, &status));
  EXPECT_TRUE(unlogged.IsDisabled(*loop_));
}

TEST_F(OsrPolicyTest, ClosedHostRequestsNothing) {
  OsrOptions options;
  options.compilation_threshold = 0;
  host_.closed = true;
  OsrPolicy policy(options, &host_, &log_);
  int status;
  EXPECT_FALSE(Poll(policy, 1024, &status));
  EXPECT_TRUE(host_.targets.empty());
  EXPECT_EQ(host_.requests, 0);
}

// LoopNode on a runtime that delegates to the policy (the engine's
// wiring): Truffle's profilingLoop counts every iteration, so OSR happens at
// the first iteration above the threshold, never at exactly it, and an
// outer loop's count includes its inner loops' iterations.
class PolicyRuntime final : public test_language::TestRuntime {
 public:
  int OsrLoopThreshold() override { return policy->LoopThreshold(); }
  int OsrLoopPollInterval() override { return policy->PollInterval(); }
  bool PollOSR(LoopNode& loop, Frame& frame, int count, int* status) override {
    counts.push_back(count);
    return policy->Poll(loop, frame, count, status);
  }
  OsrPolicy* policy = nullptr;
  std::vector<int> counts;
};

class LoopOsrTest : public ::testing::Test {
 protected:
  LoopOsrTest() : host_(&runtime_) {
    OsrOptions options;
    options.compilation_threshold = 3000;
    policy_ = std::make_unique<OsrPolicy>(options, &host_, &log_);
    runtime_.policy = policy_.get();
  }

  // while (slot < limit) slot = slot + 1
  static test_language::Expr CountTo(int slot, test_language::Expr limit) {
    return While(LessThan(Read(slot), std::move(limit)), Write(slot, Add(Read(slot), Const(1))));
  }

  PolicyRuntime runtime_;
  FakeHost host_;
  RecordingLog log_;
  std::unique_ptr<OsrPolicy> policy_;
};

TEST_F(LoopOsrTest, TheThresholdIsExact) {
  host_.install_on_request = true;
  auto descriptor = std::make_unique<FrameDescriptor>();
  const int i = descriptor->AddSlot("i");
  CallTarget* f = DefineFunction(
      runtime_, "f", Block(Write(i, Const(0)), CountTo(i, Arg(0)), Read(i)), std::move(descriptor));
  // Exactly the threshold: no poll at all.
  EXPECT_EQ(f->Call({Value::Long(3000)}).AsLong(), 3000);
  EXPECT_TRUE(runtime_.counts.empty());
  EXPECT_EQ(host_.runs, 0);
  // One more: the poll at iteration 3001 compiles (at once here) and enters.
  f->Call({Value::Long(3001)});
  ASSERT_EQ(runtime_.counts.size(), 1u);
  EXPECT_EQ(runtime_.counts[0], 3001);
  EXPECT_EQ(host_.requests, 1);
  EXPECT_EQ(host_.runs, 1);
  // The loop has an OSR target: the next entry enters its code at the first
  // iteration (Truffle's compilingLoop), without a new request.
  runtime_.counts.clear();
  f->Call({Value::Long(10)});
  ASSERT_EQ(runtime_.counts.size(), 1u);
  EXPECT_EQ(runtime_.counts[0], 1);
  EXPECT_EQ(host_.requests, 1);
  EXPECT_EQ(host_.runs, 2);
  // Without code (dropped) and not compiling: back to profiling; entries
  // below the threshold then poll once and never request.
  host_.targets[0]->set_installed_code(nullptr);
  runtime_.counts.clear();
  f->Call({Value::Long(2000)});
  f->Call({Value::Long(2000)});
  EXPECT_EQ(runtime_.counts, std::vector<int>{1});
  EXPECT_EQ(host_.requests, 1);
}

TEST_F(LoopOsrTest, SiblingLoopsAreCompiledIndependently) {
  host_.install_on_request = true;
  // f(n) { i = 0; while (i < n) i = i + 1; j = 0; while (j < n) j = j + 1; j }
  auto descriptor = std::make_unique<FrameDescriptor>();
  const int i = descriptor->AddSlot("i");
  const int j = descriptor->AddSlot("j");
  CallTarget* f = DefineFunction(runtime_, "f",
                                 Block(Write(i, Const(0)), CountTo(i, Arg(0)), Write(j, Const(0)),
                                       CountTo(j, Arg(0)), Read(j)),
                                 std::move(descriptor));
  // Each loop counts its own iterations: neither passes 3000 with n = 2000
  // (a sibling's iterations are not an inner loop's).
  f->Call({Value::Long(2000)});
  EXPECT_TRUE(runtime_.counts.empty());
  // With n = 3001 each loop gets its own OSR target.
  f->Call({Value::Long(3001)});
  EXPECT_EQ(runtime_.counts, (std::vector<int>{3001, 3001}));
  ASSERT_EQ(host_.targets.size(), 2u);
  EXPECT_NE(dynamic_cast<OsrRootNode*>(host_.targets[0]->root_node())->loop(),
            dynamic_cast<OsrRootNode*>(host_.targets[1]->root_node())->loop());
  EXPECT_EQ(policy_->Loops().size(), 2u);
}

TEST_F(LoopOsrTest, InnerLoopsCountTowardTheOuterLoop) {
  // f(n) { i = 0; while (i < n) { j = 0; while (j < 1000) j = j + 1; i = i + 1 } }
  auto descriptor = std::make_unique<FrameDescriptor>();
  const int i = descriptor->AddSlot("i");
  const int j = descriptor->AddSlot("j");
  CallTarget* f = DefineFunction(
      runtime_, "f",
      Block(Write(i, Const(0)),
            While(LessThan(Read(i), Arg(0)),
                  Block(Write(j, Const(0)), CountTo(j, Const(1000)),
                        Write(i, Add(Read(i), Const(1))))),
            Read(i)),
      std::move(descriptor));
  std::vector<LoopNode*> loops;
  f->root_node()->ForEachNode([&](Node& node) {
    if (auto* loop = dynamic_cast<LoopNode*>(&node)) loops.push_back(loop);
  });
  ASSERT_EQ(loops.size(), 2u);
  // No entry of the inner loop passes 1000 iterations; the outer loop's
  // count after its third iteration is 3 + 3 x 1000 > 3000: its poll.
  EXPECT_EQ(f->Call({Value::Long(5)}).AsLong(), 5);
  ASSERT_FALSE(runtime_.counts.empty());
  EXPECT_EQ(runtime_.counts[0], 3003);
  ASSERT_EQ(host_.targets.size(), 1u);
  auto* root = dynamic_cast<OsrRootNode*>(host_.targets[0]->root_node());
  ASSERT_NE(root, nullptr);
  EXPECT_TRUE(root->loop() == loops[0] || root->loop() == loops[1]);
  EXPECT_EQ(root->loop()->parent()->GetRootNode(), f->root_node());
  // Which one: the outer (the inner one is its descendant).
  bool outer = false;
  for (Node* node = loops[0]->parent(); node != nullptr; node = node->parent()) {
    if (node == root->loop()) outer = true;
  }
  for (Node* node = loops[1]->parent(); node != nullptr; node = node->parent()) {
    if (node == root->loop()) outer = true;
  }
  EXPECT_TRUE(outer);
  // The count starts over with the next entry of the outer loop.
  for (LoopNode* loop : loops) EXPECT_EQ(loop->base_loop_count(), 0);
}

}  // namespace
}  // namespace morel::osr
