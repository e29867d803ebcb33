#ifndef MOREL_LANGUAGES_SL_NODES_COMPARISON_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_COMPARISON_NODES_H_

// Comparison and equality (sl_spec §6.4, §6.5).
//
//   <    LessLong | LessBig | type error "<"
//   <=   LessEqualLong | LessEqualBig | type error "<="
//   > is NOT(<=) and >= is NOT(<): their type errors name "<=" and "<"
//   ==   EqualLong | EqualBoolean | EqualString | EqualObject | EqualGeneric
//        (never fails)
//   != is NOT(==)

#include <memory>
#include <optional>

#include "languages/sl/nodes/arithmetic_nodes.h"
#include "languages/sl/nodes/operator_node.h"
#include "nodes/directives.h"

namespace morel::sl {

class SLLessThanNode;
class SLLessOrEqualNode;
class SLEqualNode;

bool NumbersLess(Value l, Value r);
bool NumbersLessEqual(Value l, Value r);
bool StringsEqual(Value l, Value r);
// Its compile-time form (CallFoldable): nullopt unless both are flat.
std::optional<bool> FoldStringsEqual(Value l, Value r);
bool ValuesEqual(Value l, Value r);

MOREL_SL_NUMBER_SPECIALIZATIONS(SLLessThanNode, Less,
                                c.BoxBoolean(c.LongLess(c.AsLong(l), c.AsLong(r))),
                                c.BoxBoolean(c.template Call<&NumbersLess>(l, r)))
MOREL_SL_NUMBER_SPECIALIZATIONS(SLLessOrEqualNode, LessEqual,
                                c.BoxBoolean(c.LongLessEqual(c.AsLong(l), c.AsLong(r))),
                                c.BoxBoolean(c.template Call<&NumbersLessEqual>(l, r)))

struct EqualLong {
  static constexpr absl::string_view kName = "EqualLong";
  static constexpr auto Guard = [](auto& c, auto l, auto r) { return BothLongs(c, l, r); };
  static constexpr auto Body = [](auto& c, SLEqualNode&, auto l, auto r) {
    return c.BoxBoolean(c.LongEqual(c.AsLong(l), c.AsLong(r)));
  };
};

struct EqualBoolean {
  static constexpr absl::string_view kName = "EqualBoolean";
  static constexpr auto Guard = [](auto& c, auto l, auto r) {
    return c.And(c.IsBoolean(l), c.IsBoolean(r));
  };
  static constexpr auto Body = [](auto& c, SLEqualNode&, auto l, auto r) {
    return c.BoxBoolean(c.ValueIdentical(l, r));
  };
};

struct EqualString {
  static constexpr absl::string_view kName = "EqualString";
  static constexpr auto Guard = [](auto& c, auto l, auto r) {
    return c.And(c.HasTag(l, kStringTag), c.HasTag(r, kStringTag));
  };
  static constexpr auto Body = [](auto& c, SLEqualNode&, auto l, auto r) {
    return c.BoxBoolean(c.template CallFoldable<&StringsEqual, &FoldStringsEqual>(l, r));
  };
};

// Objects are equal only to themselves (sl_spec §6.9): an identity test, no
// call, so compiled code can decide it for objects escape analysis keeps
// virtual.
struct EqualObject {
  static constexpr absl::string_view kName = "EqualObject";
  static constexpr auto Guard = [](auto& c, auto l, auto r) {
    return c.Or(c.HasTag(l, kObjectTag), c.HasTag(r, kObjectTag));
  };
  static constexpr auto Body = [](auto& c, SLEqualNode&, auto l, auto r) {
    return c.BoxBoolean(c.ValueIdentical(l, r));
  };
};

struct EqualGeneric {
  static constexpr absl::string_view kName = "EqualGeneric";
  static constexpr auto Guard = [](auto& c, auto, auto) { return c.True(); };
  static constexpr auto Body = [](auto& c, SLEqualNode&, auto l, auto r) {
    return c.BoxBoolean(c.template Call<&ValuesEqual>(l, r));
  };
};

class SLLessThanNode final : public SLOperatorNode<SLLessThanNode, 2, LessLong, LessBig> {
 public:
  MOREL_NODE_KIND(SLLessThanNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLLessThanNode& node, Value l, Value r);
};

class SLLessOrEqualNode final
    : public SLOperatorNode<SLLessOrEqualNode, 2, LessEqualLong, LessEqualBig> {
 public:
  MOREL_NODE_KIND(SLLessOrEqualNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLLessOrEqualNode& node, Value l, Value r);
};

// Excluded from polymorphism reporting: every == specialization is a tag
// test and a compare (EqualGeneric a call to ValuesEqual), so a monomorphic
// copy would be barely faster than the generic node, while `x == null`-style
// tests with mixed operand types are common and would trigger splits that
// only cost nodes and budget.
class SLEqualNode final : public SLOperatorNode<SLEqualNode, 2, EqualLong, EqualBoolean,
                                                EqualString, EqualObject, EqualGeneric> {
 public:
  MOREL_NODE_KIND(SLEqualNode)
  MOREL_REPORT_POLYMORPHISM_EXCLUDE
  using SLOperatorNode::SLOperatorNode;
  // Unreachable: EqualGeneric accepts everything.
  static Value Fallback(SLEqualNode& node, Value l, Value r);
};

// Logical negation of a Boolean-valued child (used for >, >= and !=, whose
// child always produces a Boolean).
class SLNotNode final : public SLExpressionNode,
                        public bytecode::BytecodeOperation,
                        public pe::CompiledOperation {
 public:
  SL_EXPRESSION_NODE(SLNotNode)
  // Inlined into SL's bytecode switch (root_nodes.h).
  MOREL_OPERATION_METHODS(SLNotNode)
  SLNotNode(SourceSection section, std::unique_ptr<SLOperator> operand)
      : SLExpressionNode(std::move(section)), operand_(std::move(operand)) {}
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return x.BoxBoolean(x.Not(x.AsBoolean(x.Execute(operand_))));
  }
  MOREL_CHILDREN(operand_)

 private:
  Child<SLOperator> operand_;  // a comparison
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_COMPARISON_NODES_H_
