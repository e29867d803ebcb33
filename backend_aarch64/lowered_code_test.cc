// What lowered IR becomes on AArch64, instruction by instruction: the shared
// lowering tests (engine/codegen/testing) check behaviour on every backend;
// these check the AArch64 sequences themselves through the disassembler
// (and run them, under the emulator on other hosts).

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>

#include "engine/codegen/testing/ir_harness.h"
#include "engine/ir/parser.h"
#include "engine/ir/verifier.h"
#include "gtest/gtest.h"

namespace morel::aarch64 {
namespace {

using codegen::testing::IrHarness;

int64_t RtMix(int64_t a, int64_t b, int64_t c) { return a * 31 + b * 7 + c; }

class LoweredCodeTest : public ::testing::Test {
 protected:
  void SetUp() override {
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

  static void ExpectAll(const std::string& text, std::initializer_list<const char*> wanted) {
    for (const char* want : wanted) {
      EXPECT_NE(text.find(want), std::string::npos) << want << " in\n" << text;
    }
  }

  ir::RuntimeRegistry registry_;
  IrHarness h_{"aarch64"};
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
  // Frame record; adds + b.vs to the deopt stub; the call through x16; the
  // deopt stub's id in x16 and the entry through x17.
  ExpectAll(text, {"stp x29, x30, [sp, #-16]!", "mov x29, sp", "adds ", "b.vs", "blr x16",
                   "blr x17", "ldp x29, x30, [sp], #16", "ret"});
  std::cout << "disassembly of @dis:\n" << text << (*native)->compiled().deopt_map.DebugString();
  auto got = (*native)->Run({2, 3});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->values[0], RtMix(5, 2, 3));
  auto deopt = (*native)->Run({INT64_MAX, 1});
  ASSERT_TRUE(deopt.ok()) << deopt.status();
  EXPECT_EQ(deopt->kind, ir::ExecutionResult::Kind::kDeoptimized);
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
  ExpectAll(text, {"mrs x15, TPIDR_EL0", "cbz x0", "ldr x17, [x0]", "x17, [x15",
                   "str xzr, [x0]", "blr x16"});
  codegen::testing::ResetTestHeap();
  for (int i = 0; i < 7; ++i) {  // the list empties every 3 objects
    auto got = (*native)->Run({});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_NE(got->values[0], 0);
  }
  EXPECT_EQ(codegen::testing::TestHeapCountsOnThisThread().refills, 3);
}

// The target lowering hook: select is cmp + csel, not the shared
// lowering's mask (neg, eor, and, eor).
TEST_F(LoweredCodeTest, SelectIsACsel) {
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
  ExpectAll(text, {"csel", "cset"});
  EXPECT_EQ(text.find("neg "), std::string::npos) << text;
  for (int64_t x : {-3, 0, 5}) {
    auto got = (*native)->Run({x, 1, 9});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->values[0], x < 1 ? 1 : 9);
  }
}

// An i64 product used once by an add or a subtraction is a madd/msub; one
// used twice is not fused (it stays a mul).
TEST_F(LoweredCodeTest, MultiplyAddFuses) {
  auto f = Parse(R"(func @madd(i64, i64, i64) -> (i64, i64) {
block0(v0: i64, v1: i64, v2: i64):
  v3 = imul v0, v1
  v4 = iadd v2, v3
  v5 = imul v1, v2
  v6 = isub v0, v5
  v7 = imul v0, v2
  v8 = iadd v7, v7
  v9 = iadd v4, v8
  return v9, v6
}
)");
  ASSERT_NE(f, nullptr);
  auto native = h_.Compile(*f);
  ASSERT_TRUE(native.ok()) << native.status();
  const std::string text = Disassembly(**native);
  ExpectAll(text, {"madd", "msub", "mul "});
  for (auto [a, b, c] : {std::tuple<int64_t, int64_t, int64_t>{2, 3, 4}, {-7, 11, 13},
                         {INT64_MAX, 3, -5}}) {
    auto got = (*native)->Run({a, b, c});
    ASSERT_TRUE(got.ok()) << got.status();
    auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
    EXPECT_EQ(u(got->values[0]), u(c) + u(a) * u(b) + 2 * u(a) * u(c));
    EXPECT_EQ(u(got->values[1]), u(a) - u(b) * u(c));
  }
}

}  // namespace
}  // namespace morel::aarch64
