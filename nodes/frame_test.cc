// FrameDescriptor slot kinds and Frame basics.

#include "nodes/frame.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Arg;
using test_language::DefineFunction;
using test_language::MakeString;
using test_language::Read;
using test_language::TestRuntime;
using test_language::Write;

TEST(FrameDescriptorTest, SlotsStartIllegal) {
  FrameDescriptor descriptor;
  EXPECT_EQ(descriptor.AddSlot("a"), 0);
  EXPECT_EQ(descriptor.AddSlot("b"), 1);
  EXPECT_EQ(descriptor.size(), 2);
  EXPECT_EQ(descriptor.name(1), "b");
  EXPECT_EQ(descriptor.kind(0), FrameSlotKind::kIllegal);
}

TEST(FrameDescriptorTest, KindsGeneralizeFromLongToObject) {
  FrameDescriptor descriptor;
  int slot = descriptor.AddSlot("x");
  descriptor.RecordWrite(slot, Value::Long(1));
  EXPECT_EQ(descriptor.kind(slot), FrameSlotKind::kLong);
  descriptor.RecordWrite(slot, Value::Long(2));
  EXPECT_EQ(descriptor.kind(slot), FrameSlotKind::kLong);
  descriptor.RecordWrite(slot, Value::Boolean(true));
  EXPECT_EQ(descriptor.kind(slot), FrameSlotKind::kObject);
  // Never narrows again.
  descriptor.RecordWrite(slot, Value::Long(3));
  descriptor.RecordWrite(slot, Value::Boolean(false));
  EXPECT_EQ(descriptor.kind(slot), FrameSlotKind::kObject);
}

TEST(FrameDescriptorTest, KindsGeneralizeFromBooleanToObject) {
  FrameDescriptor descriptor;
  int slot = descriptor.AddSlot("x");
  descriptor.RecordWrite(slot, Value::Boolean(false));
  EXPECT_EQ(descriptor.kind(slot), FrameSlotKind::kBoolean);
  descriptor.RecordWrite(slot, Value::Long(1));
  EXPECT_EQ(descriptor.kind(slot), FrameSlotKind::kObject);
}

TEST(FrameDescriptorTest, OtherValuesAreObjects) {
  FrameDescriptor descriptor;
  int doubles = descriptor.AddSlot("d");
  int strings = descriptor.AddSlot("s");
  int mixed = descriptor.AddSlot("m");
  descriptor.RecordWrite(doubles, Value::Double(1.5));
  descriptor.RecordWrite(strings, MakeString("s"));
  descriptor.RecordWrite(mixed, Value::Long(1));
  descriptor.RecordWrite(mixed, Value::Double(1));
  EXPECT_EQ(descriptor.kind(doubles), FrameSlotKind::kObject);
  EXPECT_EQ(descriptor.kind(strings), FrameSlotKind::kObject);
  EXPECT_EQ(descriptor.kind(mixed), FrameSlotKind::kObject);
  descriptor.RecordWrite(doubles, Value::Long(1));
  EXPECT_EQ(descriptor.kind(doubles), FrameSlotKind::kObject);
}

TEST(FrameDescriptorTest, KindNames) {
  EXPECT_EQ(std::string(FrameSlotKindName(FrameSlotKind::kIllegal)), "Illegal");
  EXPECT_EQ(std::string(FrameSlotKindName(FrameSlotKind::kLong)), "Long");
  EXPECT_EQ(std::string(FrameSlotKindName(FrameSlotKind::kBoolean)), "Boolean");
  EXPECT_EQ(std::string(FrameSlotKindName(FrameSlotKind::kObject)), "Object");
}

TEST(FrameDescriptorTest, CopyUninitializedKeepsNamesAndForgetsKinds) {
  FrameDescriptor descriptor;
  int a = descriptor.AddSlot("a");
  int b = descriptor.AddSlot("b");
  descriptor.RecordWrite(a, Value::Long(1));
  descriptor.RecordWrite(b, Value::Double(1));
  std::unique_ptr<FrameDescriptor> copy = descriptor.CopyUninitialized();
  ASSERT_EQ(copy->size(), 2);
  EXPECT_EQ(copy->name(a), "a");
  EXPECT_EQ(copy->name(b), "b");
  EXPECT_EQ(copy->kind(a), FrameSlotKind::kIllegal);
  EXPECT_EQ(copy->kind(b), FrameSlotKind::kIllegal);
  copy->RecordWrite(a, Value::Boolean(true));
  EXPECT_EQ(copy->kind(a), FrameSlotKind::kBoolean);
  EXPECT_EQ(descriptor.kind(a), FrameSlotKind::kLong);  // independent
}

TEST(FrameDescriptorTest, LocalWritesOfTheLanguageGeneralizeTheirSlots) {
  TestRuntime runtime;
  auto descriptor = std::make_unique<FrameDescriptor>();
  int x = descriptor->AddSlot("x");
  CallTarget* f = DefineFunction(runtime, "f", test_language::Block(Write(x, Arg(0)), Read(x)),
                                 std::move(descriptor));
  const FrameDescriptor& layout = f->root_node()->frame_descriptor();
  EXPECT_EQ(layout.kind(x), FrameSlotKind::kIllegal);
  EXPECT_EQ(f->Call({Value::Long(4)}), Value::Long(4));
  EXPECT_EQ(layout.kind(x), FrameSlotKind::kLong);
  EXPECT_EQ(f->Call({Value::Boolean(true)}), Value::Boolean(true));
  EXPECT_EQ(layout.kind(x), FrameSlotKind::kObject);
}

TEST(FrameTest, SlotsArgumentsAndTheCurrentFrame) {
  FrameDescriptor descriptor;
  descriptor.AddSlot("a");
  Value slots[1] = {Value::Illegal()};
  Value arguments[2] = {Value::Long(1), Value::Long(2)};
  EXPECT_EQ(Frame::Current(), nullptr);
  Frame outer(&descriptor, slots, arguments, nullptr, nullptr);
  {
    FrameScope scope(&outer);
    EXPECT_EQ(Frame::Current(), &outer);
    EXPECT_FALSE(outer.IsInitialized(0));
    outer.Set(0, Value::Boolean(true));
    EXPECT_TRUE(outer.IsInitialized(0));
    EXPECT_EQ(outer.Get(0), Value::Boolean(true));
    EXPECT_EQ(outer.arguments().size(), 2u);
    EXPECT_EQ(outer.arguments()[1], Value::Long(2));
    EXPECT_EQ(outer.return_value(), Value::Illegal());
    outer.set_return_value(Value::Long(3));
    EXPECT_EQ(outer.return_value(), Value::Long(3));

    Frame inner(&descriptor, slots, {}, nullptr, Frame::Current());
    {
      FrameScope inner_scope(&inner);
      EXPECT_EQ(Frame::Current(), &inner);
      EXPECT_EQ(Frame::Current()->caller(), &outer);
    }
    EXPECT_EQ(Frame::Current(), &outer);
  }
  EXPECT_EQ(Frame::Current(), nullptr);
}

}  // namespace
}  // namespace morel
