#include "nodes/execution.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "nodes/frame.h"
#include "nodes/node.h"
#include "nodes/value.h"

namespace morel {
namespace {

// A tiny expression family with the hook nodes/execution.h asks for.
class Expr : public Node {
 public:
  virtual Value Execute(Frame& frame) = 0;
};
Value ExecuteChild(Expr* node, Frame& frame) { return node->Execute(frame); }

#define TEST_EXPRESSION(Name) \
  MOREL_NODE_KIND(Name)       \
  MOREL_INTERPRETED_BY_RUN(Name, Value, Execute)

// A constant that counts its executions.
class Counted final : public Expr {
 public:
  TEST_EXPRESSION(Counted)
  explicit Counted(int64_t value) : value_(value) {}
  template <typename X>
  typename X::V Run(X& x) {
    ++executions;
    return x.BoxLong(value_);
  }
  int executions = 0;

 private:
  int64_t value_;
};

// left + right.
class Add final : public Expr {
 public:
  TEST_EXPRESSION(Add)
  Add(std::unique_ptr<Expr> left, std::unique_ptr<Expr> right)
      : left_(std::move(left)), right_(std::move(right)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V left = x.Execute(left_);
    typename X::V right = x.Execute(right_);
    return x.BoxLong(x.AddOverflow(x.AsLong(left), x.AsLong(right)).value);
  }
  MOREL_CHILDREN(left_, right_)

 private:
  Child<Expr> left_;
  Child<Expr> right_;
};

// condition != 0 ? then : else, with else optional (0). A condition that
// is not a long fails through Require.
class Choose final : public Expr {
 public:
  TEST_EXPRESSION(Choose)
  Choose(std::unique_ptr<Expr> condition, std::unique_ptr<Expr> then_part,
         std::unique_ptr<Expr> else_part)
      : condition_(std::move(condition)),
        then_(std::move(then_part)),
        else_(std::move(else_part)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V condition = x.Execute(condition_);
    x.Require(
        x.IsLong(condition), "not a long", [&](auto&, const auto& value) { failed_on = value; },
        condition);
    return x.If(
        x.Not(x.LongEqual(x.AsLong(condition), x.AsLong(x.Constant(Value::Long(0))))),
        [&] { return x.Execute(then_); },
        [&] { return else_ ? x.Execute(else_) : x.Constant(Value::Long(0)); });
  }
  MOREL_CHILDREN(condition_, then_, else_)
  Value failed_on = Value::Illegal();

 private:
  Child<Expr> condition_;
  Child<Expr> then_;
  Child<Expr> else_;
};

// Counted children that a node executes for their effect go through this
// hook (nodes/execution.h: ExecuteChildForEffect); other families fall back
// to ExecuteChild.
int effect_hook_calls = 0;
void ExecuteChildForEffect(Counted* node, Frame& frame) {
  ++effect_hook_calls;
  node->Execute(frame);
}

// Evaluates `counted` and `plain` for their effect, then returns `result`.
class Discard final : public Expr {
 public:
  TEST_EXPRESSION(Discard)
  Discard(std::unique_ptr<Counted> counted, std::unique_ptr<Expr> plain,
          std::unique_ptr<Expr> result)
      : counted_(std::move(counted)), plain_(std::move(plain)), result_(std::move(result)) {}
  template <typename X>
  typename X::V Run(X& x) {
    x.ExecuteForEffect(counted_);
    x.ExecuteForEffect(plain_);
    return x.Execute(result_);
  }
  MOREL_CHILDREN(counted_, plain_, result_)

 private:
  Child<Counted> counted_;
  Child<Expr> plain_;
  Child<Expr> result_;
};

class ExecutionTest : public ::testing::Test {
 protected:
  ExecutionTest() : frame_(&descriptor_, slots_, {}, nullptr, nullptr) {}
  FrameDescriptor descriptor_;
  Value slots_[1] = {Value::Illegal()};
  Frame frame_;
};

TEST_F(ExecutionTest, InterpretRunsEveryChild) {
  auto left = std::make_unique<Counted>(2);
  auto right = std::make_unique<Counted>(40);
  Counted* l = left.get();
  Counted* r = right.get();
  Add add(std::move(left), std::move(right));
  EXPECT_EQ(add.Execute(frame_).AsLong(), 42);
  EXPECT_EQ(l->executions, 1);
  EXPECT_EQ(r->executions, 1);
}

TEST_F(ExecutionTest, ResumeReplaysDoneStepsAndRunsTheRest) {
  auto left = std::make_unique<Counted>(2);
  auto right = std::make_unique<Counted>(40);
  Counted* l = left.get();
  Counted* r = right.get();
  Add add(std::move(left), std::move(right));
  // Step 0 (left) is done with 7: left is not run again.
  Outcome one[] = {Outcome::OfValue(Value::Long(7))};
  EXPECT_EQ(add.Resume(frame_, 1, one).value.AsLong(), 47);
  EXPECT_EQ(l->executions, 0);
  EXPECT_EQ(r->executions, 1);
  // Both done: only the node's own operation runs.
  Outcome two[] = {Outcome::OfValue(Value::Long(7)), Outcome::OfValue(Value::Long(8))};
  EXPECT_EQ(add.Resume(frame_, 2, two).value.AsLong(), 15);
  EXPECT_EQ(l->executions, 0);
  EXPECT_EQ(r->executions, 1);
}

TEST_F(ExecutionTest, AnArmContinuesTheNumbering) {
  auto then_part = std::make_unique<Counted>(10);
  auto else_part = std::make_unique<Counted>(20);
  Counted* t = then_part.get();
  Counted* e = else_part.get();
  Choose choose(std::make_unique<Counted>(1), std::move(then_part), std::move(else_part));
  EXPECT_EQ(choose.Execute(frame_).AsLong(), 10);
  EXPECT_EQ(t->executions, 1);
  // Resumed in the else arm (condition 0 done, the arm's child done too):
  // the arm's child is step 1, whichever arm runs.
  Outcome done[] = {Outcome::OfValue(Value::Long(0)), Outcome::OfValue(Value::Long(99))};
  EXPECT_EQ(choose.Resume(frame_, 2, done).value.AsLong(), 99);
  EXPECT_EQ(e->executions, 0);
  Outcome condition_only[] = {Outcome::OfValue(Value::Long(0))};
  EXPECT_EQ(choose.Resume(frame_, 1, condition_only).value.AsLong(), 20);
  EXPECT_EQ(e->executions, 1);
  EXPECT_EQ(t->executions, 1);
}

TEST_F(ExecutionTest, RequireFailsInTheInterpreterWithTheValue) {
  Choose choose(std::make_unique<Counted>(1), std::make_unique<Counted>(10), nullptr);
  // A condition that is not a long, as a replayed step.
  Outcome done[] = {Outcome::OfValue(Value::Boolean(true))};
  choose.Resume(frame_, 1, done);
  EXPECT_TRUE(choose.failed_on.IsBoolean());
}

TEST_F(ExecutionTest, ChildrenAreVisitedInOrderSkippingNull) {
  Choose with_else(std::make_unique<Counted>(1), std::make_unique<Counted>(2),
                   std::make_unique<Counted>(3));
  Choose without_else(std::make_unique<Counted>(1), std::make_unique<Counted>(2), nullptr);
  std::vector<Node*> visited;
  with_else.ForEachChild([&](ChildSlot& slot) { visited.push_back(slot.get()); });
  ASSERT_EQ(visited.size(), 3u);
  EXPECT_EQ(static_cast<Counted*>(visited[2])->Execute(frame_).AsLong(), 3);
  visited.clear();
  without_else.ForEachChild([&](ChildSlot& slot) { visited.push_back(slot.get()); });
  EXPECT_EQ(visited.size(), 2u);
}

TEST_F(ExecutionTest, ForEffectUsesTheHookAndIsAStep) {
  auto counted = std::make_unique<Counted>(1);
  auto plain = std::make_unique<Counted>(2);
  Counted* c = counted.get();
  Counted* p = plain.get();
  Discard discard(std::move(counted), std::move(plain), std::make_unique<Counted>(3));
  effect_hook_calls = 0;
  EXPECT_EQ(discard.Execute(frame_).AsLong(), 3);
  EXPECT_EQ(effect_hook_calls, 1);  // only the Child<Counted>
  EXPECT_EQ(c->executions, 1);
  EXPECT_EQ(p->executions, 1);
  // Resumed after both: neither runs again, the result is step 2.
  Outcome done[] = {Outcome::OfValue(Value::Long(0)), Outcome::OfValue(Value::Long(0))};
  EXPECT_EQ(discard.Resume(frame_, 2, done).value.AsLong(), 3);
  EXPECT_EQ(effect_hook_calls, 1);
  EXPECT_EQ(c->executions, 1);
  EXPECT_EQ(p->executions, 1);
  Outcome result_done[] = {Outcome::OfValue(Value::Long(0)), Outcome::OfValue(Value::Long(0)),
                           Outcome::OfValue(Value::Long(9))};
  EXPECT_EQ(discard.Resume(frame_, 3, result_done).value.AsLong(), 9);
}

TEST_F(ExecutionTest, ReturnSetsTheFrameRegister) {
  Interpreting x(frame_);
  EXPECT_EQ(x.Return(Value::Long(5)), kReturn);
  EXPECT_EQ(frame_.return_value().AsLong(), 5);
  EXPECT_EQ(Interpreting::Break(), kBreak);
  EXPECT_EQ(Interpreting::Continue(), kContinue);
}

}  // namespace
}  // namespace morel
