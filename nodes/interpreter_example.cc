// The node model used alone (//nodes with the guest heap, nothing of the
// engine): a language of two node kinds, an interpreter-only runtime, and a
// call target run from C++. `add(a, b)` specializes to its arguments' types:
// AddLong first, then AddDouble once a double arrives, at which point the
// node is polymorphic and reports it to the runtime (the event splitting
// acts on).
// Exits non-zero unless the results, the active specializations and the
// report are as described.

#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/guest_error.h"
#include "nodes/heap.h"
#include "nodes/node.h"
#include "nodes/node_runtime.h"
#include "nodes/polymorphism.h"
#include "nodes/root_node.h"
#include "nodes/specialization.h"
#include "nodes/value.h"

namespace example {

using morel::Child;
using morel::Frame;
using morel::Node;
using morel::Value;

std::string Display(Value v) {
  if (v.IsLong()) return absl::StrCat(v.AsLong());
  if (v.IsDouble()) return absl::StrCat(v.AsDouble());
  if (v.IsBoolean()) return v.AsBoolean() ? "true" : "false";
  return "<other>";
}

class Expression : public Node {
 public:
  using Node::Node;
  virtual Value Execute(Frame& frame) = 0;
};

class ArgumentNode final : public Expression {
 public:
  MOREL_NODE_KIND(ArgumentNode)
  explicit ArgumentNode(int index) : index_(index) {}
  Value Execute(Frame& frame) override { return frame.arguments()[index_]; }

 private:
  int index_;
};

class AddNode;

double AsDouble(Value v) { return v.IsLong() ? v.AsLong() : v.AsDouble(); }

// Out of line, through a runtime call (`c.Call`).
Value AddAsDoubles(Value l, Value r) { return Value::Double(AsDouble(l) + AsDouble(r)); }

// Specializations: a guard and a body, written once as templates over the
// execution context (the interpreter here; the partial evaluator when
// compiled).
struct AddLong {
  static constexpr absl::string_view kName = "AddLong";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(c.IsLong(l), c.IsLong(r));
  }
  template <typename C>
  static typename C::V Body(C& c, AddNode&, typename C::V l, typename C::V r) {
    auto sum = c.AddOverflow(c.AsLong(l), c.AsLong(r));
    c.RewriteOn(sum.overflow);  // leave this specialization on overflow
    return c.BoxLong(sum.value);
  }
};

struct AddDouble {
  static constexpr absl::string_view kName = "AddDouble";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    auto is_number = [&c](typename C::V v) {
      return c.Or(c.IsLong(v), c.HasTag(v, morel::kDoubleTag));
    };
    return c.And(is_number(l), is_number(r));
  }
  template <typename C>
  static typename C::V Body(C& c, AddNode&, typename C::V l, typename C::V r) {
    return c.template Call<&AddAsDoubles>(l, r);
  }
};

class AddNode final : public Expression {
 public:
  MOREL_NODE_KIND(AddNode)
  MOREL_REPORT_POLYMORPHISM
  using Specializations = morel::Specializer<AddNode, AddLong, AddDouble>;

  AddNode(std::unique_ptr<Expression> left, std::unique_ptr<Expression> right)
      : left_(std::move(left)), right_(std::move(right)) {}
  Value Execute(Frame& frame) override {
    Value l = left_->Execute(frame);
    Value r = right_->Execute(frame);
    return specializer_.Execute(*this, l, r);
  }
  void ForEachChild(morel::ChildVisitor visitor) override {
    visitor(left_.slot());
    visitor(right_.slot());
  }
  // No specialization applies.
  [[noreturn]] static Value Fallback(AddNode&, Value l, Value r) {
    throw morel::GuestError(absl::StrCat("cannot add ", Display(l), " and ", Display(r)));
  }
  const Specializations& specializer() const { return specializer_; }

 private:
  Child<Expression> left_;
  Child<Expression> right_;
  Specializations specializer_;
};

class FunctionRoot final : public morel::RootNode {
 public:
  MOREL_NODE_KIND(FunctionRoot)
  FunctionRoot(std::string name, std::unique_ptr<Expression> body)
      : RootNode({}, std::move(name), nullptr), body_(std::move(body)) {}
  Value Execute(Frame& frame) override { return body_->Execute(frame); }
  void ForEachChild(morel::ChildVisitor visitor) override { visitor(body_.slot()); }

 private:
  Child<Expression> body_;
};

// What the node model needs from whoever runs it; an engine would compile
// hot targets and split on polymorphism reports. This one only interprets.
class InterpreterRuntime final : public morel::NodeRuntime {
 public:
  morel::CallTarget* CreateCallTarget(std::unique_ptr<morel::RootNode> root) override {
    targets_.push_back(std::make_unique<morel::CallTarget>(std::move(root), this));
    return targets_.back().get();
  }
  void OnPolymorphicSpecialize(Node& source) override {
    std::cout << "polymorphic: " << source.kind_name() << "\n";
    ++reports_;
  }
  int reports() const { return reports_; }

 private:
  std::vector<std::unique_ptr<morel::CallTarget>> targets_;
  int reports_ = 0;
};

}  // namespace example

int main() {
  using example::Value;
  morel::heap::Initialize();
  example::InterpreterRuntime runtime;
  auto body = std::make_unique<example::AddNode>(std::make_unique<example::ArgumentNode>(0),
                                                 std::make_unique<example::ArgumentNode>(1));
  const example::AddNode* add = body.get();
  morel::CallTarget* target =
      runtime.CreateCallTarget(std::make_unique<example::FunctionRoot>("add", std::move(body)));

  bool ok = true;
  Value sum = target->Call({Value::Long(40), Value::Long(2)});
  std::cout << "add(40, 2) = " << example::Display(sum) << "\n";
  ok &= sum == Value::Long(42) && add->specializer().ActiveCount() == 1 &&
        runtime.reports() == 0;

  Value wide = target->Call({Value::Double(0.5), Value::Long(2)});
  std::cout << "add(0.5, 2) = " << example::Display(wide) << "\n";
  ok &= wide == Value::Double(2.5) && add->specializer().IsActive<example::AddDouble>() &&
        add->specializer().ActiveCount() == 2 && runtime.reports() == 1;

  try {
    target->Call({Value::Boolean(true), Value::Long(1)});
    ok = false;
  } catch (const morel::GuestError& error) {
    std::cout << "add(true, 1): " << error.what() << "\n";
  }
  if (!ok) std::cerr << "unexpected results or specialization states\n";
  return ok ? 0 : 1;
}
