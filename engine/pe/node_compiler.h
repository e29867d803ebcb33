#ifndef MOREL_ENGINE_PE_NODE_COMPILER_H_
#define MOREL_ENGINE_PE_NODE_COMPILER_H_

// Compiled code from a node written once (nodes/execution.h): the
// definition of pe::CompileNode, which runs a node's Run with Compiling, the
// context whose vocabulary emits IR.
//
// What Compiling does with each step:
//   Execute(child)   the child's own code (its family's PartialEvaluate, or
//                    a LoopNode's loop), its outcome recorded as done on the
//                    resume path: a value, or a statement's normal status
//                    (abrupt completions left through jumps already);
//   If               a constant condition evaluates one arm; otherwise two
//                    blocks and a merge of the locals (and of the value),
//                    each arm starting from the same locals and done
//                    outcomes; after it, Execute is refused (a branch ends
//                    the node, so resume numbering never depends on an arm);
//   Require          a speculation (deoptimizing, invalidating the code);
//   Break/Continue   jumps to the innermost loop's exit or back edge;
//   Return           PartialEvaluator::Return with kReturn.
// CompileNode brackets a node with Enter/Leave. A RepeatingNode compiles to
// a whole loop (CompileLoop): Run is one iteration, and its normal
// completion goes to the back edge.
//
// morel_compiled_nodes (compiled_nodes.bzl) instantiates CompileNode for a
// language's node classes in a generated source.

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/pe/compiled_operation.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/pe_context.h"
#include "nodes/execution.h"
#include "nodes/loop_node.h"
#include "nodes/node.h"
#include "nodes/root_node.h"

namespace morel::pe {

class Compiling : public PeContext {
 public:
  Compiling(PartialEvaluator& pe, Node& node) : PeContext(pe), evaluator_(pe), node_(node) {}
  // A compiled operation (CompileOperation): Execute steps take `operands`,
  // already reported as done.
  Compiling(PartialEvaluator& pe, Node& node, absl::Span<const PeValue> operands)
      : PeContext(pe), evaluator_(pe), node_(node), operands_(operands), operating_(true) {}

  template <typename T>
  auto Execute(T* child) {
    using R = execution_internal::ChildResult<T>;
    if (after_branch_) {
      evaluator_.Bailout(
          absl::StrCat(node_.kind_name(), " executes a child after a branch (nodes/execution.h)"));
    }
    if (operating_) {
      if constexpr (std::is_same_v<R, Value>) {
        if (step_ < static_cast<int>(operands_.size())) return operands_[step_++];
        evaluator_.Bailout(absl::StrCat(node_.kind_name(),
                                        " as an operation executes more than its ",
                                        operands_.size(), " operands"));
        return PeValue{};
      } else {
        evaluator_.Bailout(
            absl::StrCat(node_.kind_name(), " as an operation executes a statement"));
        return static_cast<R>(kNormal);
      }
    }
    if constexpr (std::is_base_of_v<LoopNode, T>) {
      evaluator_.Enter(child);
      int status = child->repeating_node()->PartialEvaluateLoop(evaluator_);
      evaluator_.Leave();
      if (status < 0) {
        evaluator_.Bailout(
            absl::StrCat("loops of ", child->repeating_node()->kind_name(), " cannot be compiled"));
      }
      evaluator_.DoneStatus(status);
      return static_cast<R>(status);
    } else if constexpr (std::is_same_v<R, Value>) {
      PeValue value = child->PartialEvaluate(evaluator_);
      evaluator_.DoneValue(value);
      return value;
    } else {
      child->PartialEvaluate(evaluator_);
      evaluator_.DoneStatus(kNormal);
      return static_cast<R>(kNormal);
    }
  }
  template <typename T>
  auto Execute(const Child<T>& child) {
    return Execute(child.get());
  }
  template <typename T>
  void ExecuteForEffect(const Child<T>& child) {
    Execute(child.get());
  }

  // PeContext::IfElse, each arm starting from the done outcomes before the
  // branch and leaving them so.
  template <typename Then, typename Else>
  auto If(Bool condition, Then then_part, Else else_part) {
    using R = decltype(then_part());
    int done = evaluator_.DoneCount();
    auto arm = [&](auto& part) {
      after_branch_ = false;
      if constexpr (std::is_void_v<R>) {
        part();
        evaluator_.TruncateDone(done);
      } else {
        R result = part();
        evaluator_.TruncateDone(done);
        return result;
      }
    };
    auto then_arm = [&] { return arm(then_part); };
    auto else_arm = [&] { return arm(else_part); };
    if constexpr (std::is_void_v<R>) {
      IfElse(condition, then_arm, else_arm);
      after_branch_ = true;
    } else if constexpr (std::is_same_v<R, PeValue>) {
      PeValue result = IfElse(condition, then_arm, else_arm);
      after_branch_ = true;
      return result;
    } else {
      // A status: an arm that completed abruptly (break, continue, return)
      // jumped away and continued in a dead block; what falls through to
      // the merge completed normally. (A constant condition runs one arm.)
      std::optional<R> then_status, else_status;
      IfElse(
          condition, [&] { then_status = arm(then_part); }, [&] { else_status = arm(else_part); });
      after_branch_ = true;
      if (!else_status) return *then_status;
      if (!then_status) return *else_status;
      return *then_status == *else_status ? *then_status : static_cast<R>(kNormal);
    }
  }

  template <typename T, typename K>
  auto ExecuteEach(const ChildList<T>& children, K k) {
    std::vector<PeValue> values;
    values.reserve(children.size());
    for (size_t i = 0; i < children.size(); ++i) values.push_back(Execute(children[i]));
    return k(absl::Span<const PeValue>(values));
  }

  // The node's operation: its active specializations, the same templates
  // the interpreter runs, emitting IR (Specializer::PartialEvaluate).
  template <typename S, typename N, typename... Args>
  PeValue Specialize(S& specializer, N& node, Args... args) {
    return specializer.PartialEvaluate(static_cast<PeContext&>(*this), node, args...);
  }

  template <typename Fail, typename... Values>
  void Require(Bool ok, const char* reason, Fail, const Values&...) {
    if (ConstantBool(ok) == std::optional<bool>(true)) return;
    evaluator_.Speculate(ok, reason);
  }

  template <typename Fail>
  PeValue AssignedLocal(int slot, Fail) {
    return evaluator_.AssignedLocal(slot);
  }
  void SetLocal(int slot, PeValue value) { evaluator_.SetLocal(slot, value); }
  PeValue Argument(int index, Value missing) { return evaluator_.Argument(index, missing); }
  // A compiled `return` leaves through PartialEvaluator::Return: no kReturn
  // completion reaches the code that would read the value.
  PeValue ReturnValue() {
    evaluator_.Bailout(absl::StrCat(node_.kind_name(), " reads a return value in compiled code"));
    return evaluator_.Constant(Value::Illegal());
  }

  Completion Break() {
    evaluator_.JumpTo(evaluator_.loop_exit());
    evaluator_.ContinueInDeadBlock();
    return kBreak;
  }
  Completion Continue() {
    evaluator_.JumpTo(evaluator_.loop_header());
    evaluator_.ContinueInDeadBlock();
    return kContinue;
  }
  Completion Return(PeValue value) {
    evaluator_.Return(value, kReturn);
    return kReturn;
  }

 private:
  PartialEvaluator& evaluator_;
  Node& node_;
  absl::Span<const PeValue> operands_;
  bool operating_ = false;
  int step_ = 0;
  bool after_branch_ = false;
};

// A repeating node's whole loop: header, one iteration (Run), back edge
// (safepoint and profiling, PartialEvaluator::BackEdge), exit. The loop's
// status at its exit is kBreak (a `return` in it left through
// PartialEvaluator::Return).
template <typename N>
int CompileLoop(N& node, PartialEvaluator& pe) {
  pe.Enter(&node);
  PartialEvaluator::Merge header = pe.NewMerge();
  // The end of an iteration and every `continue` come to the back edge.
  PartialEvaluator::Merge back_edge = pe.NewMerge();
  PartialEvaluator::Merge exit = pe.NewMerge();
  pe.JumpTo(header);
  pe.Continue(header);
  pe.PushLoop(&back_edge, &exit);
  Compiling x(pe, node);
  int status = node.Run(x);
  pe.PopLoop();
  pe.TruncateDone(0);
  if (!pe.Terminated()) pe.JumpTo(status == RepeatingNode::kContinueLoop ? back_edge : exit);
  pe.Continue(back_edge);
  pe.BackEdge();
  pe.JumpTo(header);
  pe.Continue(exit);
  pe.Leave();
  return kBreak;
}

template <typename N>
CompiledResult<N> CompileNode(N& node, PartialEvaluator& pe) {
  if constexpr (std::is_base_of_v<RootNode, N>) {
    // A root: its result returns from the function (a `return` inside
    // already did).
    pe.Enter(&node);
    Compiling x(pe, node);
    PeValue result = node.Run(x);
    pe.Leave();
    if (!pe.Terminated()) pe.Return(result);
    return absl::OkStatus();
  } else if constexpr (std::is_base_of_v<RepeatingNode, N>) {
    return CompileLoop(node, pe);
  } else {
    pe.Enter(&node);
    Compiling x(pe, node);
    if constexpr (std::is_same_v<CompiledResult<N>, PeValue>) {
      PeValue result = node.Run(x);
      pe.Leave();
      return result;
    } else {
      node.Run(x);
      pe.Leave();
    }
  }
}

template <typename N>
PeValue CompileOperation(N& node, PartialEvaluator& pe, absl::Span<const PeValue> operands) {
  return WithOperands(pe, &node, operands, [&] {
    Compiling x(pe, node, operands);
    return node.Run(x);
  });
}

// CompileOperation<N>, instantiated (by MOREL_COMPILE_NODE) for the nodes
// that are compiled operations.
template <typename N, bool = std::is_base_of_v<CompiledOperation, N>>
struct OperationInstance {};
template <typename N>
struct OperationInstance<N, true> {
  static constexpr PeValue (*kCompile)(N&, PartialEvaluator&,
                                       absl::Span<const PeValue>) = &CompileOperation<N>;
};

}  // namespace morel::pe

// Instantiates CompileNode for node class `Name` (a generated source's line,
// compiled_nodes.bzl).
#define MOREL_COMPILE_NODE(Name)                                             \
  namespace morel::pe {                                                      \
  template CompiledResult<Name> CompileNode<Name>(Name&, PartialEvaluator&); \
  template struct OperationInstance<Name>;                                   \
  }

#endif  // MOREL_ENGINE_PE_NODE_COMPILER_H_
