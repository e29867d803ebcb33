#include "nodes/frame_walk.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nodes/frame.h"

namespace morel {
namespace {

// A segment listing one fake compiled activation, identified by `label`
// in its single slot.
class FakeSegment : public CompiledSegment {
 public:
  FakeSegment(const FrameDescriptor* descriptor, int64_t label)
      : descriptor_(descriptor), slot_(Value::Long(label)) {}
  bool ForEachFrame(const FrameVisitor& visit) const override {
    return visit(FrameInstance{nullptr, descriptor_, absl::Span<const Value>(&slot_, 1), nullptr});
  }

 private:
  const FrameDescriptor* descriptor_;
  Value slot_;
};

// Each activation as "F<label>" (interpreter frame) or "C<label>" (compiled).
std::vector<std::string> Walk(const Frame* start, int limit = 100) {
  std::vector<std::string> out;
  WalkFrames(start, [&](const FrameInstance& instance) {
    out.push_back(std::string(instance.frame != nullptr ? "F" : "C") +
                  std::to_string(instance.slots[0].AsLong()));
    return static_cast<int>(out.size()) < limit;
  });
  return out;
}

class FrameWalkTest : public ::testing::Test {
 protected:
  FrameWalkTest() { descriptor_.AddSlot("label"); }
  FrameDescriptor descriptor_;
};

TEST_F(FrameWalkTest, SegmentsSitBetweenTheirFrameAndItsLaterCallees) {
  Value b_slots[2] = {Value::Long(1), Value::Illegal()};
  Frame b(&descriptor_, b_slots, {}, nullptr, Frame::Current());
  FrameScope b_scope(&b);
  FakeSegment s1(&descriptor_, 2);  // compiled code called by b
  Value g_slots[2] = {Value::Long(3), Value::Illegal()};
  Frame g(&descriptor_, g_slots, {}, nullptr, Frame::Current());
  FrameScope g_scope(&g);
  FakeSegment s2(&descriptor_, 4);  // compiled code called by g
  FakeSegment s3(&descriptor_, 5);  // ... which entered more compiled code
  Value t_slots[2] = {Value::Long(6), Value::Illegal()};
  Frame t(&descriptor_, t_slots, {}, nullptr, Frame::Current());
  FrameScope t_scope(&t);

  EXPECT_EQ(Walk(&t), (std::vector<std::string>{"F6", "C5", "C4", "F3", "C2", "F1"}));
  // From an outer frame: the segments above it are not part of the walk.
  EXPECT_EQ(Walk(&g), (std::vector<std::string>{"F3", "C2", "F1"}));
  // The visitor stops the walk.
  EXPECT_EQ(Walk(&t, 3), (std::vector<std::string>{"F6", "C5", "C4"}));
}

TEST_F(FrameWalkTest, SegmentsBelowEveryFrameComeLast) {
  ASSERT_EQ(Frame::Current(), nullptr);
  FakeSegment bottom(&descriptor_, 1);  // compiled code entered without a frame
  EXPECT_EQ(Walk(nullptr), (std::vector<std::string>{"C1"}));
  Value slots[2] = {Value::Long(2), Value::Illegal()};
  Frame f(&descriptor_, slots, {}, nullptr, Frame::Current());
  FrameScope scope(&f);
  EXPECT_EQ(Walk(&f), (std::vector<std::string>{"F2", "C1"}));
}

TEST_F(FrameWalkTest, SegmentsArePoppedWithTheirScope) {
  Value slots[2] = {Value::Long(1), Value::Illegal()};
  Frame f(&descriptor_, slots, {}, nullptr, Frame::Current());
  FrameScope scope(&f);
  {
    FakeSegment s(&descriptor_, 2);
    EXPECT_EQ(CompiledSegment::Innermost(), &s);
  }
  EXPECT_EQ(CompiledSegment::Innermost(), nullptr);
  EXPECT_EQ(Walk(&f), (std::vector<std::string>{"F1"}));
}

}  // namespace
}  // namespace morel
