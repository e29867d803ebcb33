#ifndef MOREL_TESTING_TEST_LANGUAGE_ARITHMETIC_NODES_H_
#define MOREL_TESTING_TEST_LANGUAGE_ARITHMETIC_NODES_H_

// `+`, the test language's specializing binary operator:
//
//   AddInt     both longs; leaves (RewriteOn) on 64-bit overflow
//   AddWide    both numbers (long or double): computed in double, so after
//              AddInt was excluded 1 + 2 is 3.0, which tests can observe
//   AddString  either operand a string: concatenation
//   fallback   TlError "type error: <l> + <r>"
//
// TlBinaryNode declares MOREL_REPORT_POLYMORPHISM, so AddNode reports by
// inheritance; QuietAddNode (same specializations) overrides it with
// MOREL_REPORT_POLYMORPHISM_EXCLUDE.

#include <memory>
#include <utility>

#include "absl/strings/string_view.h"
#include "nodes/polymorphism.h"
#include "nodes/specialization.h"
#include "testing/test_language/expression_nodes.h"
#include "testing/test_language/values.h"

namespace morel::test_language {

class TlBinaryNode : public TlExpression {
 public:
  MOREL_REPORT_POLYMORPHISM

  TlBinaryNode(std::unique_ptr<TlExpression> left, std::unique_ptr<TlExpression> right,
               SourceSection section = {})
      : TlExpression(std::move(section)),
        left_(std::move(left)),
        right_(std::move(right)) {}
  MOREL_CHILDREN(left_, right_)
  TlExpression* left() const { return left_.get(); }
  TlExpression* right() const { return right_.get(); }

 protected:
  Child<TlExpression> left_;
  Child<TlExpression> right_;
};

class AddNode;

Value AddAsDoubles(Value left, Value right);
Value ConcatAsStrings(Value left, Value right);

struct AddInt {
  static constexpr absl::string_view kName = "AddInt";
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

template <typename C>
typename C::Bool IsNumber(C& c, typename C::V v) {
  return c.Or(c.IsLong(v), c.HasTag(v, kDoubleTag));
}

struct AddWide {
  static constexpr absl::string_view kName = "AddWide";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.And(IsNumber(c, l), IsNumber(c, r));
  }
  template <typename C>
  static typename C::V Body(C& c, AddNode&, typename C::V l, typename C::V r) {
    return c.template Call<&AddAsDoubles>(l, r);
  }
};

struct AddString {
  static constexpr absl::string_view kName = "AddString";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V l, typename C::V r) {
    return c.Or(c.HasTag(l, kStringTag), c.HasTag(r, kStringTag));
  }
  template <typename C>
  static typename C::V Body(C& c, AddNode&, typename C::V l, typename C::V r) {
    return c.template Call<&ConcatAsStrings>(l, r);
  }
};

class AddNode : public TlBinaryNode {
 public:
  TL_EXPRESSION_NODE(AddNode)
  using Specializations = Specializer<AddNode, AddInt, AddWide, AddString>;
  using TlBinaryNode::TlBinaryNode;

  template <typename X>
  typename X::V Run(X& x) {
    typename X::V l = x.Execute(left_);
    typename X::V r = x.Execute(right_);
    return x.Specialize(specializer_, *this, l, r);
  }
  // Runs the specializations on given operands (tests drive the node
  // directly, without children).
  Value ExecuteWith(Value l, Value r) { return specializer_.Execute(*this, l, r); }
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<AddNode>(CloneOrNull(left_.get()),
                                     CloneOrNull(right_.get()), source_section());
  }
  [[noreturn]] static Value Fallback(AddNode& node, Value l, Value r);

  Specializations& specializer() { return specializer_; }
  const Specializations& specializer() const { return specializer_; }

 private:
  Specializations specializer_;
};

// `+` that never reports polymorphism, although its superclass does.
class QuietAddNode final : public AddNode {
 public:
  MOREL_NODE_KIND(QuietAddNode)
  MOREL_REPORT_POLYMORPHISM_EXCLUDE
  using AddNode::AddNode;
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<QuietAddNode>(CloneOrNull(left_.get()),
                                          CloneOrNull(right_.get()), source_section());
  }
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_ARITHMETIC_NODES_H_
