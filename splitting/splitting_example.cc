// The splitting policy used alone (//splitting with //nodes, no engine): a
// NodeRuntime that owns its call targets and delegates to a
// SplittingStrategy, as the engine does, over a hand-built program of the
// test language:
//
//   add(a, b)  = a + b
//   ints()     = add(1, 2)
//   strings()  = add("a", "b")
//
// `add` sees longs from one caller and strings from the other: its `+`
// becomes polymorphic and reports it, the strategy marks `add` "needs split",
// and at the next call each call site gets its own uninitialized copy, which
// then stays monomorphic. TraceSplitting goes to stdout through a LogSink.
// Exits non-zero unless both call sites were split and each copy has one
// active specialization.

#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/log_sink.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"
#include "nodes/node_runtime.h"
#include "splitting/splitting_options.h"
#include "splitting/splitting_strategy.h"
#include "testing/test_language/builders.h"

namespace {

using morel::CallTarget;
using morel::DirectCallNode;
using morel::Node;
using morel::RootNode;
namespace splitting = morel::splitting;
namespace tl = morel::test_language;

class StdoutSink final : public morel::LogSink {
 public:
  void Log(absl::string_view message) override { std::cout << "[split] " << message << "\n"; }
};

// The wiring the engine has: every hook the strategy needs, nothing else.
class SplittingRuntime final : public morel::NodeRuntime {
 public:
  explicit SplittingRuntime(splitting::SplittingOptions options)
      : strategy_(options, &log_,
                  [this](std::unique_ptr<RootNode> root, CallTarget* source) {
                    splits_.push_back(std::make_unique<CallTarget>(std::move(root), this, source));
                    return splits_.back().get();
                  }) {}
  ~SplittingRuntime() override {
    strategy_.Close();  // TraceSplittingSummary, if on
    // Newest first: a target's call nodes may point at older targets.
    while (!splits_.empty()) splits_.pop_back();
    while (!targets_.empty()) targets_.pop_back();
  }
  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override {
    targets_.push_back(std::make_unique<CallTarget>(std::move(root), this));
    strategy_.OnTargetCreated(*targets_.back());  // grows the budget
    return targets_.back().get();
  }
  void OnPolymorphicSpecialize(Node& source) override {
    strategy_.OnPolymorphicSpecialize(source);  // marks needs-split
  }
  CallTarget* BeforeDirectCall(DirectCallNode& call, CallTarget* target) override {
    return strategy_.BeforeCall(call, target);  // the split decision
  }
  bool ForceSplit(DirectCallNode& call) override { return strategy_.ForceSplit(call); }
  int splits() const { return static_cast<int>(splits_.size()); }

 private:
  StdoutSink log_;
  splitting::SplittingStrategy strategy_;
  std::vector<std::unique_ptr<CallTarget>> targets_;
  std::vector<std::unique_ptr<CallTarget>> splits_;
};

// The AddNode at the root of a split copy of `add`.
const tl::AddNode& AddOf(const CallTarget& target) {
  const auto& root = static_cast<const tl::TlRootNode&>(*target.root_node());
  return static_cast<const tl::AddNode&>(*root.body());
}

}  // namespace

int main() {
  morel::heap::Initialize();
  splitting::SplittingOptions options;  // Truffle's defaults
  options.trace_splitting = true;
  SplittingRuntime runtime(options);

  tl::RootOptions splittable;
  splittable.cloning_allowed = true;
  CallTarget* add = tl::DefineFunction(runtime, "add", tl::Add(tl::Arg(0), tl::Arg(1)),
                                       nullptr, splittable);
  auto ints_body = tl::CallDirect(add, tl::Const(1), tl::Const(2));
  auto* ints_call = static_cast<tl::CallDirectNode*>(ints_body.get());
  CallTarget* ints = tl::DefineFunction(runtime, "ints", std::move(ints_body));
  auto strings_body = tl::CallDirect(add, tl::Str("a"), tl::Str("b"));
  auto* strings_call = static_cast<tl::CallDirectNode*>(strings_body.get());
  CallTarget* strings = tl::DefineFunction(runtime, "strings", std::move(strings_body));

  for (int i = 0; i < 3; ++i) {
    const std::string a = tl::ToDisplayString(ints->Call({}));
    const std::string b = tl::ToDisplayString(strings->Call({}));
    std::cout << "ints() = " << a << ", strings() = " << b << "\n";
  }

  const CallTarget* ints_callee = ints_call->call_node()->current_call_target();
  const CallTarget* strings_callee = strings_call->call_node()->current_call_target();
  const bool ok = runtime.splits() == 2 && ints_callee != add && strings_callee != add &&
                  ints_callee != strings_callee &&
                  AddOf(*ints_callee).specializer().ActiveCount() == 1 &&
                  AddOf(*ints_callee).specializer().IsActive<tl::AddInt>() &&
                  AddOf(*strings_callee).specializer().ActiveCount() == 1 &&
                  AddOf(*strings_callee).specializer().IsActive<tl::AddString>();
  std::cout << "splits: " << runtime.splits() << "\n";
  if (!ok) std::cerr << "expected each call site to call its own monomorphic copy of add\n";
  return ok ? 0 : 1;
}
