// On-stack replacement used alone (//osr depends on //nodes and //base
// only): a NodeRuntime delegates its OSR polls to osr::OsrPolicy, over a
// "compiler" (an osr::OsrHost) whose installed code is a C++ function that
// finishes the loop. The program is the test language's
//
//   count(n) { i = 0; while (i < n) i = i + 1; i }
//
// run once with n = 1000000 (OSR is what a loop in a function called once
// needs). The loop polls at its first iteration above the threshold (5000
// iterations): the policy asks the compiler for the loop's OSR target, which
// "compiles" it at once, and the poll enters the code: the rest of the loop
// runs in C++ on the interpreter's frame. Prints what happened and exits
// non-zero unless the OSR entry was taken and the result is right.

#include <cstdint>
#include <functional>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "base/log_sink.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/loop_node.h"
#include "osr/osr_policy.h"
#include "osr/osr_root_node.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace {

namespace osr = morel::osr;
namespace tl = morel::test_language;
using morel::CallTarget;
using morel::Frame;
using morel::InstalledCode;
using morel::LoopNode;
using morel::RootNode;
using morel::Value;

// "Machine code" for a loop: a C++ function that runs the rest of the loop
// on the activation's frame and returns the loop's status.
class CppCode final : public InstalledCode {
 public:
  explicit CppCode(std::function<int(Frame&)> body) : body_(std::move(body)) {}
  // OSR code is only entered through the poll (RunOsrCode), never called.
  Value Invoke(CallTarget&, absl::Span<const Value>) override { return Value::Illegal(); }
  int Run(Frame& frame) const { return body_(frame); }

 private:
  std::function<int(Frame&)> body_;
};

// The compiler: owns the OSR targets and "compiles" a loop at once into the
// C++ function it was given for it.
class ToyCompiler final : public osr::OsrHost {
 public:
  ToyCompiler(morel::NodeRuntime* runtime, std::function<int(Frame&)> loop_code)
      : runtime_(runtime), code_(std::move(loop_code)) {}

  bool CompilationEnabled() override { return true; }
  CallTarget* CreateOsrTarget(std::unique_ptr<RootNode> root) override {
    std::cout << "osr target created: " << root->name() << "\n";
    targets_.push_back(std::make_unique<CallTarget>(std::move(root), runtime_));
    return targets_.back().get();
  }
  CompilationState OsrCompilationState(CallTarget&) override { return CompilationState::kIdle; }
  void RequestOsrCompilation(CallTarget& target) override {
    ++requests;
    std::cout << "osr compilation requested: installing the C++ loop\n";
    target.set_installed_code(&code_);
  }
  int RunOsrCode(CallTarget&, InstalledCode& code, Frame& frame) override {
    ++entries;
    std::cout << "osr entry\n";
    return static_cast<CppCode&>(code).Run(frame);
  }

  int requests = 0;
  int entries = 0;

 private:
  morel::NodeRuntime* runtime_;
  CppCode code_;
  std::vector<std::unique_ptr<CallTarget>> targets_;
};

class StdoutLog final : public morel::LogSink {
 public:
  void Log(absl::string_view message) override { std::cout << "[osr] " << message << "\n"; }
};

// The test language's runtime, with OSR: LoopNode polls it, it asks the
// policy.
class OsrRuntime final : public tl::TestRuntime {
 public:
  void set_policy(osr::OsrPolicy* policy) { policy_ = policy; }
  int OsrLoopThreshold() override { return policy_->LoopThreshold(); }
  int OsrLoopPollInterval() override { return policy_->PollInterval(); }
  bool PollOSR(LoopNode& loop, Frame& frame, int count, int* status) override {
    ++polls;
    return policy_->Poll(loop, frame, count, status);
  }
  int polls = 0;

 private:
  osr::OsrPolicy* policy_ = nullptr;
};

}  // namespace

int main() {
  constexpr int64_t kN = 1000000;
  OsrRuntime runtime;
  auto descriptor = std::make_unique<morel::FrameDescriptor>();
  const int i = descriptor->AddSlot("i");
  CallTarget* count = tl::DefineFunction(
      runtime, "count",
      tl::Block(tl::Write(i, tl::Const(0)),
                tl::While(tl::LessThan(tl::Read(i), tl::Arg(0)),
                          tl::Write(i, tl::Add(tl::Read(i), tl::Const(1)))),
                tl::Read(i)),
      std::move(descriptor));

  int64_t interpreted = -1;  // iterations the interpreter ran before the entry
  ToyCompiler compiler(&runtime, [&](Frame& frame) {
    // The rest of `while (i < n) i = i + 1`, on the interpreter's frame.
    int64_t value = frame.Get(i).AsLong();
    interpreted = value;
    const int64_t n = frame.arguments()[0].AsLong();
    while (value < n) ++value;
    frame.Set(i, Value::Long(value));
    frame.descriptor().RecordWrite(i, frame.Get(i));
    return tl::WhileRepeatingNode::kBreakLoop;
  });
  StdoutLog log;
  osr::OsrOptions options;
  options.compilation_threshold = 5000;
  options.trace_compilation = true;
  osr::OsrPolicy policy(options, &compiler, &log);
  runtime.set_policy(&policy);

  const Value result = count->Call({Value::Long(kN)});
  std::cout << "count(" << kN << ") = " << result.AsLong() << " after " << runtime.polls
            << " polls; " << interpreted << " iterations interpreted, the rest in OSR code\n";
  const bool ok = result.AsLong() == kN && compiler.requests == 1 && compiler.entries == 1 &&
                  interpreted > options.compilation_threshold && interpreted < kN;
  if (!ok) std::cerr << "OSR did not happen as expected\n";
  return ok ? 0 : 1;
}
