#ifndef MOREL_NODES_EXECUTION_H_
#define MOREL_NODES_EXECUTION_H_

// A node's behaviour, written once (issue #15).
//
// A node class defines one member template over an execution context X:
//
//   template <typename X>
//   auto Run(X& x);   // returns X::V (an expression), or a Completion
//
// and builds it only from this vocabulary (beside the specialization
// vocabulary of nodes/interpreter_context.h, which X also provides):
//
//   x.Execute(child)        evaluates a child (a Child<T>, or a T* from a
//                           ChildList); its result is the child family's
//                           (a value or a Completion). Each call is one
//                           step of the node's resume numbering.
//   x.ExecuteEach(list, k) evaluates a ChildList's children in order (a step
//                           each) and calls k(absl::Span<const X::V>) with
//                           their values, returning what k returns (the
//                           values live until k returns). Mark k
//                           MOREL_FAST_LAMBDA: the interpreter inlines it.
//   x.ExecuteForEffect(child)
//                           Execute of an expression whose value the node
//                           discards (Truffle's executeVoid): the same step,
//                           through the hook ExecuteChildForEffect(T*,
//                           Frame&) where the language defines one (SL:
//                           a virtual call without the leaf check that pays
//                           only where the value is used).
//   x.Specialize(specializer, node, args...)
//                           the node's operation, through its
//                           specializations (nodes/specialization.h). A
//                           step too: resumed after it (an operation that
//                           called guest code and was invalidated
//                           meanwhile, nodes/resume.h), its recorded result
//                           is returned instead of running it again.
//   x.If(c, then, else)     runs one arm (lambdas of no arguments returning
//                           the same type: void, X::V or Completion). A
//                           branch ends the node: nothing is executed
//                           after it (an arm may execute children).
//   x.Require(ok, reason, fail, values...)
//                           the interpreter calls fail(frame, values...)
//                           when !ok (a guest error: fail must not
//                           return); compiled code speculates on ok and
//                           deoptimizes to here, where the interpreter then
//                           fails. `fail` is a generic lambda
//                           ([&](auto& frame, const auto& value) {...}),
//                           never instantiated for compiled code: what it
//                           uses of the node's values, it takes as
//                           arguments.
//   x.AssignedLocal(slot, fail)
//                           a local that must be assigned (fail as above).
//   x.SetLocal(slot, v)     writes a local (resumed, only after the last
//                           replayed step: the ones before happened).
//   x.Argument(i, missing)  the activation's argument i (missing: fewer
//                           were passed).
//   x.ReturnValue()         the value a kReturn completion returned.
//   x.Break(), x.Continue(), x.Return(v)
//                           leave a loop iteration or the function; they
//                           return the Completion to propagate.
//   X::InInterpreter()      constexpr: guards interpreter-only work (`if
//                           constexpr`), e.g. profiling; x.frame() exists
//                           only there.
//
// From that one definition the node model derives:
//   - the interpreter:  Interpret(node, frame) (`Execute`), inlined code;
//   - resumption after a deoptimization: ResumeNode(node, frame, next,
//     done) (nodes/resume.h): the first `next` Execute steps replay their
//     recorded outcomes instead of running their children again;
//   - compiled code: pe::CompileNode(node, pe) (declared below), defined by
//     the engine (engine/pe/node_compiler.h), which records each
//     Execute step's outcome on the resume path, so that the numbering of
//     the interpreter's replay and the compiler's frame states is one;
//   - child enumeration: MOREL_CHILDREN(child fields...).
//
// A language connects its node families to this with one hook per family,
// found by argument-dependent lookup: `ExecuteChild(T* child, Frame&)`,
// returning the family's result (SL: a Value for expressions, a Completion
// for statements), optionally `ExecuteChildForEffect(T* child, Frame&)`;
// and, for compiled code, a family member
// `PartialEvaluate(pe::PartialEvaluator&)` returning pe::PeValue or void.

#include <alloca.h>

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "nodes/directives.h"
#include "nodes/frame.h"
#include "nodes/interpreter_context.h"
#include "nodes/loop_node.h"
#include "nodes/node.h"
#include "nodes/resume.h"
#include "nodes/root_node.h"
#include "nodes/value.h"

namespace morel {

// How control leaves a statement-like node. kNormal continues with what
// follows (and is RepeatingNode::kContinueLoop: a loop body's normal
// completion runs the next iteration); kBreak and kContinue leave the
// innermost loop's iteration; kReturn leaves the function (the value is in
// the frame's return-value register).
enum Completion : int {
  kNormal = RepeatingNode::kContinueLoop,
  kBreak = 1,
  kContinue = 2,
  kReturn = 3,
};

// A loop is a child whose result is the loop's final status.
MOREL_FAST_PATH int ExecuteChild(LoopNode* loop, Frame& frame) { return loop->Execute(frame); }

namespace execution_internal {

template <typename T>
using ChildResult = decltype(ExecuteChild(std::declval<T*>(), std::declval<Frame&>()));

template <typename R>
R FromOutcome(const Outcome& outcome) {
  if constexpr (std::is_same_v<R, Value>) {
    return outcome.value;
  } else {
    return static_cast<R>(outcome.status);
  }
}

inline Outcome ToOutcome(Value value) { return Outcome::OfValue(value); }
inline Outcome ToOutcome(int status) { return Outcome::OfStatus(status); }

template <typename T>
void VisitChild(ChildVisitor visitor, Child<T>& child) {
  if (child) visitor(child.slot());
}
template <typename T>
void VisitChild(ChildVisitor visitor, ChildList<T>& children) {
  children.ForEach(visitor);
}
// Anything else that holds children (e.g. a Specializer's cache entries).
template <typename T>
auto VisitChild(ChildVisitor visitor, T& holder) -> decltype(holder.ForEachChild(visitor)) {
  holder.ForEachChild(visitor);
}

// The optional hooks `std::optional<Value> TryExecuteChildInline(T* child,
// Frame&)`, the child's value evaluated without a call or nothing, and
// `bool ExecutesInline(const T* child)`, whether it may have one (SL: a
// local read or a constant): OperatorNode::TryRunInline.
template <typename T>
inline constexpr bool kHasInlineHook = requires(T* child, Frame& frame) {
  TryExecuteChildInline(child, frame);
};
// The optional hook ExecuteChildForEffect (see the vocabulary above).
template <typename T>
inline constexpr bool kHasEffectHook = requires(T* child, Frame& frame) {
  ExecuteChildForEffect(child, frame);
};

// ExecuteEach of the interpreting contexts: each child through x.Execute,
// the values on the native stack, where the collector sees them, until k
// returns.
template <typename X, typename T, typename K>
MOREL_FAST_PATH auto ExecuteEachOnStack(X& x, const ChildList<T>& children, K& k) {
  size_t count = children.size();
  auto* values = static_cast<Value*>(alloca(sizeof(Value) * (count + 1)));
  for (size_t i = 0; i < count; ++i) values[i] = x.Execute(children[i]);
  return k(absl::Span<const Value>(values, count));
}

}  // namespace execution_internal

// The interpreter's context: runs the node.
class Interpreting : public InterpreterContext {
 public:
  explicit Interpreting(Frame& frame) : frame_(frame) {}

  Frame& frame() { return frame_; }

  template <typename T>
  MOREL_FAST_PATH auto Execute(T* child) {
    return ExecuteChild(child, frame_);
  }
  template <typename T>
  MOREL_FAST_PATH auto Execute(const Child<T>& child) {
    return ExecuteChild(child.get(), frame_);
  }
  template <typename T>
  MOREL_FAST_PATH void ExecuteForEffect(const Child<T>& child) {
    if constexpr (execution_internal::kHasEffectHook<T>) {
      ExecuteChildForEffect(child.get(), frame_);
    } else {
      ExecuteChild(child.get(), frame_);
    }
  }
  template <typename T, typename K>
  MOREL_FAST_PATH auto ExecuteEach(const ChildList<T>& children, K k) {
    return execution_internal::ExecuteEachOnStack(*this, children, k);
  }

  template <typename Then, typename Else>
  MOREL_FAST_PATH auto If(bool condition, Then then_part, Else else_part) {
    if (condition) return then_part();
    return else_part();
  }

  template <typename Fail, typename... Values>
  MOREL_FAST_PATH void Require(bool ok, const char* /*reason*/, Fail fail,
                               const Values&... values) {
    if (!ok) [[unlikely]] {
      fail(frame_, values...);
    }
  }

  template <typename Fail>
  MOREL_FAST_PATH Value AssignedLocal(int slot, Fail fail) {
    Value value = frame_.Get(slot);
    if (value.IsIllegal()) [[unlikely]] {
      fail(frame_);
    }
    return value;
  }
  void SetLocal(int slot, Value value) { frame_.Set(slot, value); }
  Value Argument(int index, Value missing) {
    absl::Span<const Value> arguments = frame_.arguments();
    return static_cast<size_t>(index) < arguments.size() ? arguments[index] : missing;
  }
  Value ReturnValue() { return frame_.return_value(); }

  // The node's operation through its specializations (nodes/specialization.h).
  template <typename S, typename N, typename... Args>
  MOREL_FAST_PATH Value Specialize(S& specializer, N& node, Args... args) {
    return specializer.Execute(node, args...);
  }

  static Completion Break() { return kBreak; }
  static Completion Continue() { return kContinue; }
  Completion Return(Value value) {
    frame_.set_return_value(value);
    return kReturn;
  }

 private:
  Frame& frame_;
};

// Resumption (nodes/resume.h): the first `next_child` Execute steps return
// their outcomes from `done`; the rest runs as in the interpreter.
class Resuming : public Interpreting {
 public:
  Resuming(Frame& frame, int next_child, absl::Span<const Outcome> done)
      : Interpreting(frame), next_child_(next_child), done_(done) {}

  template <typename T>
  auto Execute(T* child) {
    using R = execution_internal::ChildResult<T>;
    int step = step_++;
    if (step < next_child_) return execution_internal::FromOutcome<R>(done_[step]);
    return ExecuteChild(child, frame());
  }
  template <typename T>
  auto Execute(const Child<T>& child) {
    return Execute(child.get());
  }
  template <typename T>
  void ExecuteForEffect(const Child<T>& child) {
    Execute(child.get());
  }
  template <typename T, typename K>
  auto ExecuteEach(const ChildList<T>& children, K k) {
    return execution_internal::ExecuteEachOnStack(*this, children, k);
  }
  // What happened before the last replayed step is not done again.
  void SetLocal(int slot, Value value) {
    if (step_ >= next_child_) Interpreting::SetLocal(slot, value);
  }
  template <typename S, typename N, typename... Args>
  Value Specialize(S& specializer, N& node, Args... args) {
    int step = step_++;
    if (step < next_child_) return done_[step].value;
    return specializer.Execute(node, args...);
  }

 private:
  int next_child_;
  absl::Span<const Outcome> done_;
  int step_ = 0;
};

// A node built as a bytecode operation (nodes/bytecode): its Execute steps
// take the operands, bottom of the stack first, instead of running children.
class Operating : public Interpreting {
 public:
  Operating(Frame& frame, absl::Span<const Value> operands)
      : Interpreting(frame), operands_(operands.data()) {}

  template <typename T>
  MOREL_FAST_PATH Value Execute(T*) {
    static_assert(std::is_same_v<execution_internal::ChildResult<T>, Value>,
                  "an operation's operands are values");
    return operands_[step_++];
  }
  // (Without reading the child: its slot is an atomic the compiler would
  // load on every operation.)
  template <typename T>
  MOREL_FAST_PATH Value Execute(const Child<T>&) {
    return Execute(static_cast<T*>(nullptr));
  }
  template <typename T>
  MOREL_FAST_PATH void ExecuteForEffect(const Child<T>& child) {
    Execute(child);
  }
  // A list takes as many operands as it has (null) children.
  template <typename T, typename K>
  MOREL_FAST_PATH auto ExecuteEach(const ChildList<T>& children, K k) {
    absl::Span<const Value> values(operands_ + step_, children.size());
    step_ += static_cast<int>(children.size());
    return k(values);
  }

 private:
  // A pointer, not the Span: Span's checked operator[] left a bound check
  // per operand in SL's bytecode switch (its code 27% larger, loop 8% more
  // instructions).
  const Value* operands_;
  int step_ = 0;
};

// Node::Execute (or the family's equivalent) of a node written once.
// TODO(#15): the derived fast paths are the hand-written ones instruction for
// instruction except for GCC's register allocation around Specialize: a
// node whose Execute calls its Specializer directly compiles as before,
// the same node through Interpreting::Specialize (one always-inline frame
// more) copies or spills one to three more values (callgrind, AST
// interpreter: one instruction more per binary operator, three in a
// property read; no argument form of Specialize changed it).
template <typename N>
MOREL_FAST_PATH auto Interpret(N& node, Frame& frame) {
  Interpreting x(frame);
  return node.Run(x);
}

// BytecodeOperation::ExecuteOperation of a node written once.
template <typename N>
MOREL_FAST_PATH Value Operate(N& node, Frame& frame, absl::Span<const Value> operands) {
  if constexpr (requires { node.RunOnOperands(operands); }) {
    return node.RunOnOperands(operands);  // an OperatorNode (nodes/operator_node.h)
  } else {
    Operating x(frame, operands);
    return node.Run(x);
  }
}

// Node::Resume of a node written once.
template <typename N>
Outcome ResumeNode(N& node, Frame& frame, int next_child, absl::Span<const Outcome> done) {
  Resuming x(frame, next_child, done);
  return execution_internal::ToOutcome(node.Run(x));
}

// Visits the given child fields (Child<T>, ChildList<T>; null children are
// skipped), in execution order.
template <typename... Children>
void VisitChildren(ChildVisitor visitor, Children&... children) {
  (execution_internal::VisitChild(visitor, children), ...);
}

namespace ir {
class Value;
}  // namespace ir

namespace pe {

class PartialEvaluator;

// A guest value in compiled code: its payload and tag as SSA values, opaque
// to languages (engine/pe gives them meaning).
struct PeValue {
  ir::Value* payload = nullptr;
  ir::Value* tag = nullptr;
};

// What a node's compiled form returns: a root's status (RootNode::
// PartialEvaluate), a repeating node's loop status (int), an expression's
// PeValue, or nothing for a node whose Run returns a Completion.
template <typename N>
struct CompiledResultOf {
  using RunResult = decltype(std::declval<N&>().Run(std::declval<Interpreting&>()));
  using type = std::conditional_t<
      std::is_base_of_v<RootNode, N>, absl::Status,
      std::conditional_t<std::is_base_of_v<RepeatingNode, N>, int,
                         std::conditional_t<std::is_same_v<RunResult, Value>, PeValue, void>>>;
};
template <typename N>
using CompiledResult = typename CompiledResultOf<N>::type;

// Emits `node`'s code into `pe`'s graph from its Run. Declared here so that
// a node's PartialEvaluate can name it; defined by the engine
// (engine/pe/node_compiler.h) and instantiated for a language's node classes
// by the engine's morel_compiled_nodes build rule, so that no language source
// includes the compiler.
template <typename N>
CompiledResult<N> CompileNode(N& node, PartialEvaluator& pe);

// What a bytecode operation (nodes/bytecode/bytecode_operation.h, `op k n`)
// emits when partial evaluation merge-explodes its bytecode root
// (engine/pe/bytecode_explode.cc). The operation's node implements it beside
// BytecodeOperation.
//
// Contract: the operation brackets its code with Enter(node)/Leave and
// reports each operand as a done value, bottom first, so a frame state
// inside it resumes the node through Node::Resume(frame, n, operands) -- its
// operator with these operands -- and the root then continues after the
// instruction with the result. Nodes built for bytecode have no children:
// their Resume must not evaluate one when next_child reaches the operand
// count. A node written once gets all of this from CompileOperation.
class CompiledOperation {
 public:
  virtual ~CompiledOperation() = default;
  // Emits the operation on `operands` (bottom of the stack first) and
  // returns the value the instruction pushes. May bail out (pe.Bailout).
  virtual PeValue PartialEvaluateOperation(PartialEvaluator& pe,
                                           absl::Span<const PeValue> operands) = 0;
};

// `node`'s Run as a compiled operation: its Execute steps take `operands`
// (engine/pe/node_compiler.h; instantiated with CompileNode for nodes that
// implement CompiledOperation).
template <typename N>
PeValue CompileOperation(N& node, PartialEvaluator& pe, absl::Span<const PeValue> operands);

}  // namespace pe

}  // namespace morel

// Node::ForEachChild over the listed child fields, in execution order.
#define MOREL_CHILDREN(...)                                   \
  void ForEachChild(::morel::ChildVisitor visitor) override { \
    ::morel::VisitChildren(visitor, __VA_ARGS__);             \
  }

// The BytecodeOperation and pe::CompiledOperation members of an operation
// written once, whose class (or CRTP derived class) is Self.
#define MOREL_OPERATION_METHODS(Self)                                                            \
  MOREL_FAST_PATH ::morel::Value ExecuteOperation(                                               \
      ::morel::Frame& frame, absl::Span<const ::morel::Value> operands) override {               \
    return ::morel::Operate(static_cast<Self&>(*this), frame, operands);                         \
  }                                                                                              \
  ::morel::pe::PeValue PartialEvaluateOperation(::morel::pe::PartialEvaluator& pe,               \
                                                absl::Span<const ::morel::pe::PeValue> operands) \
      override {                                                                                 \
    return ::morel::pe::CompileOperation(static_cast<Self&>(*this), pe, operands);               \
  }

// The members a node written once derives from its Run, for a node class
// (or CRTP derived class) Self: the interpreter's `Result Method(Frame&)`
// (a family's Execute, RepeatingNode::ExecuteRepeating) and Resume ...
#define MOREL_INTERPRETED_BY_RUN(Self, Result, Method)                              \
  MOREL_NO_STACK_PROTECTOR Result Method(::morel::Frame& frame) override {          \
    return ::morel::Interpret(static_cast<Self&>(*this), frame);                    \
  }                                                                                 \
  ::morel::Outcome Resume(::morel::Frame& frame, int next_child,                    \
                          absl::Span<const ::morel::Outcome> done) override {       \
    return ::morel::ResumeNode(static_cast<Self&>(*this), frame, next_child, done); \
  }
// ... and compiled code's `Result Method(pe::PartialEvaluator&)` (a family's
// PartialEvaluate, RepeatingNode::PartialEvaluateLoop, RootNode::
// PartialEvaluate).
#define MOREL_COMPILED_BY_RUN(Self, Result, Method)                 \
  Result Method(::morel::pe::PartialEvaluator& pe) override {       \
    return ::morel::pe::CompileNode(static_cast<Self&>(*this), pe); \
  }

// The RepeatingNode members of a repeating node written once: its Run is
// one iteration, returning kNormal (== kContinueLoop) to run another; and
// ExecuteRepeatingInline, the iteration that a LoopNode around a final class
// inlines (LoopNode::RunAs: GCC left a larger iteration out of line).
#define MOREL_REPEATING_NODE(Name)                                    \
  MOREL_NODE_KIND(Name)                                               \
  MOREL_INTERPRETED_BY_RUN(Name, int, ExecuteRepeating)               \
  MOREL_COMPILED_BY_RUN(Name, int, PartialEvaluateLoop)               \
  MOREL_FAST_PATH int ExecuteRepeatingInline(::morel::Frame& frame) { \
    return ::morel::Interpret(*this, frame);                          \
  }

#endif  // MOREL_NODES_EXECUTION_H_
