#ifndef MOREL_TESTING_TEST_LANGUAGE_POLYMORPHISM_NODES_H_
#define MOREL_TESTING_TEST_LANGUAGE_POLYMORPHISM_NODES_H_

// Unary nodes that exist to exercise polymorphism reporting, modelled on the
// nodes of Truffle's NodeSplittingStrategyTest (truffle_reference §1.9):
//
//   TurnsPolymorphicOnZeroNode (reports): NonZero | AnyLong | fallback 0.
//     Monomorphic for non-zero longs; a 0 activates a second specialization.
//   TurnsPolymorphicOnZeroButSpecializationIsExcludedNode (reports):
//     NonZero | AnyLongExcluded (kReporting = kExclude) | fallback 0.
//   ExcludedZeroNode (reports): ZeroOnlyExcluded (kExclude, only 0) |
//     AnyLong | fallback 0. With only the excluded specialization active
//     the node counts as unspecialized, as in Truffle.
//   ClassifyNode (no class-level policy): ClassifySmall (0 <= n < 100 -> 0) |
//     ClassifyLong (-> 1) | ClassifyAny (kMegamorphic, anything -> 2).

#include <memory>
#include <utility>

#include "absl/strings/string_view.h"
#include "nodes/polymorphism.h"
#include "nodes/specialization.h"
#include "testing/test_language/expression_nodes.h"

namespace morel::test_language {

// A node with one operand and specializations Specs over it.
template <typename Derived, typename... Specs>
class UnarySpecializingNode : public TlExpression {
 public:
  using Specializations = Specializer<Derived, Specs...>;

  explicit UnarySpecializingNode(std::unique_ptr<TlExpression> operand = nullptr)
      : operand_(std::move(operand)) {}
  TL_EXPRESSION_NODE_METHODS(Derived)
  template <typename X>
  typename X::V Run(X& x) {
    return x.Specialize(specializer_, static_cast<Derived&>(*this), x.Execute(operand_));
  }
  Value ExecuteWith(Value value) {
    return specializer_.Execute(static_cast<Derived&>(*this), value);
  }
  MOREL_CHILDREN(operand_)
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<Derived>(CloneOrNull(operand_.get()));
  }
  Specializations& specializer() { return specializer_; }
  const Specializations& specializer() const { return specializer_; }

 private:
  Child<TlExpression> operand_;
  Specializations specializer_;
};

struct NonZero {
  static constexpr absl::string_view kName = "NonZero";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V v) {
    return c.And(c.IsLong(v), c.Not(c.LongEqual(c.AsLong(v), 0)));
  }
  template <typename C, typename N>
  static typename C::V Body(C&, N&, typename C::V v) {
    return v;
  }
};

struct AnyLong {
  static constexpr absl::string_view kName = "AnyLong";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V v) {
    return c.IsLong(v);
  }
  template <typename C, typename N>
  static typename C::V Body(C&, N&, typename C::V v) {
    return v;
  }
};

struct AnyLongExcluded : AnyLong {
  static constexpr absl::string_view kName = "AnyLongExcluded";
  static constexpr SpecializationReporting kReporting = SpecializationReporting::kExclude;
};

class TurnsPolymorphicOnZeroNode final
    : public UnarySpecializingNode<TurnsPolymorphicOnZeroNode, NonZero, AnyLong> {
 public:
  MOREL_NODE_KIND(TurnsPolymorphicOnZeroNode)
  MOREL_REPORT_POLYMORPHISM
  using UnarySpecializingNode::UnarySpecializingNode;
  static Value Fallback(TurnsPolymorphicOnZeroNode&, Value) { return Value::Long(0); }
};

class TurnsPolymorphicOnZeroButSpecializationIsExcludedNode final
    : public UnarySpecializingNode<TurnsPolymorphicOnZeroButSpecializationIsExcludedNode,
                                   NonZero, AnyLongExcluded> {
 public:
  MOREL_NODE_KIND(TurnsPolymorphicOnZeroButSpecializationIsExcludedNode)
  MOREL_REPORT_POLYMORPHISM
  using UnarySpecializingNode::UnarySpecializingNode;
  static Value Fallback(TurnsPolymorphicOnZeroButSpecializationIsExcludedNode&, Value) {
    return Value::Long(0);
  }
};

struct ZeroOnlyExcluded {
  static constexpr absl::string_view kName = "ZeroOnlyExcluded";
  static constexpr SpecializationReporting kReporting = SpecializationReporting::kExclude;
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V v) {
    return c.And(c.IsLong(v), c.LongEqual(c.AsLong(v), 0));
  }
  template <typename C, typename N>
  static typename C::V Body(C&, N&, typename C::V v) {
    return v;
  }
};

class ExcludedZeroNode final
    : public UnarySpecializingNode<ExcludedZeroNode, ZeroOnlyExcluded, AnyLong> {
 public:
  MOREL_NODE_KIND(ExcludedZeroNode)
  MOREL_REPORT_POLYMORPHISM
  using UnarySpecializingNode::UnarySpecializingNode;
  static Value Fallback(ExcludedZeroNode&, Value) { return Value::Long(0); }
};

struct ClassifySmall {
  static constexpr absl::string_view kName = "ClassifySmall";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V v) {
    return c.And(c.IsLong(v), c.And(c.LongLessEqual(0, c.AsLong(v)),
                                    c.LongLess(c.AsLong(v), 100)));
  }
  template <typename C, typename N>
  static typename C::V Body(C& c, N&, typename C::V) {
    return c.BoxLong(0);
  }
};

struct ClassifyLong {
  static constexpr absl::string_view kName = "ClassifyLong";
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V v) {
    return c.IsLong(v);
  }
  template <typename C, typename N>
  static typename C::V Body(C& c, N&, typename C::V) {
    return c.BoxLong(1);
  }
};

struct ClassifyAny {
  static constexpr absl::string_view kName = "ClassifyAny";
  static constexpr SpecializationReporting kReporting =
      SpecializationReporting::kMegamorphic;
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V) {
    return c.True();
  }
  template <typename C, typename N>
  static typename C::V Body(C& c, N&, typename C::V) {
    return c.BoxLong(2);
  }
};

class ClassifyNode final
    : public UnarySpecializingNode<ClassifyNode, ClassifySmall, ClassifyLong, ClassifyAny> {
 public:
  MOREL_NODE_KIND(ClassifyNode)
  using UnarySpecializingNode::UnarySpecializingNode;
  static Value Fallback(ClassifyNode&, Value) { return Value::Long(-1); }
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_POLYMORPHISM_NODES_H_
