#include "engine/codegen/code_buffer.h"

#include <cstring>
#include <vector>

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
