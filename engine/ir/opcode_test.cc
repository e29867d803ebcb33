#include "engine/ir/opcode.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace morel::ir {
namespace {

TEST(OpcodeTest, NamesAreUniqueAndRoundTrip) {
  std::set<std::string> names;
  for (int i = 0; i < kNumOpcodes; ++i) {
    Opcode op = static_cast<Opcode>(i);
    std::string name(OpcodeName(op));
    EXPECT_TRUE(names.insert(name).second) << name;
    ASSERT_TRUE(OpcodeFromName(name).has_value()) << name;
    EXPECT_EQ(*OpcodeFromName(name), op);
  }
  EXPECT_FALSE(OpcodeFromName("iadd.i64").has_value());
  EXPECT_FALSE(OpcodeFromName("nonsense").has_value());
}

TEST(OpcodeTest, EveryOpcodeDocumentsItsSemantics) {
  for (int i = 0; i < kNumOpcodes; ++i) {
    const OpcodeInfo& info = GetOpcodeInfo(static_cast<Opcode>(i));
    EXPECT_GT(info.semantics.size(), 5u) << std::string(info.name);
  }
}

TEST(OpcodeTest, TableIsConsistent) {
  for (int i = 0; i < kNumOpcodes; ++i) {
    const OpcodeInfo& info = GetOpcodeInfo(static_cast<Opcode>(i));
    std::string name(info.name);
    switch (info.format) {
      case OpFormat::kBinary:
      case OpFormat::kCompare:
        EXPECT_EQ(info.arity, 2) << name;
        break;
      case OpFormat::kUnary:
      case OpFormat::kConvert:
        EXPECT_EQ(info.arity, 1) << name;
        break;
      case OpFormat::kSelectFormat:
        EXPECT_EQ(info.arity, 3) << name;
        break;
      default:
        break;
    }
    if (info.effects == Effects::kPure) {
      EXPECT_NE(info.result, ResultRule::kNoResult) << name << ": a pure op must produce a value";
    }
    if (info.effects == Effects::kTerminator) {
      EXPECT_EQ(info.result, ResultRule::kNoResult) << name;
    }
  }
}

TEST(OpcodeTest, Classification) {
  EXPECT_TRUE(IsPure(Opcode::kIadd));
  EXPECT_FALSE(IsPure(Opcode::kLoad));  // loads are effectful for now
  EXPECT_FALSE(IsPure(Opcode::kGuard));
  EXPECT_TRUE(IsTerminator(Opcode::kDeopt));
  EXPECT_FALSE(IsTerminator(Opcode::kGuard));
  EXPECT_TRUE(HasTypeSuffix(Opcode::kLoad));
  EXPECT_FALSE(HasTypeSuffix(Opcode::kIadd));
  EXPECT_TRUE(UsesFrameState(Opcode::kCallTarget));
  EXPECT_TRUE(IsCommutative(Opcode::kIaddOverflows));
  EXPECT_FALSE(IsCommutative(Opcode::kIsub));
}

}  // namespace
}  // namespace morel::ir
