#include "testing/fuzz/byte_reader.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace morel::fuzz {
namespace {

TEST(ByteReaderTest, IntUsesOneByteForSmallRangesAndStaysInRange) {
  const std::vector<uint8_t> bytes = {7, 255, 3};
  ByteReader r(bytes.data(), bytes.size());
  EXPECT_EQ(r.Int(0, 9), 7);
  EXPECT_EQ(r.Int(-3, 3), -3 + 255 % 7);
  EXPECT_EQ(r.remaining(), 1u);
  EXPECT_EQ(r.Int(10, 10), 10);  // no choice: no byte used
  EXPECT_EQ(r.remaining(), 1u);
}

TEST(ByteReaderTest, WideRangesUseMoreBytes) {
  const std::vector<uint8_t> bytes = {0x34, 0x12};
  ByteReader r(bytes.data(), bytes.size());
  EXPECT_EQ(r.Int(0, 65535), 0x1234);
  EXPECT_TRUE(r.empty());
}

TEST(ByteReaderTest, ExhaustedInputGivesTheSmallestChoices) {
  ByteReader r(nullptr, 0);
  EXPECT_EQ(r.Int(5, 100), 5);
  EXPECT_FALSE(r.Bool());
  EXPECT_EQ(r.Word(), 0u);
  EXPECT_EQ(r.Bytes(10), "");
  EXPECT_EQ(r.Rest(), "");
}

TEST(ByteReaderTest, FullRangeAndBytes) {
  const std::vector<uint8_t> bytes = {3, 'a', 'b', 'c', 'd', 1, 2, 3, 4, 5, 6, 7, 8, 9};
  ByteReader r(bytes.data(), bytes.size());
  EXPECT_EQ(r.Bytes(2), "ab");  // length 3, capped at 2
  EXPECT_EQ(r.Rest().size(), 11u);
  ByteReader w(bytes.data() + 5, 9);
  // lo + the little-endian word.
  EXPECT_EQ(w.Int(INT64_MIN, INT64_MAX), static_cast<int64_t>(0x8807060504030201ULL));
  EXPECT_EQ(w.Int(0, 1000), 9);
}

}  // namespace
}  // namespace morel::fuzz
