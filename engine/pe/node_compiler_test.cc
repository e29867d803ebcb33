// A language in one file whose nodes are written once (nodes/execution.h),
// run by the interpreter, resumed, and compiled: the example that
// nodes/README.md's guide walks through. A language's own sources would not
// include node_compiler.h: MOREL_COMPILE_NODE at the end of this file is
// what its build's morel_compiled_nodes rule generates.

#include "engine/pe/node_compiler.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/ir/interpreter.h"
#include "engine/ir/runtime_function.h"
#include "engine/pe/partial_evaluator.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/execution.h"
#include "nodes/frame.h"
#include "nodes/guest_error.h"
#include "nodes/heap.h"
#include "nodes/node_runtime.h"
#include "nodes/polymorphism.h"
#include "nodes/root_node.h"
#include "nodes/specialization.h"

namespace example {

using morel::Child;
using morel::Frame;
using morel::Outcome;
using morel::Value;

// The family: expressions produce a Value; compiled, a PeValue.
class Expression : public morel::Node {
 public:
  using Node::Node;
  virtual Value Execute(Frame& frame) = 0;
  virtual morel::pe::PeValue PartialEvaluate(morel::pe::PartialEvaluator& pe) = 0;
};
// The family's hook: how a parent runs a child.
Value ExecuteChild(Expression* node, Frame& frame) { return node->Execute(frame); }

// The members every node derives from its Run.
#define EXAMPLE_EXPRESSION(Name)                 \
  MOREL_NODE_KIND(Name)                          \
  MOREL_INTERPRETED_BY_RUN(Name, Value, Execute) \
  MOREL_COMPILED_BY_RUN(Name, morel::pe::PeValue, PartialEvaluate)

class ArgumentNode final : public Expression {
 public:
  EXAMPLE_EXPRESSION(ArgumentNode)
  explicit ArgumentNode(int index) : index_(index) {}
  template <typename X>
  typename X::V Run(X& x) {
    return x.Argument(index_, Value::Long(0));
  }

 private:
  int index_;
};

class AddNode;

// Specializations: written once, for the interpreter and compiled code.
struct AddLong {
  static constexpr absl::string_view kName = "AddLong";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.IsLong(l), c.IsLong(r));
  }
  template <typename C>
  static typename C::V Body(C& c, AddNode&, typename C::V l, typename C::V r) {
    auto sum = c.AddOverflow(c.AsLong(l), c.AsLong(r));
    c.RewriteOn(sum.overflow);
    return c.BoxLong(sum.value);
  }
};

Value AddAsDoubles(Value l, Value r) {
  auto as_double = [](Value v) {
    return v.IsLong() ? static_cast<double>(v.AsLong()) : v.AsDouble();
  };
  return Value::Double(as_double(l) + as_double(r));
}

struct AddDouble {
  static constexpr absl::string_view kName = "AddDouble";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    auto number = [&c](typename C::V v) {
      return c.Or(c.IsLong(v), c.HasTag(v, morel::kDoubleTag));
    };
    return c.And(number(l), number(r));
  }
  template <typename C>
  static typename C::V Body(C& c, AddNode&, typename C::V l, typename C::V r) {
    return c.template Call<&AddAsDoubles>(l, r);
  }
};

// left + right: children, then the specializations. Reports polymorphism
// (splitting) when a second specialization activates.
class AddNode final : public Expression {
 public:
  EXAMPLE_EXPRESSION(AddNode)
  MOREL_REPORT_POLYMORPHISM
  using Specializations = morel::Specializer<AddNode, AddLong, AddDouble>;
  AddNode(std::unique_ptr<Expression> left, std::unique_ptr<Expression> right)
      : left_(std::move(left)), right_(std::move(right)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V l = x.Execute(left_);
    typename X::V r = x.Execute(right_);
    return x.Specialize(specializer_, *this, l, r);
  }
  MOREL_CHILDREN(left_, right_)
  [[noreturn]] static Value Fallback(AddNode&, Value, Value) {
    throw morel::GuestError("cannot add");
  }
  const Specializations& specializer() const { return specializer_; }

 private:
  Child<Expression> left_;
  Child<Expression> right_;
  Specializations specializer_;
};

// max(left, right) on longs: control flow. A non-long is a guest error in
// the interpreter and a deoptimization in compiled code.
class MaxNode final : public Expression {
 public:
  EXAMPLE_EXPRESSION(MaxNode)
  MaxNode(std::unique_ptr<Expression> left, std::unique_ptr<Expression> right)
      : left_(std::move(left)), right_(std::move(right)) {}
  template <typename X>
  typename X::V Run(X& x) {
    typename X::V l = x.Execute(left_);
    typename X::V r = x.Execute(right_);
    x.Require(x.And(x.IsLong(l), x.IsLong(r)), "max of a non-long",
              [](auto&) { throw morel::GuestError("max of a non-long"); });
    return x.If(
        x.LongLess(x.AsLong(l), x.AsLong(r)), [&] { return r; }, [&] { return l; });
  }
  MOREL_CHILDREN(left_, right_)

 private:
  Child<Expression> left_;
  Child<Expression> right_;
};

// A direct call of another function with the given arguments.
class CallNode final : public Expression {
 public:
  EXAMPLE_EXPRESSION(CallNode)
  CallNode(morel::CallTarget* callee, std::vector<std::unique_ptr<Expression>> arguments)
      : call_(morel::DirectCallNode::Create(callee)), arguments_(std::move(arguments)) {}
  template <typename X>
  typename X::V Run(X& x) {
    return x.ExecuteEach(arguments_, [&](absl::Span<const typename X::V> values) {
      return x.CallDirect(call_.get(), values);
    });
  }
  MOREL_CHILDREN(call_, arguments_)

 private:
  Child<morel::DirectCallNode> call_;
  morel::ChildList<Expression> arguments_;
};

class FunctionRoot final : public morel::RootNode {
 public:
  MOREL_NODE_KIND(FunctionRoot)
  FunctionRoot(std::unique_ptr<Expression> body)
      : RootNode({}, "f", std::make_unique<morel::FrameDescriptor>()), body_(std::move(body)) {}
  MOREL_INTERPRETED_BY_RUN(FunctionRoot, Value, Execute)
  MOREL_COMPILED_BY_RUN(FunctionRoot, absl::Status, PartialEvaluate)
  template <typename X>
  typename X::V Run(X& x) {
    return x.Execute(body_);
  }
  MOREL_CHILDREN(body_)

 private:
  Child<Expression> body_;
};

}  // namespace example

// What the language's build generates (engine/pe/compiled_nodes.bzl).
MOREL_COMPILE_NODE(example::ArgumentNode)
MOREL_COMPILE_NODE(example::AddNode)
MOREL_COMPILE_NODE(example::MaxNode)
MOREL_COMPILE_NODE(example::CallNode)
MOREL_COMPILE_NODE(example::FunctionRoot)

namespace morel {
namespace {

using example::AddNode;
using example::ArgumentNode;
using example::MaxNode;

class Runtime : public NodeRuntime {
 public:
  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override {
    targets_.push_back(std::make_unique<CallTarget>(std::move(root), this));
    return targets_.back().get();
  }
  void OnPolymorphicSpecialize(Node&) override { ++reports; }
  int reports = 0;
  std::vector<std::unique_ptr<CallTarget>> targets_;
};

// f(a, b, c) = max(a + b, c).
struct Program {
  Runtime runtime;
  AddNode* add = nullptr;
  MaxNode* max = nullptr;
  CallTarget* f = nullptr;
  Program() {
    auto add_node = std::make_unique<AddNode>(std::make_unique<ArgumentNode>(0),
                                              std::make_unique<ArgumentNode>(1));
    add = add_node.get();
    auto max_node =
        std::make_unique<MaxNode>(std::move(add_node), std::make_unique<ArgumentNode>(2));
    max = max_node.get();
    f = runtime.CreateCallTarget(std::make_unique<example::FunctionRoot>(std::move(max_node)));
  }
};

// The compiled function (ptr args, i64 count) -> (payload, tag), run by the
// IR interpreter.
absl::StatusOr<ir::ExecutionResult> RunCompiled(const ir::Function& function,
                                                std::vector<Value> arguments) {
  return ir::Interpret(function,
                       {static_cast<int64_t>(reinterpret_cast<uintptr_t>(arguments.data())),
                        static_cast<int64_t>(arguments.size())});
}

int Count(const ir::Function& function, ir::Opcode opcode) {
  int count = 0;
  for (ir::Block* block : function.blocks()) {
    for (ir::Instruction* inst : block->instructions()) count += inst->opcode() == opcode;
  }
  return count;
}

TEST(NodeCompilerTest, TheInterpreterRunsTheNodes) {
  heap::Initialize();
  Program p;
  EXPECT_EQ(p.f->Call({Value::Long(3), Value::Long(4), Value::Long(5)}), Value::Long(7));
  EXPECT_EQ(p.f->Call({Value::Long(1), Value::Long(1), Value::Long(5)}), Value::Long(5));
  EXPECT_EQ(p.add->specializer().ActiveNames(), "AddLong");
  EXPECT_THROW(p.f->Call({Value::Long(1), Value::Long(1), Value::Boolean(true)}), GuestError);
  // A second specialization: the node reports its polymorphism.
  EXPECT_EQ(p.runtime.reports, 0);
  EXPECT_THROW(p.f->Call({Value::Double(0.5), Value::Long(1), Value::Long(0)}), GuestError);
  EXPECT_EQ(p.add->specializer().ActiveNames(), "AddLong,AddDouble");
  EXPECT_EQ(p.runtime.reports, 1);
}

TEST(NodeCompilerTest, ResumptionReplaysTheDoneChildren) {
  heap::Initialize();
  Program p;
  Value slots[1] = {Value::Illegal()};
  std::vector<Value> arguments = {Value::Long(100), Value::Long(100), Value::Long(5)};
  Frame frame(&p.f->root_node()->frame_descriptor(), slots, arguments, p.f->root_node(), nullptr);
  // max's left is done with 9: its add does not run again (it would give 200).
  Outcome left_done[] = {Outcome::OfValue(Value::Long(9))};
  EXPECT_EQ(p.max->Resume(frame, 1, left_done).value, Value::Long(9));
  EXPECT_EQ(p.add->specializer().ActiveCount(), 0);
}

TEST(NodeCompilerTest, CompiledCodeComputesTheSameAndDeoptimizesWhereTheInterpreterFails) {
  heap::Initialize();
  Program p;
  p.f->Call({Value::Long(3), Value::Long(4), Value::Long(5)});
  ir::RuntimeRegistry registry;
  pe::PartialEvaluator evaluator(*p.f, registry);
  auto compilation = evaluator.Run();
  ASSERT_TRUE(compilation.ok()) << compilation.status();
  const ir::Function& function = *(*compilation)->function;
  // The If is a branch; AddLong's overflow and MaxNode's Require are
  // speculations (guards).
  EXPECT_GE(Count(function, ir::Opcode::kBr), 1);
  EXPECT_GE(Count(function, ir::Opcode::kGuard), 2);

  for (auto [a, b, c] : {std::tuple{3, 4, 5}, std::tuple{1, 1, 5}, std::tuple{-8, 2, -7}}) {
    auto result = RunCompiled(function, {Value::Long(a), Value::Long(b), Value::Long(c)});
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->kind, ir::ExecutionResult::Kind::kReturned) << ir::DebugString(*result);
    EXPECT_EQ(result->values[0], std::max(a + b, c)) << a << " " << b << " " << c;
    EXPECT_EQ(result->values[1], static_cast<int64_t>(kLongTag));
  }
  // What the interpreter reports as a guest error, compiled code leaves to
  // the interpreter (which then reports it).
  auto not_long = RunCompiled(function, {Value::Long(1), Value::Long(1), Value::Boolean(true)});
  ASSERT_TRUE(not_long.ok()) << not_long.status();
  EXPECT_EQ(not_long->kind, ir::ExecutionResult::Kind::kDeoptimized);
  auto overflow = RunCompiled(function, {Value::Long(INT64_MAX), Value::Long(1), Value::Long(0)});
  ASSERT_TRUE(overflow.ok()) << overflow.status();
  EXPECT_EQ(overflow->kind, ir::ExecutionResult::Kind::kDeoptimized);
}

TEST(NodeCompilerTest, ADirectCallCompilesToACall) {
  heap::Initialize();
  Program callee;
  callee.f->Call({Value::Long(3), Value::Long(4), Value::Long(5)});
  std::vector<std::unique_ptr<example::Expression>> arguments;
  for (int i = 0; i < 3; ++i) arguments.push_back(std::make_unique<ArgumentNode>(i));
  CallTarget* caller = callee.runtime.CreateCallTarget(std::make_unique<example::FunctionRoot>(
      std::make_unique<example::CallNode>(callee.f, std::move(arguments))));
  EXPECT_EQ(caller->Call({Value::Long(3), Value::Long(4), Value::Long(5)}), Value::Long(7));
  ir::RuntimeRegistry registry;
  pe::PartialEvaluator evaluator(*caller, registry);
  auto compilation = evaluator.Run();
  ASSERT_TRUE(compilation.ok()) << compilation.status();
  EXPECT_EQ(Count(*(*compilation)->function, ir::Opcode::kCallTarget), 1);
}

}  // namespace
}  // namespace morel
