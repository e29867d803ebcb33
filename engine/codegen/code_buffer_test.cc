#include "engine/codegen/code_buffer.h"

#include <cstring>
#include <vector>

#include <string>

#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

TEST(CodeBufferTest, ResolvesForwardAndBackwardRel32) {
  CodeBuffer buf;
  Label top = buf.NewLabel(), end = buf.NewLabel();
  buf.Bind(top);
  buf.Emit8(0x90);
  buf.Emit8(0xe9);  // jmp end
  uint32_t f1 = static_cast<uint32_t>(buf.size());
  buf.Emit32(0);
  buf.AddLabelFixup(FixupKind::kRel32, f1, end);
  buf.Emit8(0xe9);  // jmp top
  uint32_t f2 = static_cast<uint32_t>(buf.size());
  buf.Emit32(0);
  buf.AddLabelFixup(FixupKind::kRel32, f2, top);
  buf.Bind(end);
  ASSERT_TRUE(buf.ResolveLabels().ok());
  EXPECT_EQ(static_cast<int32_t>(buf.Read32(f1)), 5);             // 11 - (2 + 4)
  EXPECT_EQ(static_cast<int32_t>(buf.Read32(f2)), -11);           // 0 - (7 + 4)
}

// An AArch64-shaped b.cond (imm19 at bit 5, in words) and b (imm26 at bit
// 0), forward and backward: the field is relative to the word itself and
// the word's other bits stay.
TEST(CodeBufferTest, ResolvesPcRelativeFields) {
  constexpr FixupField kImm19{5, 19, 2};
  constexpr FixupField kImm26{0, 26, 2};
  CodeBuffer buf;
  Label top = buf.NewLabel(), end = buf.NewLabel();
  buf.Bind(top);
  buf.Emit32(0xd503201f);                  // nop
  buf.AddLabelFieldFixup(4, kImm19, end);  // b.ne end
  buf.Emit32(0x54000001);
  buf.AddLabelFieldFixup(8, kImm26, top);  // b top
  buf.Emit32(0x14000000);
  buf.Emit32(0xd503201f);
  buf.Bind(end);
  ASSERT_TRUE(buf.ResolveLabels().ok());
  EXPECT_EQ(buf.Read32(4), 0x54000001u | (3u << 5));           // +12 bytes = 3 words
  EXPECT_EQ(buf.Read32(8), 0x14000000u | (0x3fffffeu & 0x3ffffffu));  // -8 bytes = -2 words
}

TEST(CodeBufferTest, PcRelativeFieldOutOfRangeOrMisaligned) {
  constexpr FixupField kImm14{5, 14, 2};  // tbz: +-32 KiB
  {
    CodeBuffer buf;
    Label far = buf.NewLabel();
    buf.Emit32(0x36000000);
    buf.AddLabelFieldFixup(0, kImm14, far);
    for (int i = 0; i < 8192; ++i) buf.Emit32(0);  // 32 KiB + 4 ahead
    buf.Bind(far);
    absl::Status s = buf.ResolveLabels();
    EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
    EXPECT_NE(s.message().find("14-bit field"), std::string::npos) << s;
  }
  {
    CodeBuffer buf;
    Label near = buf.NewLabel();
    buf.Emit32(0x36000000);
    buf.AddLabelFieldFixup(0, kImm14, near);
    for (int i = 0; i < 8190; ++i) buf.Emit32(0);  // the farthest reachable
    buf.Bind(near);
    ASSERT_TRUE(buf.ResolveLabels().ok());
    EXPECT_EQ(buf.Read32(0), 0x36000000u | (8191u << 5));
  }
  {
    CodeBuffer buf;
    Label odd = buf.NewLabel();
    buf.Emit32(0x14000000);
    buf.AddLabelFieldFixup(0, {0, 26, 2}, odd);
    buf.Emit8(0);
    buf.Bind(odd);
    EXPECT_EQ(buf.ResolveLabels().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(CodeBufferTest, RelocatesExternalPcRelativeField) {
  CodeBuffer buf;
  buf.Emit32(0x94000000);  // bl <external>
  buf.AddExternalFieldFixup(0, {0, 26, 2}, 0x10000 + 0x400);
  ASSERT_TRUE(buf.ResolveLabels().ok());
  std::vector<uint8_t> code = buf.bytes();
  ASSERT_TRUE(buf.Relocate(0x10000, absl::MakeSpan(code)).ok());
  uint32_t word;
  std::memcpy(&word, code.data(), 4);
  EXPECT_EQ(word, 0x94000000u | 0x100u);
  // 128 MiB away does not fit imm26 (+-128 MiB exclusive of the top).
  CodeBuffer far;
  far.Emit32(0x94000000);
  far.AddExternalFieldFixup(0, {0, 26, 2}, 0x10000 + (int64_t{1} << 27));
  std::vector<uint8_t> far_code = far.bytes();
  EXPECT_EQ(far.Relocate(0x10000, absl::MakeSpan(far_code)).code(),
            absl::StatusCode::kOutOfRange);
}

TEST(CodeBufferTest, UnboundLabelIsAnError) {
  CodeBuffer buf;
  Label l = buf.NewLabel();
  buf.Emit32(0);
  buf.AddLabelFixup(FixupKind::kRel32, 0, l);
  EXPECT_FALSE(buf.ResolveLabels().ok());
}

TEST(CodeBufferTest, AlignPadsWithFill) {
  CodeBuffer buf;
  buf.Emit8(1);
  buf.Align(8, 0xcc);
  ASSERT_EQ(buf.size(), 8u);
  EXPECT_EQ(buf.bytes()[7], 0xcc);
  buf.Align(8, 0xcc);
  EXPECT_EQ(buf.size(), 8u);
}

TEST(CodeBufferTest, RelocatesAbsoluteAndExternalFixups) {
  CodeBuffer buf;
  Label l = buf.NewLabel();
  buf.Emit64(0);
  buf.AddLabelFixup(FixupKind::kAbs64, 0, l, 2);
  buf.Emit32(0);
  buf.AddExternalFixup(FixupKind::kRel32, 8, 0x10000100);
  buf.Emit64(0);
  buf.AddExternalFixup(FixupKind::kAbs64, 12, 0x1234);
  buf.Bind(l);
  ASSERT_TRUE(buf.ResolveLabels().ok());
  std::vector<uint8_t> code = buf.bytes();
  ASSERT_TRUE(buf.Relocate(0x10000000, absl::MakeSpan(code)).ok());
  uint64_t abs, ext;
  int32_t rel;
  std::memcpy(&abs, code.data(), 8);
  std::memcpy(&rel, code.data() + 8, 4);
  std::memcpy(&ext, code.data() + 12, 8);
  EXPECT_EQ(abs, 0x10000000u + 20 + 2);
  EXPECT_EQ(rel, 0x100 - 12);
  EXPECT_EQ(ext, 0x1234u);
  // Out of rel32 range.
  EXPECT_FALSE(buf.Relocate(0x7f0000000000, absl::MakeSpan(code)).ok());
}

}  // namespace
}  // namespace morel::codegen
