#ifndef MOREL_LANGUAGES_SL_NODES_INVOKE_NODE_H_
#define MOREL_LANGUAGES_SL_NODES_INVOKE_NODE_H_

// Calls (sl_spec §6.8): the callee expression, then the arguments left to
// right, then the call.
//
//   InvokeDirect (limit 3): a cache entry per callee function, holding a
//     DirectCallNode to its current call target (splittable, inlinable)
//   InvokeIndirect (replaces InvokeDirect): any function, through an
//     IndirectCallNode; an undefined function raises "Undefined function: f"
//   fallback (callee is not a function): "Undefined function: <value>"
//
// A cache entry is valid while the function still runs the target it
// cached: redefinition (defineFunction, eval) swaps the target and the guard
// fails, so the next call caches the new code.
//
// Reports polymorphism (splitting) when the cache gains an entry or goes
// indirect: a split copy of the enclosing function per call site keeps its
// calls direct (and so inlinable and splittable themselves).

#include <memory>
#include <optional>

#include "languages/sl/nodes/sl_node.h"
#include "languages/sl/runtime/sl_function.h"
#include "languages/sl/runtime/values.h"
#include "nodes/call_nodes.h"
#include "nodes/polymorphism.h"
#include "nodes/specialization.h"

namespace morel::sl {

class SLInvokeNode;

Value CallIndirect(SLInvokeNode* node, Value callee, absl::Span<const Value> args);

struct InvokeDirect {
  static constexpr absl::string_view kName = "InvokeDirect";
  static constexpr int kLimit = 3;
  struct Cache {
    SLFunction* function;
    CallTarget* target;
    Child<DirectCallNode> call;
    void ForEachChild(ChildVisitor visitor) { visitor(call.slot()); }
  };
  static std::optional<Cache> Create(SLInvokeNode&, Value callee,
                                     absl::Span<const Value>);
  static bool StillCurrent(const Cache* cache) {
    return cache->function->call_target() == cache->target;
  }
  template <typename C>
  static typename C::Bool Guard(C& c, const Cache& cache, typename C::V callee,
                                absl::Span<const Value>) {
    return c.And(c.ValueIdentical(callee, c.Constant(cache.function->AsValue())),
                 c.template Call<&StillCurrent>(&cache));
  }
  template <typename C>
  static typename C::V Body(C&, SLInvokeNode&, Cache& cache, typename C::V,
                            absl::Span<const Value> args) {
    return cache.call->Call(args);
  }
};

struct InvokeIndirect {
  static constexpr absl::string_view kName = "InvokeIndirect";
  using Replaces = Specializations<InvokeDirect>;
  template <typename C>
  static typename C::Bool Guard(C& c, typename C::V callee, absl::Span<const Value>) {
    return c.HasTag(callee, kFunctionTag);
  }
  template <typename C>
  static typename C::V Body(C& c, SLInvokeNode& node, typename C::V callee,
                            absl::Span<const Value> args) {
    return c.template Call<&CallIndirect>(&node, callee, args);
  }
};

class SLInvokeNode final : public SLExpressionNode {
 public:
  MOREL_NODE_KIND(SLInvokeNode)
  pe::PeValue PartialEvaluate(pe::PartialEvaluator& pe) override;
  MOREL_REPORT_POLYMORPHISM
  using Specializations = Specializer<SLInvokeNode, InvokeDirect, InvokeIndirect>;

  SLInvokeNode(SourceSection section, std::unique_ptr<SLExpressionNode> callee,
               std::vector<std::unique_ptr<SLExpressionNode>> arguments)
      : SLExpressionNode(std::move(section)),
        callee_(std::move(callee)),
        arguments_(std::move(arguments)),
        indirect_(IndirectCallNode::Create()) {}

  Value Execute(Frame& frame) override;
  void ForEachChild(ChildVisitor visitor) override {
    visitor(callee_.slot());
    arguments_.ForEach(visitor);
    visitor(indirect_.slot());
    specializer_.ForEachChild(visitor);
  }
  static Value Fallback(SLInvokeNode& node, Value callee, absl::Span<const Value> args);
  // Children: 0 callee, 1..n the arguments; then the call.
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome> done) override;

  IndirectCallNode* indirect_call() const { return indirect_.get(); }
  Specializations& specializer() { return specializer_; }

 private:
  Child<SLExpressionNode> callee_;
  ChildList<SLExpressionNode> arguments_;
  Child<IndirectCallNode> indirect_;
  Specializations specializer_;
};

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_NODES_INVOKE_NODE_H_
