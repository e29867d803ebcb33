#include "osr/osr_policy.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nodes/bytecode/bytecode_builder.h"
#include "nodes/bytecode/bytecode_root_node.h"
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
constexpr int64_t kOsrResult = 4242;

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
  Value RunBytecodeOsrCode(CallTarget&, InstalledCode& ran, Frame&) override {
    EXPECT_EQ(&ran, &code);
    ++runs;
    return Value::Long(kOsrResult);
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
    Frame frame(nullptr, slots_, {}, function_->root_node(), nullptr);
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
  Value slots_[2];
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

TEST_F(OsrPolicyTest, PollMask) {
  OsrOptions options;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).PollMask(), 1023);
  options.always_osr = true;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).PollMask(), 0);
  options.enabled = false;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).PollMask(), -1);
  options.enabled = true;
  host_.compilation_enabled = false;
  EXPECT_EQ(OsrPolicy(options, &host_, &log_).PollMask(), -1);
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
  EXPECT_FALSE(Poll(policy, 2048, &status));  // requested, no code yet
  ASSERT_EQ(host_.targets.size(), 1u);
  EXPECT_EQ(host_.requests, 1);
  auto* root = dynamic_cast<OsrRootNode*>(host_.targets[0]->root_node());
  ASSERT_NE(root, nullptr);
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

// Bytecode OSR: entries are (root, bci) of a bytecode function.
class BytecodeOsrPolicyTest : public ::testing::Test {
 protected:
  BytecodeOsrPolicyTest() : host_(&runtime_) {
    // f(c) { x = 0; while (c) {} return 1 } -- two loop headers would do
    // as well: the policy keys entries by bci.
    bytecode::BytecodeBuilder b;
    b.EmitConstant(Value::Long(0));
    b.EmitStoreLocal(0);
    auto header = b.NewLabel(), exit = b.NewLabel();
    b.Bind(header);
    header_bci_ = b.bci();
    b.EmitArgument(0, Value::Boolean(false));
    b.EmitBranchFalse(exit);
    b.EmitBranch(header);
    b.Bind(exit);
    b.EmitConstant(Value::Long(1));
    b.EmitReturn();
    auto program = std::move(b).Build();
    EXPECT_TRUE(program.ok()) << program.status();
    auto descriptor = std::make_unique<FrameDescriptor>();
    descriptor->AddSlot("x");
    auto root = std::make_unique<bytecode::BytecodeRootNode>(
        SourceSection(), "f", std::move(descriptor), std::move(*program));
    root_ = root.get();
    function_ = runtime_.CreateCallTarget(std::move(root));
    slots_.assign(root_->frame_storage_size(), Value::Illegal());
  }

  // Polls `policy` as BytecodeRootNode's back edge to `bci` does.
  bool Poll(OsrPolicy& policy, int back_edges, Value* result, int bci = -1) {
    Frame frame(&root_->frame_descriptor(), slots_.data(), {}, root_, nullptr);
    return policy.PollBytecode(*root_, bci < 0 ? header_bci_ : bci, frame, back_edges, result);
  }

  test_language::TestRuntime runtime_;
  FakeHost host_;
  RecordingLog log_;
  CallTarget* function_ = nullptr;
  bytecode::BytecodeRootNode* root_ = nullptr;
  int header_bci_ = -1;
  std::vector<Value> slots_;
};

TEST_F(BytecodeOsrPolicyTest, TheThresholdIsExact) {
  OsrOptions options;
  options.compilation_threshold = 2048;
  OsrPolicy policy(options, &host_, &log_);
  Value result;
  // Truffle's BytecodeOSRMetadata: a poll at count >= threshold.
  EXPECT_FALSE(Poll(policy, 1024, &result));
  EXPECT_FALSE(Poll(policy, 2047, &result));
  EXPECT_TRUE(host_.targets.empty());
  EXPECT_FALSE(Poll(policy, 2048, &result));  // requested, no code yet
  ASSERT_EQ(host_.targets.size(), 1u);
  EXPECT_EQ(host_.requests, 1);
  auto* root = dynamic_cast<BytecodeOsrRootNode*>(host_.targets[0]->root_node());
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->function_root(), root_);
  EXPECT_EQ(root->entry_bci(), header_bci_);
  EXPECT_EQ(root->CompiledTreeRoot(), root_);
  EXPECT_TRUE(root->IsInternal());
  EXPECT_EQ(host_.targets[0]->name(), absl::StrCat("f<OSR@", header_bci_, ">"));
  ASSERT_EQ(policy.BytecodeEntries().size(), 1u);
  EXPECT_EQ(policy.BytecodeEntries()[0].root, root_);
  EXPECT_EQ(policy.BytecodeEntries()[0].bci, header_bci_);
  EXPECT_EQ(policy.BytecodeEntries()[0].target, host_.targets[0].get());
  EXPECT_TRUE(policy.Loops().empty());
}

TEST_F(BytecodeOsrPolicyTest, RunsInstalledCodeOfOneTargetPerEntry) {
  OsrOptions options;
  options.compilation_threshold = 1024;
  host_.install_on_request = true;
  OsrPolicy policy(options, &host_, &log_);
  Value result;
  EXPECT_TRUE(Poll(policy, 1024, &result));  // compiled at once and entered
  EXPECT_EQ(result.AsLong(), kOsrResult);
  EXPECT_TRUE(Poll(policy, 4096, &result));  // the same target's code again
  EXPECT_EQ(host_.requests, 1);
  EXPECT_EQ(host_.runs, 2);
  EXPECT_EQ(host_.targets.size(), 1u);
  // Another bci of the same root is another entry (its own target).
  EXPECT_TRUE(Poll(policy, 1024, &result, /*bci=*/0));
  ASSERT_EQ(host_.targets.size(), 2u);
  EXPECT_EQ(host_.targets[1]->name(), "f<OSR@0>");
  EXPECT_EQ(policy.BytecodeEntries().size(), 2u);
}

TEST_F(BytecodeOsrPolicyTest, AlwaysOsrIgnoresTheThreshold) {
  OsrOptions options;
  options.always_osr = true;
  host_.install_on_request = true;
  OsrPolicy policy(options, &host_, &log_);
  Value result;
  EXPECT_TRUE(Poll(policy, 1, &result));
  EXPECT_EQ(result.AsLong(), kOsrResult);
}

TEST_F(BytecodeOsrPolicyTest, ReattemptLimitDisablesWithTrace) {
  OsrOptions options;
  options.compilation_threshold = 0;
  options.max_compilation_re_attempts = 2;
  options.trace_compilation = true;
  OsrPolicy policy(options, &host_, &log_);
  Value result;
  // The first request is free, then two re-attempts (the code went away
  // each time); the third disables the entry.
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(Poll(policy, 1024, &result));
  EXPECT_EQ(host_.requests, 3);
  EXPECT_FALSE(policy.IsDisabled(*root_, header_bci_));
  EXPECT_FALSE(Poll(policy, 1024, &result));
  EXPECT_TRUE(policy.IsDisabled(*root_, header_bci_));
  ASSERT_EQ(log_.lines.size(), 1u);
  EXPECT_EQ(log_.lines[0], absl::StrCat("opt osr disabled f<OSR@", header_bci_,
                                        ">|Reason Max OSR compilation re-attempts reached (2)"));
  // Disabled for good: no request, no second trace line, no code run.
  host_.install_on_request = true;
  EXPECT_FALSE(Poll(policy, 1024, &result));
  EXPECT_EQ(host_.requests, 3);
  EXPECT_EQ(host_.runs, 0);
  EXPECT_EQ(log_.lines.size(), 1u);
}

TEST_F(BytecodeOsrPolicyTest, PermanentFailureDisables) {
  OsrOptions options;
  options.compilation_threshold = 0;
  options.trace_compilation = true;
  OsrPolicy policy(options, &host_, &log_);
  Value result;
  EXPECT_FALSE(Poll(policy, 1024, &result));
  host_.state = OsrHost::CompilationState::kFailed;
  EXPECT_FALSE(Poll(policy, 1024, &result));
  EXPECT_TRUE(policy.IsDisabled(*root_, header_bci_));
  EXPECT_EQ(host_.requests, 1);
  ASSERT_EQ(log_.lines.size(), 1u);
  EXPECT_EQ(log_.lines[0], absl::StrCat("opt osr disabled f<OSR@", header_bci_,
                                        ">|Reason OSR compilation failed"));
}

}  // namespace
}  // namespace morel::osr
