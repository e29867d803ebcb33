// What lowered IR becomes on x86_64, instruction by instruction: the shared
// lowering tests (engine/codegen/testing) check behaviour on every backend;
// these check the x86_64 sequences themselves through the disassembler.

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

#include "engine/codegen/testing/ir_harness.h"
#include "engine/ir/parser.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::x86_64 {
namespace {

using codegen::testing::IrHarness;

int64_t RtMix(int64_t a, int64_t b, int64_t c) { return a * 31 + b * 7 + c; }

class LoweredCodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
#if !defined(__x86_64__)
    GTEST_SKIP() << "runs x86_64 code";
#endif
    ASSERT_TRUE(h_.ok()) << h_.status();
    ASSERT_TRUE(registry_
                    .Register({"mix", reinterpret_cast<const void*>(&RtMix),
                               {{ir::Type::kI64, ir::Type::kI64, ir::Type::kI64}, {ir::Type::kI64}},
                               ir::RuntimeEffects::kNoDeopt})
                    .ok());
  }

  std::unique_ptr<ir::Function> Parse(const char* text) {
    auto f = ir::ParseFunction(text, &registry_);
    EXPECT_TRUE(f.ok()) << f.status();
    if (!f.ok()) return nullptr;
    EXPECT_TRUE(ir::Verify(**f).ok());
    return std::move(*f);
  }

  std::string Disassembly(const codegen::testing::HarnessFunction& fn) {
    const codegen::CodeRegion& region = fn.compiled().code.region;
    auto text = h_.backend().Disassemble(absl::MakeConstSpan(region.start, region.size),
                                         reinterpret_cast<uint64_t>(region.start));
    EXPECT_TRUE(text.ok()) << text.status();
    return text.ok() ? *text : "";
  }

  ir::RuntimeRegistry registry_;
  IrHarness h_{"x86_64"};
};

TEST_F(LoweredCodeTest, FrameOverflowDeoptAndCall) {
  auto f = Parse(R"(func @dis(i64, i64) -> (i64) {
  fs0 = eager interpreter target 1 resume 1 locals [v0:v1] stack []
block0(v0: i64, v1: i64):
  v2 = iadd v0, v1
  v3 = iadd_overflows v0, v1
  v4 = not v3
  guard v4, fs0, "overflow"
  v5 = call_runtime @mix(v2, v0, v1) -> (i64)
  return v5
}
)");
  ASSERT_NE(f, nullptr);
  auto native = h_.Compile(*f);
  ASSERT_TRUE(native.ok()) << native.status();
  const std::string text = Disassembly(**native);
  for (const char* want : {"pushq %rbp", "addq", "jo", "callq *%r11", "retq"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << " in\n" << text;
  }
  std::cout << "disassembly of @dis:\n" << text << (*native)->compiled().deopt_map.DebugString();
}

TEST_F(LoweredCodeTest, TheAllocationFastPath) {
  auto f = Parse(R"(func @a() -> (ptr) {
block0:
  v0 = alloc 32
  return v0
}
)");
  ASSERT_NE(f, nullptr);
  auto native = h_.Compile(*f);
  ASSERT_TRUE(native.ok()) << native.status();
  const std::string text = Disassembly(**native);
  // Pop from the thread's list, clear the link; the refill call out of line.
  for (const char* want : {"movq %fs:", "testq %rax, %rax", "movq (%rax), %r11",
                           "movq %r11, %fs:", "movq $0, (%rax)", "callq *%r11"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  }
  codegen::testing::ResetTestHeap();
  auto got = (*native)->Run({});
  ASSERT_TRUE(got.ok());
  EXPECT_NE(got->values[0], 0);
}


// The target lowering hook (target_lowering.h): select is a cmov, not the
// shared lowering's mask (neg, xor, and, xor).
TEST_F(LoweredCodeTest, SelectIsACmov) {
  auto f = Parse(R"(func @select(i64, i64, i64) -> (i64) {
block0(v0: i64, v1: i64, v2: i64):
  v3 = icmp slt v0, v1
  v4 = select v3, v1, v2
  return v4
}
)");
  ASSERT_NE(f, nullptr);
  auto native = h_.Compile(*f);
  ASSERT_TRUE(native.ok()) << native.status();
  const std::string text = Disassembly(**native);
  EXPECT_NE(text.find("cmovneq"), std::string::npos) << text;
  EXPECT_EQ(text.find("negq"), std::string::npos) << text;
  for (int64_t x : {-3, 0, 5}) {
    auto got = (*native)->Run({x, 1, 9});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->values[0], x < 1 ? 1 : 9);
  }
}

}  // namespace
}  // namespace morel::x86_64
