// PartialEvaluator::TryInline's failure paths: an inlined callee whose
// partial evaluation bails out (before or after a return), or whose tree
// another compilation holds locked, leaves the call a call -- valid IR with
// a call_target, never a failed compilation or a deadlock.
#include <memory>
#include <future>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "engine/ir/runtime_function.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/pe_context.h"
#include "gtest/gtest.h"
#include "nodes/call_nodes.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/node_runtime.h"
#include "nodes/root_node.h"

namespace morel {
namespace {

class Rt : public NodeRuntime {
 public:
  CallTarget* CreateCallTarget(std::unique_ptr<RootNode> root) override {
    targets_.push_back(std::make_unique<CallTarget>(std::move(root), this));
    return targets_.back().get();
  }
  void OnPolymorphicSpecialize(Node&) override {}
  std::vector<std::unique_ptr<CallTarget>> targets_;
};

std::unique_ptr<FrameDescriptor> Desc() {
  auto d = std::make_unique<FrameDescriptor>();
  d->AddSlot("x");
  return d;
}

// Callee: emits a little code, optionally returns, then bails out.
class BailingRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(BailingRoot)
  explicit BailingRoot(bool return_first) : RootNode({}, "bailing", Desc()), return_first_(return_first) {}
  Value Execute(Frame&) override { return Value::Long(1); }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    pe.Enter(this);
    if (return_first_) pe.Return(pe.Constant(Value::Long(1)));
    pe.Bailout("construct not supported in compiled code");
    pe.Leave();
    return absl::OkStatus();
  }
  bool return_first_;
};

// Caller: calls the callee through a DirectCallNode and returns its result.
class CallerRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(CallerRoot)
  explicit CallerRoot(CallTarget* callee)
      : RootNode({}, "caller", Desc()), call_(DirectCallNode::Create(callee)) {}
  Value Execute(Frame&) override { return Value::Long(0); }
  void ForEachChild(ChildVisitor visitor) override { visitor(call_.slot()); }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    pe.Enter(this);
    pe::PeValue r = pe.context().CallDirect(call_.get(), {});
    pe.Leave();
    pe.Return(r);
    return absl::OkStatus();
  }
  Child<DirectCallNode> call_;
};

class AlwaysInline : public pe::InliningDecisions {
 public:
  const void* InlineInto(const void*, DirectCallNode*, CallTarget*) override { return this; }
  void OnInlineBailout(const void*, const std::string& reason) override { bailouts++; last = reason; }
  int bailouts = 0;
  std::string last;
};

int CallTargetInstructions(const ir::Function& function) {
  int count = 0;
  for (ir::Block* block : function.blocks()) {
    for (ir::Instruction* inst : block->instructions()) {
      count += inst->opcode() == ir::Opcode::kCallTarget ? 1 : 0;
    }
  }
  return count;
}

// Evaluates `caller` with every call inlined if possible; returns the IR's
// call_target count.
int EvaluateInliningEverything(CallTarget& caller, AlwaysInline& decisions) {
  ir::RuntimeRegistry registry;
  pe::PartialEvaluator::Options options;
  options.inlining = &decisions;
  pe::PartialEvaluator evaluator(caller, registry, options);
  auto result = evaluator.Run();
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? CallTargetInstructions(*(*result)->function) : -1;
}

void CheckBailout(bool return_first) {
  Rt rt;
  CallTarget* callee = rt.CreateCallTarget(std::make_unique<BailingRoot>(return_first));
  CallTarget* caller = rt.CreateCallTarget(std::make_unique<CallerRoot>(callee));
  AlwaysInline decisions;
  EXPECT_EQ(EvaluateInliningEverything(*caller, decisions), 1);
  EXPECT_EQ(decisions.bailouts, 1);
  EXPECT_EQ(decisions.last, "construct not supported in compiled code");
}

TEST(InlineBailoutTest, CalleeBailsOutWithoutReturning) { CheckBailout(false); }
TEST(InlineBailoutTest, CalleeBailsOutAfterAReturn) { CheckBailout(true); }

// A callee that returns a constant.
class ConstantRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(ConstantRoot)
  ConstantRoot() : RootNode({}, "constant", Desc()) {}
  Value Execute(Frame&) override { return Value::Long(7); }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    pe.Enter(this);
    pe.Return(pe.Constant(Value::Long(7)));
    pe.Leave();
    return absl::OkStatus();
  }
};

TEST(InlineBailoutTest, AnInlinableCalleeLeavesNoCall) {
  Rt rt;
  CallTarget* callee = rt.CreateCallTarget(std::make_unique<ConstantRoot>());
  CallTarget* caller = rt.CreateCallTarget(std::make_unique<CallerRoot>(callee));
  AlwaysInline decisions;
  EXPECT_EQ(EvaluateInliningEverything(*caller, decisions), 0);
  EXPECT_EQ(decisions.bailouts, 0);
}

// Two compilations lock their own roots first: a callee whose tree another
// thread holds is not waited for (that thread may be waiting for ours).
TEST(InlineBailoutTest, ACalleeTreeLockedElsewhereStaysACall) {
  Rt rt;
  CallTarget* callee = rt.CreateCallTarget(std::make_unique<ConstantRoot>());
  CallTarget* caller = rt.CreateCallTarget(std::make_unique<CallerRoot>(callee));
  std::promise<void> locked, release;
  std::thread owner([&] {
    std::lock_guard<std::recursive_mutex> tree(callee->root_node()->lock());
    locked.set_value();
    release.get_future().wait();
  });
  locked.get_future().wait();
  AlwaysInline decisions;
  EXPECT_EQ(EvaluateInliningEverything(*caller, decisions), 1);
  EXPECT_EQ(decisions.bailouts, 1);
  EXPECT_EQ(decisions.last, "the callee's tree is being compiled");
  release.set_value();
  owner.join();
}

}  // namespace
}  // namespace morel
