// The engine and assumptions: code compiled while depending on an
// assumption is installed, registered, and dropped when the assumption is
// invalidated (`opt inval.`); code whose assumption died during compilation
// is never installed; and an activation that is running the code when it is
// invalidated (suspended in a call) deoptimizes right after that call,
// resuming with the call's result instead of calling again.
//
// The roots here are written directly against the partial evaluator (no
// language): the compiled code takes the assumption for granted, while the
// interpreter checks it, so stale code is visible in the result.

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/testing/tier_test.h"
#include "gtest/gtest.h"
#include "nodes/assumption.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/resume.h"
#include "nodes/root_node.h"

namespace morel::runtime {
namespace {

// Interpreted: the callee's result (0 without a callee) * 10, plus 1 while
// `assumption` holds and 2 once it does not. Compiled: the same, with the
// assumption assumed (+1 folded in). Child 0 is the call (nodes/resume.h).
class AssumingRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(AssumingRoot)
  AssumingRoot(Assumption* assumption, CallTarget* callee)
      : RootNode({}, "assuming", std::make_unique<FrameDescriptor>()),
        assumption_(assumption),
        callee_(callee) {}

  Value Execute(Frame&) override {
    return Finish(callee_ != nullptr ? callee_->Call({}) : Value::Long(0));
  }
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override {
    if (next_child == 0) return Outcome::OfValue(Execute(frame));
    // 1: the call returned done[0] (PartialEvaluator::CheckValidAfterCall).
    return Outcome::OfValue(Finish(done[0].value));
  }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    ir::Builder& b = pe.builder();
    pe.Enter(this);
    pe::PeValue result = pe.Constant(Value::Long(0));
    if (callee_ != nullptr) {
      std::vector<ir::Value*> results =
          b.CallTarget(pe::EncodeCallTargetId(callee_, 0), {}, {ir::Type::kI64, ir::Type::kI64});
      result = pe.CheckValidAfterCall(pe.PropagatePendingException({results[0], results[1]}));
    }
    int64_t bonus = pe.Assume(assumption_) ? 1 : 2;
    ir::Value* payload = b.Binary(ir::Opcode::kIadd,
                                  b.Binary(ir::Opcode::kImul, result.payload, b.I64(10)),
                                  b.I64(bonus));
    pe.Leave();
    pe.Return({payload, b.I64(kLongTag)});
    return absl::OkStatus();
  }

 private:
  Value Finish(Value r) const {
    return Value::Long(r.AsLong() * 10 + (assumption_->IsValid() ? 1 : 2));
  }

  Assumption* assumption_;
  CallTarget* callee_;
};

// Never compiled (internal): runs `invalidate` on its first call and
// returns 7, counting its calls.
class InvalidatingRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(InvalidatingRoot)
  explicit InvalidatingRoot(std::function<void()> invalidate)
      : RootNode({}, "invalidating", std::make_unique<FrameDescriptor>()),
        invalidate_(std::move(invalidate)) {}
  Value Execute(Frame&) override {
    if (calls_++ == 0) invalidate_();
    return Value::Long(7);
  }
  bool IsInternal() const override { return true; }
  int calls() const { return calls_; }

 private:
  std::function<void()> invalidate_;
  int calls_ = 0;
};

using InvalidationTest = testing::TierTest;
using testing::Column;

TEST_P(InvalidationTest, InvalidatingAnAssumptionDropsTheCodeThatDependsOnIt) {
  Assumption assumption("test assumption");
  Assumption unrelated("unrelated");
  CallTarget* target =
      engine_->CreateCallTarget(std::make_unique<AssumingRoot>(&assumption, nullptr));
  CallTarget* other =
      engine_->CreateCallTarget(std::make_unique<AssumingRoot>(&unrelated, nullptr));
  EXPECT_EQ(target->Call({}), Value::Long(1));
  EXPECT_EQ(other->Call({}), Value::Long(1));
  ASSERT_NE(target->installed_code(), nullptr) << Log();
  ASSERT_NE(other->installed_code(), nullptr) << Log();
  EXPECT_EQ(assumption.dependent_count(), 1);
  // Compiled code takes the assumption for granted.
  EXPECT_EQ(target->Call({}), Value::Long(1));

  assumption.Invalidate("test: world changed");
  EXPECT_EQ(target->installed_code(), nullptr);
  EXPECT_NE(other->installed_code(), nullptr);  // only the dependent code
  EXPECT_EQ(assumption.dependent_count(), 0);
  std::string log = Log();
  EXPECT_NE(log.find(Column("opt inval.", *target)), std::string::npos)
      << log;
  EXPECT_NE(log.find("|Reason test: world changed"), std::string::npos) << log;
  EXPECT_EQ(log.find(Column("opt inval.", *other)), std::string::npos)
      << log;

  // Back in the interpreter, which sees the change. Recompiling depends on
  // the invalid assumption again, so that code is refused: it never runs.
  EXPECT_EQ(target->Call({}), Value::Long(2));
  EXPECT_EQ(target->Call({}), Value::Long(2));
  EXPECT_EQ(target->installed_code(), nullptr);
}

TEST_P(InvalidationTest, CodeIsNotInstalledIfItsAssumptionIsAlreadyInvalid) {
  Assumption assumption("test assumption");
  assumption.Invalidate("early");
  CallTarget* target =
      engine_->CreateCallTarget(std::make_unique<AssumingRoot>(&assumption, nullptr));
  EXPECT_EQ(target->Call({}), Value::Long(2));
  EXPECT_EQ(target->installed_code(), nullptr);
  EXPECT_EQ(assumption.dependent_count(), 0);
  EXPECT_EQ(Log().find("opt done"), std::string::npos) << Log();
}

TEST_P(InvalidationTest, RunningActivationDeoptimizesAfterTheInvalidatingCall) {
  Assumption assumption("test assumption");
  auto callee_root = std::make_unique<InvalidatingRoot>(
      [&] { assumption.Invalidate("test: world changed"); });
  InvalidatingRoot* callee_node = callee_root.get();
  CallTarget* callee = engine_->CreateCallTarget(std::move(callee_root));
  CallTarget* target =
      engine_->CreateCallTarget(std::make_unique<AssumingRoot>(&assumption, callee));
  // Compiled before its first call; the call invalidates the code while the
  // activation is suspended in it. Continuing in the compiled code would
  // give 7 * 10 + 1; resuming after the call gives 7 * 10 + 2, and the
  // callee is not called again.
  EXPECT_EQ(target->Call({}), Value::Long(72)) << Log();
  EXPECT_EQ(callee_node->calls(), 1);
  EXPECT_EQ(target->installed_code(), nullptr);
  std::string log = Log();
  size_t done = log.find(Column("opt done  ", *target));
  size_t inval = log.find(Column("opt inval.", *target));
  size_t deopt = log.find(Column("opt deopt ", *target));
  ASSERT_NE(done, std::string::npos) << log;
  ASSERT_NE(inval, std::string::npos) << log;
  ASSERT_NE(deopt, std::string::npos) << log;
  EXPECT_LT(done, inval);
  EXPECT_LT(inval, deopt);
  // The deoptimization itself invalidated nothing: the code was already.
  EXPECT_NE(log.find("|Invalidated false|", deopt), std::string::npos) << log;
  EXPECT_NE(log.find("|Reason invalidated", deopt), std::string::npos) << log;
}

TEST_P(InvalidationTest, InvalidateAllCodeAlsoStopsRunningActivations) {
  Assumption assumption("never invalidated");
  auto callee_root =
      std::make_unique<InvalidatingRoot>([&] { engine_->InvalidateAllCode("test: all code"); });
  InvalidatingRoot* callee_node = callee_root.get();
  CallTarget* callee = engine_->CreateCallTarget(std::move(callee_root));
  CallTarget* target =
      engine_->CreateCallTarget(std::make_unique<AssumingRoot>(&assumption, callee));
  EXPECT_EQ(target->Call({}), Value::Long(71)) << Log();
  EXPECT_EQ(callee_node->calls(), 1);
  std::string log = Log();
  size_t inval = log.find(Column("opt inval.", *target));
  ASSERT_NE(inval, std::string::npos) << log;
  EXPECT_NE(log.find("|Reason test: all code", inval), std::string::npos) << log;
  size_t deopt = log.find(Column("opt deopt ", *target), inval);
  ASSERT_NE(deopt, std::string::npos) << log;
  EXPECT_NE(log.find("|Invalidated false|", deopt), std::string::npos) << log;
}

MOREL_INSTANTIATE_TIER_TESTS(InvalidationTest);

}  // namespace
}  // namespace morel::runtime
