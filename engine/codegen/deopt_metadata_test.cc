#include "engine/codegen/deopt_metadata.h"

#include <vector>

#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

using K = ValueLocation::Kind;

TEST(DeoptMetadataTest, EncodingRoundTripsAndIsCompact) {
  std::vector<DeoptPoint> points = {
      {1, 10, 200, {{K::kRegister, 3}, {K::kRegister, 15}, {K::kFrameSlot, -48}}},
      {2, 300, 210, {{K::kConstant, -1}, {K::kConstant, INT64_MIN}, {K::kConstant, 1}}},
      {3, 70000, 220, {}},
  };
  std::vector<uint8_t> bytes = EncodeDeoptPoints(points);
  // Registers take one byte each.
  EXPECT_LT(bytes.size(), 40u);
  auto decoded = DecodeDeoptPoints(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, points);
  bytes.pop_back();
  bytes.push_back(0x80);  // truncated varint
  EXPECT_FALSE(DecodeDeoptPoints(bytes).ok());
}

TEST(DeoptMetadataTest, ReadsValuesFromRegistersFramesAndConstants) {
  uint64_t regs[16] = {};
  regs[3] = 33;
  uint64_t frame[4] = {7, 8, 9, 10};
  uint8_t* fp = reinterpret_cast<uint8_t*>(&frame[2]);
  EXPECT_EQ(ReadDeoptValue({K::kRegister, 3}, regs, fp), 33u);
  EXPECT_EQ(ReadDeoptValue({K::kFrameSlot, -8}, regs, fp), 8u);
  EXPECT_EQ(ReadDeoptValue({K::kConstant, -2}, regs, fp), static_cast<uint64_t>(-2));
  CodeMetadata md;
  md.deopt_points.push_back({5, 0, 0, {}});
  EXPECT_NE(md.FindDeopt(5), nullptr);
  EXPECT_EQ(md.FindDeopt(6), nullptr);
}

}  // namespace
}  // namespace morel::codegen
