// Deoptimization actions (ir::DeoptAction): a transfer to the interpreter
// that keeps the code (Truffle's transferToInterpreter()) sends only the
// deoptimizing activation back to the interpreter — the code stays
// installed, the next call runs it again, nothing counts toward deopt-cycle
// detection, and the trace says `|Invalidated false|` — while an
// invalidating one (transferToInterpreterAndInvalidate(), a failed
// speculation) drops the code, which recompiles and, deoptimizing at the
// same place again and again, ends in a deopt-cycle failure.
//
// The root is written directly against the partial evaluator (no language),
// in both tiers.

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/pe_context.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/testing/tier_test.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/resume.h"
#include "nodes/root_node.h"

namespace morel::runtime {
namespace {

// Returns its argument (a long) plus one. Compiled code leaves for the
// interpreter when the argument is negative, through the context's
// TransferToInterpreterIf (keeps the code) or, with `invalidate`, through
// TransferToInterpreterAndInvalidate. Counts the activations the
// interpreter ran from their start (interpreted) or finished after a
// deoptimization (resumed). The argument is kept in local 0 (a resumed
// activation finds it there, as in a language's roots).
class TransferRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(TransferRoot)
  explicit TransferRoot(bool invalidate)
      : RootNode({}, invalidate ? "invalidating" : "transferring", Descriptor()),
        invalidate_(invalidate) {}

  Value Execute(Frame& frame) override {
    ++interpreted_;
    frame.Set(0, frame.arguments()[0]);
    return Finish(frame);
  }
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome>) override {
    EXPECT_EQ(next_child, 0);
    ++resumed_;
    return Outcome::OfValue(Finish(frame));
  }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    ir::Builder& b = pe.builder();
    pe::PeContext& c = pe.context();
    pe.Enter(this);
    pe::PeValue x = pe.Argument(0, Value::Long(0));
    pe.SetLocal(0, x);
    ir::Value* negative = c.LongLess(x.payload, b.I64(0));
    if (invalidate_) {
      c.IfElse(
          negative,
          [&] {
            c.TransferToInterpreterAndInvalidate();
            return c.Unreachable();
          },
          [&] { return x; });
    } else {
      c.TransferToInterpreterIf(negative, "negative argument");
    }
    ir::Value* payload = b.Binary(ir::Opcode::kIadd, x.payload, b.I64(1));
    pe.Leave();
    pe.Return({payload, b.I64(kLongTag)});
    return absl::OkStatus();
  }

  int interpreted() const { return interpreted_; }
  int resumed() const { return resumed_; }

 private:
  static std::unique_ptr<FrameDescriptor> Descriptor() {
    auto descriptor = std::make_unique<FrameDescriptor>();
    descriptor->AddSlot("x");
    return descriptor;
  }
  static Value Finish(Frame& frame) { return Value::Long(frame.Get(0).AsLong() + 1); }

  bool invalidate_;
  int interpreted_ = 0;
  int resumed_ = 0;
};

class DeoptActionTest : public testing::TierTest {
 protected:
  void Configure(config::EngineConfig& config) override {
    // Deopt cycles are detected from the second compilation on, and the
    // first repeat of the same deopt is one too many.
    config.set_deopt_cycle_detection_threshold(1);
    config.set_deopt_cycle_detection_allowed_repeats(0);
  }
};

using testing::Column;
using testing::Count;

TEST_P(DeoptActionTest, TransferToInterpreterKeepsTheCode) {
  auto owned = std::make_unique<TransferRoot>(/*invalidate=*/false);
  TransferRoot* root = owned.get();
  CallTarget* target = engine_->CreateCallTarget(std::move(owned));
  EXPECT_EQ(target->Call({Value::Long(1)}), Value::Long(2));
  InstalledCode* code = target->installed_code();
  ASSERT_NE(code, nullptr) << Log();
  EXPECT_EQ(root->interpreted(), 0) << "compiled before its first call";

  for (int i = 1; i <= 5; ++i) {
    // The compiled activation leaves; the interpreter finishes it.
    EXPECT_EQ(target->Call({Value::Long(-10)}), Value::Long(-9));
    EXPECT_EQ(root->resumed(), i);
    EXPECT_EQ(target->installed_code(), code) << Log();
    // The next call runs the same code again, not the interpreter.
    EXPECT_EQ(target->Call({Value::Long(4)}), Value::Long(5));
    EXPECT_EQ(root->interpreted(), 0);
    EXPECT_EQ(root->resumed(), i);
  }
  std::string log = Log();
  EXPECT_EQ(Count(log, Column("opt done  ", *target)), 1) << log;
  EXPECT_EQ(Count(log, Column("opt deopt ", *target)), 5) << log;
  EXPECT_EQ(Count(log, "|Invalidated false|"), 5) << log;
  EXPECT_EQ(Count(log, "|Reason negative argument"), 5) << log;
  EXPECT_EQ(log.find("|Invalidated  true|"), std::string::npos) << log;
  EXPECT_EQ(log.find("opt inval."), std::string::npos) << log;
  EXPECT_EQ(log.find("opt failed"), std::string::npos) << log;
  CompilationStatistics statistics = engine_->compilation_statistics();
  EXPECT_EQ(statistics.successful, 1);
  EXPECT_EQ(statistics.deopts, 5);
  EXPECT_EQ(statistics.invalidations, 0);
  EXPECT_EQ(statistics.failed + statistics.recompilation_limits, 0);
  EXPECT_EQ(statistics.executed_targets, 1);
  EXPECT_EQ(statistics.due_targets, 1);
}

TEST_P(DeoptActionTest, TransferToInterpreterAndInvalidateDropsTheCode) {
  auto owned = std::make_unique<TransferRoot>(/*invalidate=*/true);
  TransferRoot* root = owned.get();
  CallTarget* target = engine_->CreateCallTarget(std::move(owned));
  EXPECT_EQ(target->Call({Value::Long(1)}), Value::Long(2));
  ASSERT_NE(target->installed_code(), nullptr) << Log();

  EXPECT_EQ(target->Call({Value::Long(-10)}), Value::Long(-9));
  EXPECT_EQ(root->resumed(), 1);
  EXPECT_EQ(target->installed_code(), nullptr) << Log();
  std::string log = Log();
  size_t deopt = log.find(Column("opt deopt ", *target));
  ASSERT_NE(deopt, std::string::npos) << log;
  EXPECT_NE(log.find("|Invalidated  true|", deopt), std::string::npos) << log;
  EXPECT_NE(log.find("|Reason transferToInterpreterAndInvalidate", deopt), std::string::npos)
      << log;

  // It recompiles and deoptimizes at the same place for the same reason
  // each time: a deopt cycle, and the compilation after it fails for good.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(target->Call({Value::Long(-10)}), Value::Long(-9));
  EXPECT_EQ(target->Call({Value::Long(4)}), Value::Long(5));
  log = Log();
  EXPECT_GE(Count(log, Column("opt done  ", *target)), 2) << log;
  EXPECT_NE(log.find("Deopt taken too many times: transferToInterpreterAndInvalidate"),
            std::string::npos)
      << log;
  EXPECT_EQ(target->installed_code(), nullptr);
  // The deopt cycle is the recompilation policy giving up, not a failure
  // of the compiler.
  CompilationStatistics statistics = engine_->compilation_statistics();
  EXPECT_EQ(statistics.successful, Count(log, Column("opt done  ", *target)));
  EXPECT_EQ(statistics.deopts, Count(log, Column("opt deopt ", *target)));
  EXPECT_EQ(statistics.recompilation_limits, 1);
  EXPECT_EQ(statistics.failed, 0);
}

MOREL_INSTANTIATE_TIER_TESTS(DeoptActionTest);

}  // namespace
}  // namespace morel::runtime
