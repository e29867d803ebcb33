#include "engine/pe/span_arguments.h"

#include <vector>

#include "gtest/gtest.h"
#include "nodes/pending_exception.h"

namespace morel::pe {
namespace {

// What a runtime function taking a span sees, and how often it ran.
std::vector<int64_t> seen;
int64_t reserved_during_call = -1;

int64_t Sum(int64_t bias, absl::Span<const Value> values) {
  seen.clear();
  for (const Value& v : values) seen.push_back(v.AsLong());
  reserved_during_call = ReservedSpanArguments();
  int64_t sum = bias;
  for (int64_t x : seen) sum += x;
  return sum;
}

Value Throws(absl::Span<const Value>) { throw std::runtime_error("guest error"); }

// Nested reservations: a span call whose function itself makes one.
int64_t Nested(absl::Span<const Value> outer) {
  Value* inner = ReserveSpanArguments(2);
  inner[0] = Value::Long(outer[0].AsLong() * 10);
  inner[1] = Value::Long(1);
  int64_t result = SpanThunk<&Sum>::kCall(0, inner, 2);
  // The outer slots are untouched by the inner call.
  return result + outer[0].AsLong() + outer[1].AsLong();
}

TEST(SpanArgumentsTest, ThunkPassesTheSlotsAndReleasesThem) {
  Value* slots = ReserveSpanArguments(3);
  ASSERT_NE(slots, nullptr);
  for (int i = 0; i < 3; ++i) slots[i] = Value::Long(i + 1);
  EXPECT_EQ(ReservedSpanArguments(), 3);
  EXPECT_EQ(SpanThunk<&Sum>::kCall(100, slots, 3), 106);
  EXPECT_EQ(seen, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(reserved_during_call, 3);  // still reserved while F runs
  EXPECT_EQ(ReservedSpanArguments(), 0);
  // Released slots are cleared: they keep nothing alive.
  EXPECT_EQ(slots[0].tag, kIllegalTag);
}

TEST(SpanArgumentsTest, EmptySpan) {
  EXPECT_EQ(ReserveSpanArguments(0), nullptr);
  EXPECT_EQ(SpanThunk<&Sum>::kCall(7, nullptr, 0), 7);
  EXPECT_TRUE(seen.empty());
  EXPECT_EQ(ReservedSpanArguments(), 0);
}

TEST(SpanArgumentsTest, ReleasedWhenTheFunctionThrows) {
  Value* slots = ReserveSpanArguments(2);
  EXPECT_THROW(SpanThunk<&Throws>::kCall(slots, 2), std::runtime_error);
  EXPECT_EQ(ReservedSpanArguments(), 0);
}

TEST(SpanArgumentsTest, NestedCalls) {
  Value* slots = ReserveSpanArguments(2);
  slots[0] = Value::Long(4);
  slots[1] = Value::Long(5);
  EXPECT_EQ(SpanThunk<&Nested>::kCall(slots, 2), 40 + 1 + 4 + 5);
  EXPECT_EQ(ReservedSpanArguments(), 0);
}

TEST(SpanArgumentsTest, GrowsByChunksWithoutMovingSlots) {
  // More than one chunk's worth, reserved in nested order: earlier slots
  // must stay where they are (frames point into them).
  std::vector<Value*> reservations;
  std::vector<int64_t> counts = {1000, 4000, 3000, 10000, 5};
  for (size_t i = 0; i < counts.size(); ++i) {
    Value* slots = ReserveSpanArguments(counts[i]);
    for (int64_t j = 0; j < counts[i]; ++j) slots[j] = Value::Long(static_cast<int64_t>(i));
    reservations.push_back(slots);
  }
  for (size_t i = 0; i < counts.size(); ++i) {
    for (int64_t j = 0; j < counts[i]; ++j) {
      ASSERT_EQ(reservations[i][j].AsLong(), static_cast<int64_t>(i));
    }
  }
  for (size_t i = counts.size(); i-- > 0;) ReleaseSpanArguments(reservations[i], counts[i]);
  EXPECT_EQ(ReservedSpanArguments(), 0);
  // And the stack is usable again from the start.
  Value* again = ReserveSpanArguments(2);
  ASSERT_NE(again, nullptr);
  ReleaseSpanArguments(again, 2);
}

}  // namespace
}  // namespace morel::pe
