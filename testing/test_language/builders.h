#ifndef MOREL_TESTING_TEST_LANGUAGE_BUILDERS_H_
#define MOREL_TESTING_TEST_LANGUAGE_BUILDERS_H_

// Building test-language programs in C++ (there is no parser):
//
//   // f(n) { i = 0; while (i < n) i = i + 1; i }
//   auto descriptor = std::make_unique<FrameDescriptor>();
//   int i = descriptor->AddSlot("i");
//   CallTarget* f = DefineFunction(runtime, "f",
//       Block(Write(i, Const(0)),
//             While(LessThan(Read(i), Arg(0)), Write(i, Add(Read(i), Const(1)))),
//             Read(i)),
//       std::move(descriptor));
//   f->Call({Value::Long(10)});  // 10

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "nodes/call_target.h"
#include "nodes/node_runtime.h"
#include "testing/test_language/arithmetic_nodes.h"
#include "testing/test_language/call_nodes.h"
#include "testing/test_language/expression_nodes.h"
#include "testing/test_language/loop_nodes.h"
#include "testing/test_language/polymorphism_nodes.h"
#include "testing/test_language/root_node.h"
#include "testing/test_language/values.h"

namespace morel::test_language {

using Expr = std::unique_ptr<TlExpression>;

template <typename... E>
ExpressionList List(E&&... expressions) {
  ExpressionList list;
  (list.push_back(std::forward<E>(expressions)), ...);
  return list;
}

inline Expr ConstValue(Value value) { return std::make_unique<ConstantNode>(value); }
inline Expr Const(int64_t value) { return ConstValue(Value::Long(value)); }
inline Expr Bool(bool value) { return ConstValue(Value::Boolean(value)); }
inline Expr Str(absl::string_view text) { return ConstValue(MakeString(text)); }
inline Expr Function(CallTarget* target) { return ConstValue(FunctionValue(target)); }
inline Expr Arg(int index) { return std::make_unique<ArgumentNode>(index); }
inline Expr Read(int slot) { return std::make_unique<ReadLocalNode>(slot); }
inline Expr Write(int slot, Expr value) {
  return std::make_unique<WriteLocalNode>(slot, std::move(value));
}
template <typename... E>
Expr Block(E&&... expressions) {
  return std::make_unique<BlockNode>(List(std::forward<E>(expressions)...));
}
inline Expr Add(Expr left, Expr right) {
  return std::make_unique<AddNode>(std::move(left), std::move(right));
}
inline Expr QuietAdd(Expr left, Expr right) {
  return std::make_unique<QuietAddNode>(std::move(left), std::move(right));
}
inline Expr LessThan(Expr left, Expr right) {
  return std::make_unique<LessThanNode>(std::move(left), std::move(right));
}
inline Expr ThrowIf(Expr condition, std::string message) {
  return std::make_unique<ThrowIfNode>(std::move(condition), std::move(message));
}
inline Expr While(Expr condition, Expr body) {
  return std::make_unique<WhileNode>(std::move(condition), std::move(body));
}
template <typename... E>
Expr Invoke(Expr callee, E&&... arguments) {
  return std::make_unique<InvokeNode>(std::move(callee),
                                      List(std::forward<E>(arguments)...));
}
template <typename... E>
Expr CallDirect(CallTarget* callee, E&&... arguments) {
  return std::make_unique<CallDirectNode>(callee, List(std::forward<E>(arguments)...));
}

// A root around `body`, registered with `runtime`.
inline CallTarget* DefineFunction(NodeRuntime& runtime, std::string name, Expr body,
                                  std::unique_ptr<FrameDescriptor> descriptor = nullptr,
                                  RootOptions options = {}) {
  return runtime.CreateCallTarget(std::make_unique<TlRootNode>(
      std::move(name), std::move(body), std::move(descriptor), options));
}

}  // namespace morel::test_language

#endif  // MOREL_TESTING_TEST_LANGUAGE_BUILDERS_H_
