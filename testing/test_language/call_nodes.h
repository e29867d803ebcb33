#ifndef MOREL_TESTING_TEST_LANGUAGE_CALL_NODES_H_
#define MOREL_TESTING_TEST_LANGUAGE_CALL_NODES_H_

// Calls in the test language.
//
// CallDirectNode: a call to a callee fixed when the node is built, through a
// DirectCallNode created with it (so the callee knows this caller at once).
//
// InvokeNode (reports polymorphism): calls the function value its callee
// expression produces, with an inline cache modelled on Truffle's
// HasInlineCacheNode:
//   InvokeDirect (limit 2)   a cache entry per callee, holding a
//                            DirectCallNode (adopted by the InvokeNode)
//   InvokeIndirect           replaces InvokeDirect: any function, through
//                            the node's IndirectCallNode
//   fallback                 TlError "not a function: <value>"

#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "nodes/call_nodes.h"
#include "nodes/polymorphism.h"
#include "nodes/specialization.h"
#include "testing/test_language/expression_nodes.h"
#include "testing/test_language/values.h"

namespace morel::test_language {

class CallDirectNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(CallDirectNode)
  CallDirectNode(CallTarget* callee, ExpressionList arguments)
      : call_(DirectCallNode::Create(callee)), arguments_(std::move(arguments)) {}
  template <typename X>
  typename X::V Run(X& x) {
    return x.ExecuteEach(arguments_, [&](absl::Span<const typename X::V> values) {
      return x.CallDirect(call_.get(), values);
    });
  }
  MOREL_CHILDREN(call_, arguments_)
  // A new DirectCallNode to the original callee, not to a split copy.
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<CallDirectNode>(call_->call_target(), CloneAll(arguments_));
  }
  DirectCallNode* call_node() const { return call_.get(); }

 private:
  Child<DirectCallNode> call_;
  ChildList<TlExpression> arguments_;
};

class InvokeNode;

Value InvokeIndirectly(InvokeNode* node, Value callee, absl::Span<const Value> arguments);

struct InvokeDirect {
  static constexpr absl::string_view kName = "InvokeDirect";
  static constexpr int kLimit = 2;
  struct Cache {
    CallTarget* target;
    Child<DirectCallNode> call;
    void ForEachChild(ChildVisitor visitor) { visitor(call.slot()); }
  };
  static std::optional<Cache> Create(InvokeNode&, Value callee, absl::Span<const Value>) {
    if (!callee.Is(kFunctionTag)) return std::nullopt;
    CallTarget* target = AsFunction(callee);
    return Cache{target, Child<DirectCallNode>(DirectCallNode::Create(target))};
  }
  template <typename C>
  static typename C::Bool Guard(C& c, const Cache& cache, typename C::V callee,
                                absl::Span<const Value>) {
    return c.ValueIdentical(callee, c.Constant(FunctionValue(cache.target)));
  }
  template <typename C>
  static typename C::V Body(C&, InvokeNode&, const Cache& cache, typename C::V,
                            absl::Span<const Value> arguments) {
    return cache.call->Call(arguments);
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
  static typename C::V Body(C& c, InvokeNode& node, typename C::V callee,
                            absl::Span<const Value> arguments) {
    return c.template Call<&InvokeIndirectly>(&node, callee, arguments);
  }
};

class InvokeNode final : public TlExpression {
 public:
  TL_EXPRESSION_NODE(InvokeNode)
  MOREL_REPORT_POLYMORPHISM
  using Specializations = Specializer<InvokeNode, InvokeDirect, InvokeIndirect>;

  InvokeNode(std::unique_ptr<TlExpression> callee, ExpressionList arguments)
      : callee_(std::move(callee)),
        arguments_(std::move(arguments)),
        indirect_(IndirectCallNode::Create()) {}

  template <typename X>
  typename X::V Run(X& x) {
    typename X::V callee = x.Execute(callee_);
    return x.ExecuteEach(arguments_, [&](absl::Span<const typename X::V> values) {
      return x.Specialize(specializer_, *this, callee, values);
    });
  }
  MOREL_CHILDREN(callee_, arguments_, indirect_, specializer_)
  std::unique_ptr<TlExpression> CloneUninitialized() const override {
    return std::make_unique<InvokeNode>(callee_->CloneUninitialized(), CloneAll(arguments_));
  }
  [[noreturn]] static Value Fallback(InvokeNode& node, Value callee,
                                     absl::Span<const Value> arguments);

  IndirectCallNode* indirect_call() const { return indirect_.get(); }
  Specializations& specializer() { return specializer_; }

 private:
  Child<TlExpression> callee_;
  ChildList<TlExpression> arguments_;
  Child<IndirectCallNode> indirect_;
  Specializations specializer_;
};

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_CALL_NODES_H_
