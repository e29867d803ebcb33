#ifndef MOREL_LANGUAGES_SL_NODES_ARITHMETIC_NODES_H_
#define MOREL_LANGUAGES_SL_NODES_ARITHMETIC_NODES_H_

// SL's arithmetic: + - * / (sl_spec §6.3). Each operator is a specializing
// node whose specializations are written once (nodes/specialization.h):
//
//   +   AddLong (64-bit, rewrites on overflow) | AddBig | Concat (a String
//       operand) | fallback: type error "+"
//   -   SubLong | SubBig | type error "-"
//   *   MulLong | MulBig | type error "*"
//   /   DivLong (rewrites on a zero divisor and MIN/-1) | DivBig | type
//       error "/" (also for division by zero, sl_spec §6.3 IMPL-DEFINED)
//
// The *Big specializations accept any two Numbers, so after the 64-bit one
// rewrote on overflow the node continues exactly, and results fitting 64
// bits come back as longs.

#include <memory>
#include <optional>

#include "languages/sl/nodes/operator_node.h"
#include "languages/sl/runtime/big_integer.h"
#include "languages/sl/runtime/values.h"
#include "nodes/directives.h"

namespace morel::sl {

class SLAddNode;
class SLSubNode;
class SLMulNode;
class SLDivNode;

// Guards shared by the arithmetic and comparison specializations.
template <typename C>
typename C::Bool BothLongs(C& c, typename C::V l, typename C::V r) {
  return c.And(c.IsLong(l), c.IsLong(r));
}
template <typename C>
typename C::Bool IsNumberValue(C& c, typename C::V v) {
  return c.Or(c.IsLong(v), c.HasTag(v, kBigIntegerTag));
}
template <typename C>
typename C::Bool BothNumbers(C& c, typename C::V l, typename C::V r) {
  return c.And(IsNumberValue(c, l), IsNumberValue(c, r));
}

// A 64-bit result that leaves the specialization when it overflowed.
template <typename C, typename Result>
MOREL_FAST_PATH typename C::V LongUnlessOverflow(C& c, Result result) {
  c.RewriteOn(result.overflow);
  return c.BoxLong(result.value);
}

// A number operator's two specializations: Op##Long (both operands longs:
// `long_result`) and Op##Big (any two Numbers: `big_result`), expressions of
// the context `c` and the operands `l` and `r`. Also the comparisons'
// (comparison_nodes.h).
#define MOREL_SL_NUMBER_SPECIALIZATIONS(Node, Op, long_result, big_result)                      \
  struct Op##Long {                                                                             \
    static constexpr absl::string_view kName = #Op "Long";                                      \
    static constexpr auto Guard = [](auto& c, auto l, auto r) { return BothLongs(c, l, r); };   \
    static constexpr auto Body = [](auto& c, Node&, auto l, auto r) { return long_result; };    \
  };                                                                                            \
  struct Op##Big {                                                                              \
    static constexpr absl::string_view kName = #Op "Big";                                       \
    static constexpr auto Guard = [](auto& c, auto l, auto r) { return BothNumbers(c, l, r); }; \
    static constexpr auto Body = [](auto& c, Node&, auto l, auto r) { return big_result; };     \
  };

MOREL_SL_NUMBER_SPECIALIZATIONS(SLAddNode, Add,
                                LongUnlessOverflow(c, c.AddOverflow(c.AsLong(l), c.AsLong(r))),
                                c.template Call<&BigAdd>(l, r))
MOREL_SL_NUMBER_SPECIALIZATIONS(SLSubNode, Sub,
                                LongUnlessOverflow(c, c.SubOverflow(c.AsLong(l), c.AsLong(r))),
                                c.template Call<&BigSub>(l, r))
MOREL_SL_NUMBER_SPECIALIZATIONS(SLMulNode, Mul,
                                LongUnlessOverflow(c, c.MulOverflow(c.AsLong(l), c.AsLong(r))),
                                c.template Call<&BigMul>(l, r))

// String concatenation of §5.4 string forms when either operand is a String.
Value ConcatValues(Value left, Value right);
// Its compile-time form (CallFoldable): a new flat string of at most 1 KiB
// for flat strings and longs; nullopt for other operands.
std::optional<Value> FoldConcatValues(Value left, Value right);

struct AddConcat {
  static constexpr absl::string_view kName = "Concat";
  static constexpr auto Guard = [](auto& c, auto l, auto r) {
    return c.Or(c.HasTag(l, kStringTag), c.HasTag(r, kStringTag));
  };
  static constexpr auto Body = [](auto& c, SLAddNode&, auto l, auto r) {
    return c.template CallFoldable<&ConcatValues, &FoldConcatValues>(l, r);
  };
};

struct DivLong {
  static constexpr absl::string_view kName = "DivLong";
  static constexpr auto Guard = [](auto& c, auto l, auto r) { return BothLongs(c, l, r); };
  static constexpr auto Body = [](auto& c, SLDivNode&, auto l, auto r) {
    auto divisor = c.AsLong(r);
    auto dividend = c.AsLong(l);
    // A zero divisor and INT64_MIN / -1 leave for DivBig, which reports the
    // former and computes the latter exactly.
    c.RewriteOn(c.Or(c.LongEqual(divisor, 0),
                     c.And(c.LongEqual(divisor, -1), c.LongEqual(dividend, INT64_MIN))));
    return c.BoxLong(c.LongDivide(dividend, divisor));
  };
};

// BigDiv with the division-by-zero check (a type error with location).
Value CheckedBigDiv(const SLDivNode* node, Value left, Value right);

struct DivBig {
  static constexpr absl::string_view kName = "DivBig";
  static constexpr auto Guard = [](auto& c, auto l, auto r) { return BothNumbers(c, l, r); };
  static constexpr auto Body = [](auto& c, SLDivNode& node, auto l, auto r) {
    return c.template Call<&CheckedBigDiv>(static_cast<const SLDivNode*>(&node), l, r);
  };
};

class SLAddNode final : public SLOperatorNode<SLAddNode, 2, AddLong, AddBig, AddConcat> {
 public:
  MOREL_NODE_KIND(SLAddNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLAddNode& node, Value l, Value r);
};

class SLSubNode final : public SLOperatorNode<SLSubNode, 2, SubLong, SubBig> {
 public:
  MOREL_NODE_KIND(SLSubNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLSubNode& node, Value l, Value r);
};

class SLMulNode final : public SLOperatorNode<SLMulNode, 2, MulLong, MulBig> {
 public:
  MOREL_NODE_KIND(SLMulNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLMulNode& node, Value l, Value r);
};

class SLDivNode final : public SLOperatorNode<SLDivNode, 2, DivLong, DivBig> {
 public:
  MOREL_NODE_KIND(SLDivNode)
  using SLOperatorNode::SLOperatorNode;
  static Value Fallback(SLDivNode& node, Value l, Value r);
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_ARITHMETIC_NODES_H_
