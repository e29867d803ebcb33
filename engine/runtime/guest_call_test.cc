// Runtime calls that may run guest code (PeContext::CallGuest) from compiled
// code: the callee sees the compiled caller in a stack walk (its locals
// decoded from the call's lazy frame state), also when the arguments take
// more words than the guest-call entry passes in registers (they travel in
// slots of the span argument stack then, runtime_call.h), and it gets every
// argument intact. In both tiers.

#include <memory>

#include "absl/status/status.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/pe_context.h"
#include "engine/pe/span_arguments.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/testing/tier_test.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/frame_walk.h"
#include "nodes/resume.h"
#include "nodes/root_node.h"

namespace morel::runtime {
namespace {

RootNode* walked_root = nullptr;
int compiled_seen = 0;     // activations of walked_root without a Frame
int interpreted_seen = 0;  // and with one
int64_t local_seen = -1;   // local 0 of the last one

void Walk() {
  compiled_seen = interpreted_seen = 0;
  local_seen = -1;
  WalkFrames(Frame::Current(), [](const FrameInstance& instance) {
    if (instance.root == walked_root) {
      ++(instance.frame == nullptr ? compiled_seen : interpreted_seen);
      if (instance.IsInitialized(0)) local_seen = instance.slots[0].AsLong();
    }
    return true;
  });
}

// Four words: fits the guest-call entry's registers.
Value TwoValues(Value a, Value b) {
  Walk();
  return Value::Long(a.AsLong() * 10 + b.AsLong());
}
// Eight words: packed into span argument slots.
Value FourValues(Value a, Value b, Value c, Value d) {
  Walk();
  return Value::Long(((a.AsLong() * 10 + b.AsLong()) * 10 + c.AsLong()) * 10 + d.AsLong());
}

// Keeps its argument x in local 0 and returns F(x, x + 1, ...) for the
// runtime function F.
template <bool kPacked>
class GuestCallingRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(GuestCallingRoot)
  GuestCallingRoot() : RootNode({}, "guest_calling", Descriptor()) {}

  Value Execute(Frame& frame) override {
    int64_t x = frame.arguments()[0].AsLong();
    frame.Set(0, Value::Long(x));
    if constexpr (kPacked) {
      return FourValues(Value::Long(x), Value::Long(x + 1), Value::Long(x + 2),
                        Value::Long(x + 3));
    } else {
      return TwoValues(Value::Long(x), Value::Long(x + 1));
    }
  }
  Outcome Resume(Frame&, int, absl::Span<const Outcome> done) override {
    return done.empty() ? Outcome::OfValue(Value::Long(0)) : done.back();
  }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    ir::Builder& b = pe.builder();
    pe::PeContext& c = pe.context();
    pe.Enter(this);
    pe::PeValue x = pe.Argument(0, Value::Long(0));
    pe.SetLocal(0, x);
    auto plus = [&](int k) {
      return pe::PeValue{b.Binary(ir::Opcode::kIadd, x.payload, b.I64(k)), b.I64(kLongTag)};
    };
    pe::PeValue result;
    if constexpr (kPacked) {
      result = c.CallGuest<&FourValues>(x, plus(1), plus(2), plus(3));
    } else {
      result = c.CallGuest<&TwoValues>(x, plus(1));
    }
    pe.Leave();
    pe.Return({result.payload, result.tag});
    return absl::OkStatus();
  }

 private:
  static std::unique_ptr<FrameDescriptor> Descriptor() {
    auto descriptor = std::make_unique<FrameDescriptor>();
    descriptor->AddSlot("x");
    return descriptor;
  }
};

using GuestCallTest = testing::TierTest;

TEST_P(GuestCallTest, CalleeSeesTheCompiledCaller) {
  auto owned = std::make_unique<GuestCallingRoot<false>>();
  walked_root = owned.get();
  CallTarget* target = engine_->CreateCallTarget(std::move(owned));
  EXPECT_EQ(target->Call({Value::Long(4)}), Value::Long(45));
  ASSERT_NE(target->installed_code(), nullptr) << Log();
  EXPECT_EQ(compiled_seen, 1);
  EXPECT_EQ(interpreted_seen, 0);
  EXPECT_EQ(local_seen, 4);
}

TEST_P(GuestCallTest, ArgumentsBeyondTheEntrysRegistersArePackedAndSeen) {
  auto owned = std::make_unique<GuestCallingRoot<true>>();
  walked_root = owned.get();
  CallTarget* target = engine_->CreateCallTarget(std::move(owned));
  int64_t reserved = pe::ReservedSpanArguments();
  EXPECT_EQ(target->Call({Value::Long(2)}), Value::Long(2345));
  ASSERT_NE(target->installed_code(), nullptr) << Log();
  EXPECT_EQ(compiled_seen, 1);
  EXPECT_EQ(interpreted_seen, 0);
  EXPECT_EQ(local_seen, 2);
  // The slots were released.
  EXPECT_EQ(pe::ReservedSpanArguments(), reserved);
  EXPECT_EQ(target->Call({Value::Long(5)}), Value::Long(5678));
  EXPECT_EQ(local_seen, 5);
}

MOREL_INSTANTIATE_TIER_TESTS(GuestCallTest);

}  // namespace
}  // namespace morel::runtime
