#ifndef MOREL_LANGUAGES_SL_NODES_INVOKE_NODE_H_
#define MOREL_LANGUAGES_SL_NODES_INVOKE_NODE_H_

// Calls (sl_spec §6.8): the callee expression, then the arguments left to
// right, then the call.
//
//   InvokeDirect (limit 4): a cache entry per callee function, holding a
//     DirectCallNode to its current call target (splittable, inlinable)
//   InvokeIndirect (replaces InvokeDirect): any function, through an
//     IndirectCallNode; an undefined function raises "Undefined function: f"
//   fallback (callee is not a function): "Undefined function: <value>"
//
// The interpreter, too, calls a builtin that does not need its frame
// directly (DirectlyCallableBuiltin::InvokeDirectly), as compiled code does,
// not through its call target (paired wall time, AST and bytecode
// interpreter: richards 0.91 and 0.92, binarytrees 0.92 and 0.94).
//
// A cache entry is valid while the function still runs the target it
// cached (Truffle SL's callTargetStable assumption, captured per entry):
// redefinition (defineFunction, eval) swaps the target and invalidates the
// assumption, so the guard fails and the next call caches the new code.
// Compiled code relies on the assumption instead of checking it, and is
// invalidated with it.
//
// In compiled code (engine/pe) both specializations are calls: InvokeDirect
// a call_target to the entry's current target (CallDirect) -- or, for a
// builtin that does not inspect its caller's frame, a runtime call of the
// builtin itself (builtins are internal roots, never compiled, so a call
// through their call target would run them in the interpreter with a frame
// of their own; richards: 165 -> 125 ms; two builtins are simpler still,
// Intrinsic: isNull a tag check, new() the allocation and shape store of
// NewObject, which escape analysis can remove) -- and InvokeIndirect a
// runtime call of CallIndirect with the arguments as a span. A callee that
// writes its caller's frame (helloEqualsWorld) needs an interpreter frame
// (compiled frames are not written back, TODO(#6)): compiled code transfers
// to the interpreter right before a direct call to one, keeping the code
// (CallDirect), and the interpreter makes the call; an indirect call to one
// transfers to the interpreter first too, also keeping the code. A callee
// that only reads its caller's frame (stacktrace) sees the compiled caller
// either way: through the call_target's lazy frame state, or through the
// guest-call entry's segment for CallIndirect (CallGuest;
// engine/runtime/compiled_frames.h).
//
// Reports polymorphism (splitting) when the cache gains an entry or goes
// indirect: a split copy of the enclosing function per call site keeps its
// calls direct (and so inlinable and splittable themselves).

#include <memory>
#include <optional>

#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_function.h"
#include "languages/sl/runtime/sl_object.h"
#include "languages/sl/runtime/values.h"
#include "nodes/bytecode/bytecode_operation.h"
#include "nodes/call_nodes.h"
#include "nodes/directives.h"
#include "nodes/polymorphism.h"
#include "nodes/specialization.h"

namespace morel::sl {

class SLInvokeNode;

// A builtin that callers call directly (in compiled code a runtime call)
// instead of through its call target: SL's builtin roots (root_nodes.h)
// implement it.
class DirectlyCallableBuiltin {
 public:
  // Builtins whose compiled form is simpler than a call (what inlining the
  // builtin would leave).
  enum class Intrinsic {
    kNone,
    kIsNull,     // isNull(x): a tag check
    kNewObject,  // new(): NewObject (sl_object.h) inline, no call
  };
  virtual Intrinsic intrinsic() const = 0;
  // Runs the builtin on `args` without a frame of its own.
  virtual Value InvokeDirectly(absl::Span<const Value> args) const = 0;
  // Runs guest code or redefines functions (compiled callers then check
  // for invalidation after the call).
  virtual bool may_run_guest_code() const = 0;
  // Calls guest functions, whose stack walks must stop at its frame (an
  // internal root): compiled callers then call it through its call target
  // (AsDirectlyCallableBuiltin is null).
  virtual bool calls_guest_functions() const = 0;

 protected:
  ~DirectlyCallableBuiltin() = default;
};

// The builtin `target` runs if callers may call it directly (one that
// neither inspects its caller's frame nor calls guest functions), else
// null.
const DirectlyCallableBuiltin* AsDirectlyCallableBuiltin(CallTarget* target);
// builtin->InvokeDirectly(args), as a runtime function.
Value InvokeBuiltin(const DirectlyCallableBuiltin* builtin, absl::Span<const Value> args);
// The same as a bytecode::OperationCall's function (`builtin` its data).
Value InvokeBuiltinOperation(const void* builtin, absl::Span<const Value> args);
// The intrinsics (DirectlyCallableBuiltin::Intrinsic) as such functions:
// isNull(args...), and new() without arguments.
Value IsNullOperation(const void* builtin, absl::Span<const Value> args);
Value NewObjectOperation(const void* builtin, absl::Span<const Value> args);
// Calls the function `callee` (a Function value) through the node's
// IndirectCallNode; "Undefined function: f" if it has no code.
Value CallIndirect(SLInvokeNode* node, Value callee, absl::Span<const Value> args);

struct InvokeDirect {
  static constexpr absl::string_view kName = "InvokeDirect";
  // Four, V8's polymorphic limit (Truffle's SL caches two): a site with
  // four callees keeps direct calls, which compiled code guards and may
  // inline, where an indirect call goes through the runtime (CallIndirect:
  // about a third of compiled richards' steady state at limit 3, whose
  // scheduler calls four task functions through one site). Compiled
  // richards' steady state: 15.1 -> 10.6 ms per iteration at size 50000,
  // 1.0 -> 0.43 ms at 2000. Its warm-up is longer: the second tier of
  // `schedule` now inlines 46 callees (4 before) and takes 65-124 ms to
  // compile, so a run of one iteration at 50000 takes 1.15x the wall time
  // and the runner's warm-up mode (40 iterations at 2000) ends before that
  // code is installed (1.1 -> 1.6 ms). The other benchmarks and the
  // interpreters' instruction counts are within noise.
  // Not done (no open issue; reported in stop 52's note): compiled code
  // calling compiled code indirectly without the runtime call, which sites
  // with more callees still pay.
  static constexpr int kLimit = 4;
  struct Cache {
    // Single-context code: the callee function; null in shared code.
    SLFunction* function;
    // The function's "call target stable" generation, read before its call
    // target (CyclicAssumption's ordering rule): valid while the function's
    // code is still call->call_target(). The cache keeps it (the function
    // keeps only its current generation); a compilation reads it here.
    std::shared_ptr<Assumption> call_target_stable;
    // Shared code compares the callee's target with call->call_target(),
    // whichever context's function the callee is. An entry of shared code
    // cached while one context had used it (FunctionIds::
    // single_context()): while that holds, the entry is also keyed by the
    // function, as single-context code's are, which compiled code folds.
    Assumption* single_context;
    Child<DirectCallNode> call;
    // The builtin the target runs, when callers may run it directly
    // (AsDirectlyCallableBuiltin; builtins are never split, so the call
    // node keeps this target), else null.
    const DirectlyCallableBuiltin* builtin;
    // builtin->intrinsic(), or kNone.
    DirectlyCallableBuiltin::Intrinsic intrinsic;
    void ForEachChild(ChildVisitor visitor) { visitor(call.slot()); }
  };
  static std::optional<Cache> Create(SLInvokeNode&, Value callee, absl::Span<const Value>);
  template <typename C>
  MOREL_FAST_PATH static typename C::Bool Guard(C& c, const Cache& cache, typename C::V callee,
                                                absl::Span<const typename C::V>) {
    auto same_function = [&]() MOREL_FAST_LAMBDA {
      return c.And(c.ValueIdentical(callee, c.Constant(cache.function->AsValue())),
                   c.AssumptionValid(cache.call_target_stable.get()));
    };
    if (cache.single_context == nullptr && cache.function != nullptr) return same_function();
    // Shared code: the callee is each context's own function of that name,
    // so the entry is keyed by the code the function runs now (Truffle
    // SL's dispatch on the call target); a redefinition fails the check.
    auto same_target = [&]() MOREL_FAST_LAMBDA {
      return c.AndThen(c.HasTag(callee, kFunctionTag), [&]() MOREL_FAST_LAMBDA {
        return c.PointerEqual(c.LoadField(callee, &SLFunction::guard_target_),
                              cache.call->call_target());
      });
    };
    if (cache.single_context == nullptr) return same_target();
    // While one context uses the code, its function is the callee for good
    // (a constant of compiled code, SLFunctionLiteralNode), and the check
    // folds as in single-context code.
    return c.OrElse(c.AndThen(c.AssumptionValid(cache.single_context), same_function), same_target);
  }
  template <typename C>
  MOREL_FAST_PATH static typename C::V Body(C& c, SLInvokeNode&, Cache& cache, typename C::V,
                                            absl::Span<const typename C::V> args) {
    // A builtin (new, isNull, println, ...) runs without its call target:
    // no frame, no call count, no stack check (a builtin that calls no
    // guest function does not recurse). Redefining the function fails the
    // guard (compiled: invalidates the code), so the builtin is the one the
    // guard checked.
    if (const DirectlyCallableBuiltin* builtin = cache.builtin) {
      // The intrinsics: without the builtin's virtual call and argument
      // check, interpreted and compiled.
      switch (cache.intrinsic) {
        case DirectlyCallableBuiltin::Intrinsic::kIsNull:
          // A missing argument is NULL.
          return c.BoxBoolean(args.empty() ? c.True() : c.HasTag(args[0], kNullTag));
        case DirectlyCallableBuiltin::Intrinsic::kNewObject:
          if (args.empty()) {
            if constexpr (C::InInterpreter()) {
              // The runtime's allocation (a boundary of the fast path).
              return c.template Call<&NewObjectOperation>(static_cast<const void*>(builtin), args);
            } else {
              // The allocation and the shape and elements stores, as the
              // builtin does them.
              return NewObject(c);
            }
          }
          break;
        case DirectlyCallableBuiltin::Intrinsic::kNone:
          break;
      }
      if constexpr (C::InInterpreter()) {
        // A call through the context, which a call-free attempt refuses.
        return c.template Call<&InvokeBuiltin>(builtin, args);
      } else {
        // A runtime call, not a call into its call target, which would
        // run it in the interpreter with a frame of its own (builtins are
        // internal: never compiled).
        return builtin->may_run_guest_code() ? c.template CallGuest<&InvokeBuiltin>(builtin, args)
                                             : c.template Call<&InvokeBuiltin>(builtin, args);
      }
    }
    return c.CallDirect(cache.call.get(), args);
  }
};

struct InvokeIndirect {
  static constexpr absl::string_view kName = "InvokeIndirect";
  using Replaces = Specializations<InvokeDirect>;
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V callee, absl::Span<const typename C::V>) {
    return c.HasTag(callee, kFunctionTag);
  }
  template <typename C>
  static typename C::V Body(C& c, SLInvokeNode& node, typename C::V callee,
                            absl::Span<const typename C::V> args) {
    if constexpr (!C::InInterpreter()) {
      // Compiled frames are not written back (TODO(#6)): the interpreter
      // makes calls to helloEqualsWorld. A non-invalidating transfer: the
      // code stays for the other callees. (A reader such as stacktrace sees
      // this activation: CallGuest passes its lazy frame state.)
      // The callee is a function here (the guard): one load of its flag.
      c.TransferToInterpreterIf(
          c.LongEqual(c.LoadField(callee, &SLFunction::writes_caller_frame_), 1),
          "callee writes its caller's frame");
    }
    return c.template CallGuest<&CallIndirect>(&node, callee, args);
  }
};

class SLInvokeNode final : public SLExpressionNode,
                           public bytecode::BytecodeOperation,
                           public pe::CompiledOperation {
 public:
  SL_EXPRESSION_NODE(SLInvokeNode)
  // The bytecode interpreter's `op` (the callee, then the arguments: the
  // node's argument list has as many null children). Inlined into SL's
  // bytecode switch (root_nodes.h).
  MOREL_OPERATION_METHODS(SLInvokeNode)
  MOREL_REPORT_POLYMORPHISM
  using Specializations = Specializer<SLInvokeNode, InvokeDirect, InvokeIndirect>;

  // `shared_ids`: the node is part of shared code (sl_shared_code.h) with
  // these function ids, and caches call targets instead of functions;
  // null for single-context code.
  SLInvokeNode(SourceSection section, std::unique_ptr<SLExpressionNode> callee,
               std::vector<std::unique_ptr<SLExpressionNode>> arguments,
               FunctionIds* shared_ids = nullptr)
      : SLExpressionNode(std::move(section)),
        callee_(std::move(callee)),
        arguments_(std::move(arguments)),
        indirect_(IndirectCallNode::Create()),
        shared_ids_(shared_ids) {}
  // A bytecode call of a function literal in single-context code: the
  // callee is `function`, not an operand (the builder pushes no constant
  // for it: one dispatch less per call); the operands are the arguments.
  SLInvokeNode(SourceSection section, SLFunction* function, size_t argument_count)
      : SLInvokeNode(std::move(section), nullptr,
                     std::vector<std::unique_ptr<SLExpressionNode>>(argument_count)) {
    constant_callee_ = function;
  }

  // The callee, the arguments, then the call. Resumed after the call (its
  // result done: compiled code found itself invalidated meanwhile), the
  // result is the node's without calling again (Specialize).
  template <typename X>
  MOREL_FAST_PATH typename X::V Run(X& x) {
    typename X::V callee =
        constant_callee_ != nullptr ? x.Constant(constant_callee_->AsValue()) : x.Execute(callee_);
    return x.ExecuteEach(arguments_,
                         [&](absl::Span<const typename X::V> arguments) MOREL_FAST_LAMBDA {
                           return x.Specialize(specializer_, *this, callee, arguments);
                         });
  }
  MOREL_CHILDREN(callee_, arguments_, indirect_, specializer_)
  // The call the bytecode switch makes itself (bytecode::OperationCall)
  // for the operands (the callee unless it is constant, then the
  // arguments): InvokeDirect's when an entry holds, else InvokeIndirect's
  // when it is active and the callee is a function with code
  // (CallIndirect; the rest is Execute's).
  MOREL_FAST_PATH bytecode::OperationCall CallFor(absl::Span<const Value> operands) {
    const bool constant = constant_callee_ != nullptr;
    const Value callee = constant ? constant_callee_->AsValue() : operands[0];
    // (Not subspan, which checks its bound and may throw.)
    const absl::Span<const Value> arguments(operands.data() + (constant ? 0 : 1),
                                            operands.size() - (constant ? 0 : 1));
    if (InvokeDirect::Cache* entry = specializer_.EntryFor<InvokeDirect>(callee, arguments)) {
      // A builtin that needs no frame: the switch calls it at once (an
      // intrinsic without the builtin's virtual call and argument check).
      if (entry->builtin != nullptr) {
        bytecode::OperationCall::Function function = &InvokeBuiltinOperation;
        switch (entry->intrinsic) {
          case DirectlyCallableBuiltin::Intrinsic::kIsNull:
            function = &IsNullOperation;
            break;
          case DirectlyCallableBuiltin::Intrinsic::kNewObject:
            if (arguments.empty()) function = &NewObjectOperation;
            break;
          case DirectlyCallableBuiltin::Intrinsic::kNone:
            break;
        }
        return {.function = function, .data = entry->builtin, .arguments = arguments};
      }
      return {.call = entry->call.get(), .arguments = arguments};
    }
    if (specializer_.IsActive<InvokeIndirect>() && IsFunction(callee)) {
      if (CallTarget* target = callee.As<SLFunction>()->call_target()) {
        return {.target = target, .arguments = arguments};
      }
    }
    return {};
  }
  static Value Fallback(SLInvokeNode& node, Value callee, absl::Span<const Value> args);

  IndirectCallNode* indirect_call() const { return indirect_.get(); }
  FunctionIds* shared_ids() const { return shared_ids_; }
  Specializations& specializer() { return specializer_; }

 private:
  Child<SLExpressionNode> callee_;  // null for an operand or a constant callee
  SLFunction* constant_callee_ = nullptr;
  ChildList<SLExpressionNode> arguments_;
  Child<IndirectCallNode> indirect_;
  FunctionIds* shared_ids_;
  Specializations specializer_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_INVOKE_NODE_H_
