#ifndef MOREL_NODES_OPERATOR_NODE_H_
#define MOREL_NODES_OPERATOR_NODE_H_

// A node whose whole behaviour is to evaluate its N operands left to right
// and run its specializations on their values: Truffle's nodes declared with
// @NodeChild and @Specialization. Most expression nodes are one; a language
// writes only the specializations (nodes/specialization.h) and a fallback:
//
//   class AddNode final : public OperatorNode<AddNode, Expression, Expression, 2,
//                                             AddLong, AddBig> {
//    public:
//     MOREL_NODE_KIND(AddNode)
//     ... the family's members derived from Run (nodes/execution.h) ...
//     using OperatorNode::OperatorNode;  // (section, left, right)
//     static Value Fallback(AddNode& node, Value left, Value right);
//   };
//
// Base is the class the node derives from (the language's node family, or a
// class of it; constructible from a SourceSection); Operand is the operands'
// family. Run is written once (nodes/execution.h): the operands are Execute
// steps 0..N-1, the specializations step N; as a bytecode operation the
// operands come from the stack (null operand children).

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/types/span.h"
#include "nodes/directives.h"
#include "nodes/execution.h"
#include "nodes/node.h"
#include "nodes/source.h"
#include "nodes/specialization.h"

namespace morel {

template <typename Derived, typename Base, typename Operand, size_t N, typename... Specs>
class OperatorNode : public Base {
 public:
  using Specializations = Specializer<Derived, Specs...>;
  // As a bytecode operation it takes exactly N operands (bytecode_root_node.h).
  static constexpr size_t kOperandCount = N;

  // (section, operands...): N std::unique_ptr<Operand>s (null for an
  // operation's stack operands).
  template <typename... Operands>
  requires(sizeof...(Operands) == N && (std::is_convertible_v<Operands, std::unique_ptr<Operand>> &&
                                        ...)) explicit OperatorNode(SourceSection section,
                                                                    Operands&&... operands)
      : Base(std::move(section)),
        operands_{Child<Operand>(std::unique_ptr<Operand>(std::forward<Operands>(operands)))...} {}

  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    return RunOperands(x, std::make_index_sequence<N>());
  }
  // Run as a bytecode operation (Operate, nodes/execution.h), whose operands
  // are values already: the specializations on them, without an execution
  // context. The same steps as Run in an Operating context, but GCC kept
  // that context's fields in memory in SL's bytecode switch: four stores per
  // operation that nothing read. First the inline specializations without
  // calls or state changes (Specializer::TryInline), then, on a miss, the
  // whole of them out of line: so an operation called through its vtable
  // saves two registers, not six (GCC puts the miss path's saves at the
  // entry). Callgrind, bytecode interpreter: fields 0.92, richards 0.96,
  // records 0.96, and the inlined operations of SL's switch too (loop 0.97).
  MOREL_FAST_PATH Value RunOnOperands(absl::Span<const Value> operands) {
    if (std::optional<Value> result = TryRunOn(operands.data(), std::make_index_sequence<N>())) {
      return *result;
    }
    return RunOnOperandsOutOfLine(operands.data());
  }
  // RunOnOperands with operand i at *operands[i], wherever it is: a
  // bytecode switch reads the operands that an instruction names (locals, a
  // constant) in place instead of copying them onto its operand stack first
  // (measured: bytecode_switch.h, OperandsInPlace). The miss path gets the
  // pointers one by one, so that the caller's array of them stays in
  // registers.
  MOREL_FAST_PATH Value RunOnOperandsAt(const Value* const* operands) {
    if (std::optional<Value> result = TryRunAt(operands, std::make_index_sequence<N>())) {
      return *result;
    }
    return RunOnOperandsAtOutOfLine(operands, std::make_index_sequence<N>());
  }
  // RunOnOperandsAt as a call of its own, with one pointer per operand: a
  // bytecode switch's call of an operation that it does not inline
  // (bytecode::CalledOperation).
  template <typename... Pointers>
  requires(sizeof...(Pointers) == N) MOREL_INLINING_CUTOFF Value
      RunOnOperandsAtCalled(Pointers... operands) {
    const Value* const pointers[N] = {operands...};
    return RunOnOperandsAt(pointers);
  }
  // A call-free path for the interpreter: the node's value if the language
  // evaluates every operand without a call (TryExecuteChildInline: SL's
  // local reads and constants) and an inline specialization applies
  // without rewriting itself; otherwise nothing, having had no effect (an
  // operand's evaluation is a read), and the node's Execute then runs from
  // the start. A separate entry from Execute, which the language calls
  // where inline_operands() (SL: Evaluate): a function whose every path is
  // call-free saves no registers, and GCC does not shrink-wrap Execute's
  // own (its prologue stays at the entry), nor make a call from here to it
  // a tail call. SL's arithmetic, comparisons and property reads
  // (callgrind, AST interpreter: loop 0.88, sieve 0.89, kernel 0.92 of the
  // instructions; property reads from local receivers: fields 0.90,
  // richards 0.95).
  MOREL_FAST_PATH std::optional<Value> TryRunInline(Frame& frame) requires(
      execution_internal::kHasInlineHook<Operand>) {
    return TryRunInlineFrom<0>(frame);
  }
  // Whether every operand may evaluate without a call now (ExecutesInline,
  // the language's hook beside TryExecuteChildInline): where TryRunInline
  // may succeed. A language asks when it builds the node (SL: kCallFree);
  // operands replaced later make that answer stale, never wrong
  // (TryExecuteChildInline decides).
  bool inline_operands() const requires(execution_internal::kHasInlineHook<Operand>) {
    for (const Child<Operand>& operand : operands_) {
      if (!operand || !ExecutesInline(operand.get())) return false;
    }
    return true;
  }
  void ForEachChild(ChildVisitor visitor) override {
    for (Child<Operand>& operand : operands_) execution_internal::VisitChild(visitor, operand);
    specializer_.ForEachChild(visitor);  // children of cache entries
  }

  const Specializations& specializer() const { return specializer_; }

 private:
  template <typename X, size_t... I>
  MOREL_FAST_PATH typename X::V RunOperands(X& x, std::index_sequence<I...>) {
    // A braced list evaluates left to right.
    typename X::V values[] = {x.Execute(operands_[I])...};
    return x.Specialize(specializer_, static_cast<Derived&>(*this), values[I]...);
  }

  // Operands I.. evaluated inline, then the specializations on them all.
  // The values are arguments, never an array: a local whose address is
  // taken keeps GCC from making the miss path's call (the language's, to
  // Execute) a tail call.
  template <size_t I, typename... Values>
  MOREL_FAST_PATH std::optional<Value> TryRunInlineFrom(Frame& frame, Values... values) {
    if constexpr (I == N) {
      return specializer_.TryInline(static_cast<Derived&>(*this), values...);
    } else {
      std::optional<Value> value = TryExecuteChildInline(operands_[I].get(), frame);
      if (!value) return std::nullopt;
      return TryRunInlineFrom<I + 1>(frame, values..., *value);
    }
  }

  template <size_t... I>
  MOREL_FAST_PATH std::optional<Value> TryRunOn(const Value* values, std::index_sequence<I...>) {
    return specializer_.TryInline(static_cast<Derived&>(*this), values[I]...);
  }
  template <size_t... I>
  MOREL_FAST_PATH std::optional<Value> TryRunAt(const Value* const* operands,
                                                std::index_sequence<I...>) {
    return specializer_.TryInline(static_cast<Derived&>(*this), *operands[I]...);
  }
  template <size_t... I>
  MOREL_FAST_PATH Value RunOnOperandsAtOutOfLine(const Value* const* operands,
                                                 std::index_sequence<I...>) {
    return RunOnOperandsOutOfLine(operands[I]...);
  }
  // The operands copied into this frame (which the collector scans) for
  // the specializations.
  template <typename... Pointers>
  MOREL_INLINING_CUTOFF Value RunOnOperandsOutOfLine(Pointers... operands) {
    const Value values[N] = {*operands...};
    return specializer_.template ExecuteOn<N>(static_cast<Derived&>(*this), values);
  }
  MOREL_INLINING_CUTOFF Value RunOnOperandsOutOfLine(const Value* values) {
    return specializer_.template ExecuteOn<N>(static_cast<Derived&>(*this), values);
  }

  Child<Operand> operands_[N];
  Specializations specializer_;
};

}  // namespace morel

#endif  // MOREL_NODES_OPERATOR_NODE_H_
