// Resuming SL activations in the middle of an expression (nodes/resume.h):
// what deoptimization will do. Each test stops "compiled code" at a point
// after side effects happened, hands the interpreter the path and the values
// computed so far, and checks that the rest runs exactly once.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/value_printing.h"
#include "languages/sl/sl_context.h"
#include "nodes/call_target.h"
#include "nodes/resume.h"

namespace morel::sl {
namespace {

class ResumeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = std::tmpfile();
    engine_ = *runtime::Engine::Create({});
    context_ = std::make_unique<SLContext>(engine_.get(), out_, stdin);
  }
  void TearDown() override { std::fclose(out_); }

  CallTarget* Load(absl::string_view source, absl::string_view function) {
    absl::StatusOr<SLFunction*> main = context_->Load(source, "Resume.sl");
    EXPECT_TRUE(main.ok()) << main.status();
    return context_->functions().Lookup(function)->call_target();
  }

  std::string Output() {
    std::fflush(out_);
    std::rewind(out_);
    std::string text;
    for (int c; (c = std::fgetc(out_)) != EOF;) text.push_back(static_cast<char>(c));
    return text;
  }

  // Nodes of `target` in pre-order.
  static std::vector<Node*> Nodes(CallTarget* target) {
    std::vector<Node*> nodes;
    std::vector<Node*> pending = {target->root_node()};
    while (!pending.empty()) {
      Node* node = pending.back();
      pending.pop_back();
      nodes.push_back(node);
      std::vector<Node*> children;
      node->ForEachChild([&](ChildSlot& slot) {
        if (slot.get() != nullptr) children.push_back(slot.get());
      });
      for (auto it = children.rbegin(); it != children.rend(); ++it) pending.push_back(*it);
    }
    return nodes;
  }
  // The `index`-th node of kind `kind`.
  static Node* Find(CallTarget* target, absl::string_view kind, int index = 0) {
    for (Node* node : Nodes(target)) {
      if (node->kind_name() == kind && index-- == 0) return node;
    }
    ADD_FAILURE() << "no " << std::string(kind);
    return nullptr;
  }

  // Resumes `target` with `locals` (Illegal = unassigned) along `path`.
  Value Resume(CallTarget* target, std::vector<Value> locals,
               const std::vector<ResumeEntry>& path) {
    FrameDescriptor& descriptor = target->root_node()->frame_descriptor();
    locals.resize(descriptor.size(), Value::Illegal());
    Frame frame(&descriptor, locals.data(), {}, target->root_node(), nullptr);
    FrameScope scope(&frame);
    return ResumeActivation(frame, path).value;
  }

  FILE* out_;
  std::unique_ptr<runtime::Engine> engine_;
  std::unique_ptr<SLContext> context_;
};

constexpr char kCalls[] = R"(
function g() { println("g"); return 2; }
function h() { println("h"); return 3; }
function f() { a = g() + h(); println(a); return a; }
)";

// a = f() + g(): compiled code called both, then its `+` speculation failed.
TEST_F(ResumeTest, AfterBothOperandsWithoutRepeatingTheirCalls) {
  CallTarget* f = Load(kCalls, "f");
  std::vector<ResumeEntry> path = {
      {f->root_node(), 0, {}},
      {Find(f, "SLBlockNode"), 0, {}},
      {Find(f, "SLExpressionStatementNode"), 0, {}},
      {Find(f, "SLWriteLocalNode"), 0, {}},
      {Find(f, "SLAddNode"), 2, {Outcome::OfValue(Value::Long(2)), Outcome::OfValue(Value::Long(3))}},
  };
  EXPECT_EQ(Resume(f, {}, path), Value::Long(5));
  EXPECT_EQ(Output(), "5\n");  // neither "g" nor "h": no call ran again
}

// The second operand changed type: the interpreter re-specializes `+`.
TEST_F(ResumeTest, OperandOfANewTypeRespecializes) {
  CallTarget* f = Load(kCalls, "f");
  std::vector<ResumeEntry> path = {
      {f->root_node(), 0, {}},
      {Find(f, "SLBlockNode"), 0, {}},
      {Find(f, "SLExpressionStatementNode"), 0, {}},
      {Find(f, "SLWriteLocalNode"), 0, {}},
      {Find(f, "SLAddNode"), 2,
       {Outcome::OfValue(Value::Long(2)), Outcome::OfValue(StringValue("x"))}},
  };
  Value result = Resume(f, {}, path);
  EXPECT_EQ(DisplayString(result), "2x");
  EXPECT_EQ(Output(), "2x\n");
}

// Only the left operand was computed: the right one (a call) runs once.
TEST_F(ResumeTest, AfterTheLeftOperandEvaluatesTheRightOnce) {
  CallTarget* f = Load(kCalls, "f");
  std::vector<ResumeEntry> path = {
      {f->root_node(), 0, {}},
      {Find(f, "SLBlockNode"), 0, {}},
      {Find(f, "SLExpressionStatementNode"), 0, {}},
      {Find(f, "SLWriteLocalNode"), 0, {}},
      {Find(f, "SLAddNode"), 1, {Outcome::OfValue(Value::Long(40))}},
  };
  EXPECT_EQ(Resume(f, {}, path), Value::Long(43));
  EXPECT_EQ(Output(), "h\n43\n");
}

// Lazy deoptimization after a call returned: the call's result is given.
TEST_F(ResumeTest, AfterACallReturned) {
  CallTarget* f = Load(R"(
function g() { println("g"); return 41; }
function f() { x = g(); println(x + 1); }
)", "f");
  std::vector<ResumeEntry> path = {
      {f->root_node(), 0, {}},
      {Find(f, "SLBlockNode"), 0, {}},
      {Find(f, "SLExpressionStatementNode"), 0, {}},
      {Find(f, "SLWriteLocalNode"), 1, {Outcome::OfValue(Value::Long(41))}},
  };
  EXPECT_EQ(DisplayString(Resume(f, {}, path)), "NULL");
  EXPECT_EQ(Output(), "42\n");
}

// Inside a loop body: the loop goes on from the resumed iteration.
TEST_F(ResumeTest, InsideALoopContinuesTheLoop) {
  CallTarget* loop = Load(R"(
function loop(n) {
  i = 0;
  s = 0;
  while (i < n) {
    s = s + i;
    i = i + 1;
  }
  return s;
}
)", "loop");
  // Stopped in iteration i = 3 at `s + i`, with s = 0 + 1 + 2 = 3.
  // Slots: n, i, s.
  std::vector<ResumeEntry> path = {
      {loop->root_node(), 0, {}},
      {Find(loop, "SLBlockNode", 0), 2, {Outcome::OfStatus(kNormal), Outcome::OfStatus(kNormal)}},
      {Find(loop, "SLWhileNode"), 0, {}},
      {Find(loop, "LoopNode"), 0, {}},
      {Find(loop, "SLWhileRepeatingNode"), 1, {Outcome::OfValue(Value::Boolean(true))}},
      {Find(loop, "SLBlockNode", 1), 0, {}},
      {Find(loop, "SLExpressionStatementNode", 0), 0, {}},
      {Find(loop, "SLWriteLocalNode", 2), 0, {}},
      {Find(loop, "SLAddNode", 0), 2,
       {Outcome::OfValue(Value::Long(3)), Outcome::OfValue(Value::Long(3))}},
  };
  Value result = Resume(loop, {Value::Long(5), Value::Long(3), Value::Long(3)}, path);
  EXPECT_EQ(result, Value::Long(0 + 1 + 2 + 3 + 4));
}

// A return inside a loop inside an if, resumed at the returned value.
TEST_F(ResumeTest, ReturnPropagatesOutOfNestedStatements) {
  CallTarget* f = Load(R"(
function f(n) {
  if (n > 0) {
    while (1 == 1) {
      return n * 2;
    }
  }
  println("not reached");
}
)", "f");
  std::vector<ResumeEntry> path = {
      {f->root_node(), 0, {}},
      {Find(f, "SLBlockNode", 0), 0, {}},
      {Find(f, "SLIfNode"), 1, {Outcome::OfValue(Value::Boolean(true))}},
      {Find(f, "SLBlockNode", 1), 0, {}},
      {Find(f, "SLWhileNode"), 0, {}},
      {Find(f, "LoopNode"), 0, {}},
      {Find(f, "SLWhileRepeatingNode"), 1, {Outcome::OfValue(Value::Boolean(true))}},
      {Find(f, "SLBlockNode", 2), 0, {}},
      {Find(f, "SLReturnNode"), 1, {Outcome::OfValue(Value::Long(14))}},
  };
  EXPECT_EQ(Resume(f, {Value::Long(7)}, path), Value::Long(14));
  EXPECT_EQ(Output(), "");
}

// Short-circuit operators resume with the left operand known.
TEST_F(ResumeTest, LogicalOperatorsRespectShortCircuit) {
  CallTarget* f = Load(R"(
function t() { println("t"); return 1 == 1; }
function f() { return t() && t(); }
)", "f");
  std::vector<ResumeEntry> path = {
      {f->root_node(), 0, {}},
      {Find(f, "SLBlockNode"), 0, {}},
      {Find(f, "SLReturnNode"), 0, {}},
      {Find(f, "SLAndNode"), 1, {Outcome::OfValue(Value::Boolean(false))}},
  };
  EXPECT_EQ(Resume(f, {}, path), Value::Boolean(false));
  EXPECT_EQ(Output(), "");  // the right operand is not evaluated
}

// Invoke resumed after the callee and some arguments were evaluated.
TEST_F(ResumeTest, InvokeAfterSomeArguments) {
  CallTarget* f = Load(R"(
function add3(a, b, c) { return a + b + c; }
function one() { println("one"); return 1; }
function f() { return add3(one(), one(), one()); }
)", "f");
  Node* invoke = Find(f, "SLInvokeNode");
  Value add3 = context_->functions().Lookup("add3")->AsValue();
  std::vector<ResumeEntry> path = {
      {f->root_node(), 0, {}},
      {Find(f, "SLBlockNode"), 0, {}},
      {Find(f, "SLReturnNode"), 0, {}},
      {invoke, 3, {Outcome::OfValue(add3), Outcome::OfValue(Value::Long(10)),
                   Outcome::OfValue(Value::Long(20))}},
  };
  EXPECT_EQ(Resume(f, {}, path), Value::Long(31));
  EXPECT_EQ(Output(), "one\n");  // only the third argument is evaluated
}

}  // namespace
}  // namespace morel::sl
