// Objects in compiled code, in both tiers: a deoptimization whose frame
// state names virtual objects (allocations escape analysis removed)
// resumes the interpreter with them allocated in the guest heap, one
// object per virtual object however many slots and fields name it, cycles
// included, and reachable while the resumed activation runs (it collects);
// and `alloc` in compiled code hands out guest objects the interpreter
// then finds in its frame.
//
// The root is written directly against the partial evaluator (no language
// emits `alloc` or virtual objects yet).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/ir/builder.h"
#include "engine/ir/function.h"
#include "engine/pe/partial_evaluator.h"
#include "engine/pe/pe_context.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/testing/tier_test.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/frame.h"
#include "nodes/heap.h"
#include "nodes/resume.h"
#include "nodes/root_node.h"

namespace morel::runtime {
namespace {

constexpr ValueTag kBoxTag = kFirstReferenceTag;

// Where compiled code in kAllocated mode stores the pair it allocates.
void* const* escaped_pair = nullptr;

// Locals: 0 = x; 1 and 2 = the same box [x, 2x]; 3 = a pair [box, itself].
// Returns box[0] + box[1] + 1000 if locals 1 and 2 are the same object,
// + 10000 if the pair's first field is the box, + 100000 if its second is
// the pair: 3x + 111000 when the objects are right. Compiled code leaves
// for the interpreter (keeping the code) when x is negative; the frame
// state there names the box and the pair as virtual objects (`kVirtual`)
// or holds objects the compiled code allocated (`kAllocated`).
class ObjectsRoot final : public RootNode {
 public:
  MOREL_NODE_KIND(ObjectsRoot)
  enum Mode { kVirtual, kAllocated };
  explicit ObjectsRoot(Mode mode)
      : RootNode({}, mode == kVirtual ? "virtual" : "allocated", Descriptor()), mode_(mode) {}

  Value Execute(Frame& frame) override {
    ++interpreted_;
    const int64_t x = frame.arguments()[0].AsLong();
    auto* box = static_cast<int64_t*>(heap::AllocateTraced(16));
    box[0] = x;
    box[1] = 2 * x;
    auto* pair = static_cast<void**>(heap::AllocateTraced(16));
    pair[0] = box;
    pair[1] = pair;
    frame.Set(0, Value::Long(x));
    frame.Set(1, Value::Reference(kBoxTag, box));
    frame.Set(2, Value::Reference(kBoxTag, box));
    frame.Set(3, Value::Reference(kBoxTag, pair));
    return Finish(frame);
  }
  Outcome Resume(Frame& frame, int next_child, absl::Span<const Outcome>) override {
    EXPECT_EQ(next_child, 0);
    ++resumed_;
    return Outcome::OfValue(Finish(frame));
  }
  absl::Status PartialEvaluate(pe::PartialEvaluator& pe) override {
    ir::Builder& b = pe.builder();
    pe::PeContext& c = pe.context();
    ir::Function& f = *b.function();
    pe.Enter(this);
    pe::PeValue x = pe.Argument(0, Value::Long(0));
    ir::Value* twice = b.Binary(ir::Opcode::kIadd, x.payload, x.payload);
    ir::Value* tag = b.I64(kBoxTag);
    pe.SetLocal(0, x);
    ir::Value* box = nullptr;
    ir::Value* pair = nullptr;
    if (mode_ == kAllocated) {
      box = b.Alloc(16);
      b.Store(x.payload, box, 0);
      b.Store(twice, box, 8);
      pair = b.Alloc(16);
      b.Store(box, pair, 0);
      b.Store(pair, pair, 8);
      // Escapes (so escape analysis keeps both allocations): the last pair
      // compiled code made.
      b.Store(pair, b.PConst(reinterpret_cast<uint64_t>(&escaped_pair)), 0);
      ir::Value* box_bits = b.Convert(ir::Opcode::kBitcast, ir::Type::kI64, box);
      ir::Value* pair_bits = b.Convert(ir::Opcode::kBitcast, ir::Type::kI64, pair);
      pe.SetLocal(1, {box_bits, tag});
      pe.SetLocal(2, {box_bits, tag});
      pe.SetLocal(3, {pair_bits, tag});
    } else {
      pe.SetLocal(1, {x.payload, tag});  // replaced by the virtual objects below
      pe.SetLocal(2, {x.payload, tag});
      pe.SetLocal(3, {x.payload, tag});
    }
    ir::FrameState* state = pe.EagerFrameState();
    if (mode_ == kVirtual) {
      ir::VirtualObject* vbox = f.CreateVirtualObject();
      vbox->size = 16;
      vbox->fields = {{0, ir::Type::kI64, x.payload}, {8, ir::Type::kI64, twice}};
      ir::VirtualObject* vpair = f.CreateVirtualObject();
      vpair->size = 16;
      vpair->fields = {{0, ir::Type::kPtr, nullptr, vbox}, {8, ir::Type::kPtr, nullptr, vpair}};
      state->locals[1] = {nullptr, tag, vbox};
      state->locals[2] = {nullptr, tag, vbox};
      state->locals[3] = {nullptr, tag, vpair};
    }
    b.Guard(c.LongLess(b.I64(-1), x.payload), state, "negative", ir::DeoptAction::kKeepCode);
    ir::Value* sum = b.Binary(ir::Opcode::kIadd, x.payload, twice);
    if (mode_ == kAllocated) {  // read back from the objects
      sum = b.Binary(ir::Opcode::kIadd, b.Load(ir::Type::kI64, box, 0),
                     b.Load(ir::Type::kI64, box, 8));
    }
    pe.Leave();
    pe.Return({b.Binary(ir::Opcode::kIadd, sum, b.I64(111000)), b.I64(kLongTag)});
    return absl::OkStatus();
  }

  int interpreted() const { return interpreted_; }
  int resumed() const { return resumed_; }

 private:
  static std::unique_ptr<FrameDescriptor> Descriptor() {
    auto descriptor = std::make_unique<FrameDescriptor>();
    for (const char* name : {"x", "box", "same_box", "pair"}) descriptor->AddSlot(name);
    return descriptor;
  }
  // Collects first: the objects must be reachable from the frame alone.
  static Value Finish(Frame& frame) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 10000; ++j) {
        static_cast<int64_t*>(heap::AllocateTraced(16))[0] = -1;  // reuse of freed objects
      }
      heap::Collect();
    }
    const auto* box = reinterpret_cast<const int64_t*>(frame.Get(1).bits);
    const auto* pair = reinterpret_cast<void* const*>(frame.Get(3).bits);
    int64_t result = box[0] + box[1];
    if (frame.Get(2).bits == frame.Get(1).bits) result += 1000;
    if (pair[0] == box) result += 10000;
    if (pair[1] == pair) result += 100000;
    return Value::Long(result);
  }

  Mode mode_;
  int interpreted_ = 0;
  int resumed_ = 0;
};

class VirtualObjectsTest : public testing::TierTest {};

void CallAcrossDeopts(Engine& engine, ObjectsRoot::Mode mode) {
  auto owned = std::make_unique<ObjectsRoot>(mode);
  ObjectsRoot* root = owned.get();
  CallTarget* target = engine.CreateCallTarget(std::move(owned));
  // kAllocated: the call's compiled code allocated a new pair [box, pair]
  // and box [x, 2x].
  auto expect_allocated = [&](int64_t x) {
    if (mode != ObjectsRoot::kAllocated) return;
    static void* const* previous = nullptr;
    ASSERT_NE(escaped_pair, nullptr);
    EXPECT_NE(escaped_pair, previous) << "a new pair";
    previous = escaped_pair;
    const auto* box = static_cast<const int64_t*>(escaped_pair[0]);
    EXPECT_EQ(box[0], x);
    EXPECT_EQ(box[1], 2 * x);
    EXPECT_EQ(escaped_pair[1], escaped_pair);
  };
  EXPECT_EQ(target->Call({Value::Long(5)}), Value::Long(111015));
  expect_allocated(5);
  ASSERT_NE(target->installed_code(), nullptr);
  EXPECT_EQ(root->interpreted(), 0) << "compiled before its first call";
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(target->Call({Value::Long(-7 * i)}), Value::Long(111000 - 21 * i));
    expect_allocated(-7 * i);
    EXPECT_EQ(root->resumed(), i);
    EXPECT_EQ(target->Call({Value::Long(i)}), Value::Long(111000 + 3 * i));
    expect_allocated(i);
  }
  EXPECT_EQ(root->interpreted(), 0);
}

TEST_P(VirtualObjectsTest, DeoptAllocatesTheVirtualObjects) {
  CallAcrossDeopts(*engine_, ObjectsRoot::kVirtual);
}

TEST_P(VirtualObjectsTest, CompiledCodeAllocatesGuestObjects) {
  CallAcrossDeopts(*engine_, ObjectsRoot::kAllocated);
}

MOREL_INSTANTIATE_TIER_TESTS(VirtualObjectsTest);

}  // namespace
}  // namespace morel::runtime
