// Deopt exits executed (by the harness's runner: natively on AArch64, under
// the emulator elsewhere): a guard fails, the stub enters the shared deopt
// entry, and a test handler reads the saved registers and frame slots
// through the code's metadata; its result becomes the function's result.

#include "backend_aarch64/deopt_exits.h"

#include <cstdint>
#include <vector>

#include "backend_aarch64/abi.h"
#include "backend_aarch64/regs.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/codegen/testing/ir_harness.h"
#include "gtest/gtest.h"

namespace morel::aarch64 {
namespace {

using codegen::CompileOptions;
using codegen::Cond;
using codegen::MachineFunction;
using codegen::MOp;
using codegen::ValuePair;
using codegen::testing::IrHarness;
using Op = codegen::MachineOperand;
namespace mi = codegen::mi;

// What the handler saw.
struct Seen {
  int calls = 0;
  uint64_t id = 0;
  std::vector<uint64_t> values;
  const void* return_pc = nullptr;
  uint64_t sp = 0;
  const uint8_t* frame = nullptr;
};
Seen seen;
const codegen::CodeMetadata* current_metadata = nullptr;

ValuePair TestDeoptHandler(uint64_t id, uint64_t* regs, uint8_t* frame, const void* return_pc) {
  ++seen.calls;
  seen.id = id;
  seen.return_pc = return_pc;
  seen.sp = regs[kSp];
  seen.frame = frame;
  seen.values.clear();
  const codegen::DeoptPoint* p = current_metadata->FindDeopt(static_cast<uint32_t>(id));
  if (p == nullptr) return {0, 0};
  uint64_t sum = 0;
  for (const codegen::ValueLocation& loc : p->values) {
    seen.values.push_back(codegen::ReadDeoptValue(loc, regs, frame));
    sum += seen.values.back();
  }
  return {sum, 77};  // "the interpreter finished the activation"
}

class DeoptExitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.status();
    ASSERT_TRUE(h_.AllowHostCall(reinterpret_cast<const void*>(&TestDeoptHandler)).ok());
    auto entry = h_.backend().CreateDeoptEntry(&TestDeoptHandler, h_.cache());
    ASSERT_TRUE(entry.ok()) << entry.status();
    options_.deopt_entry = *entry;
    seen = Seen();
  }

  ValuePair Call(const codegen::CompiledCode& code, std::vector<int64_t> args) {
    current_metadata = &code.metadata;
    auto r = h_.runner().Call(code.entry(), args);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : ValuePair{0xbad, 0xbad};
  }

  IrHarness h_{"aarch64"};
  CompileOptions options_;
};

// f(x, y): a = x + 1; b = y * 3; c..: many values; deopt #7 if a > 100 with
// state [a, b, 42, v0..v29]; overflow-checked sum deopts with #8.
TEST_F(DeoptExitsTest, GuardFailureReportsRegisterAndStackValues) {
  MachineFunction mf("guarded");
  uint32_t b0 = mf.NewBlock();
  const auto& args = Aapcs64RegisterInfo().argument_regs;
  uint32_t x = mf.NewVReg(), y = mf.NewVReg(), a = mf.NewVReg(), b = mf.NewVReg();
  uint32_t three = mf.NewVReg();
  mf.Append(b0, mi::Mov(Op::VReg(x), Op::Phys(args[0])));
  mf.Append(b0, mi::Mov(Op::VReg(y), Op::Phys(args[1])));
  mf.Append(b0, mi::Binary(MOp::kAdd, Op::VReg(a), Op::VReg(x), Op::Imm(1)));
  mf.Append(b0, mi::MovImm(Op::VReg(three), 3));
  mf.Append(b0, mi::Binary(MOp::kMul, Op::VReg(b), Op::VReg(y), Op::VReg(three)));
  std::vector<uint32_t> many;
  for (int i = 0; i < 30; ++i) {  // more than the 25 allocatable registers
    many.push_back(mf.NewVReg());
    mf.Append(b0, mi::Binary(MOp::kAdd, Op::VReg(many.back()), Op::VReg(x), Op::Imm(i)));
  }
  codegen::DeoptState st;
  st.id = 7;
  st.values = {Op::VReg(a), Op::VReg(b), Op::Imm(42)};
  for (uint32_t v : many) st.values.push_back(Op::VReg(v));
  int32_t s7 = static_cast<int32_t>(mf.AddDeoptState(st));
  mf.Append(b0, mi::DeoptIf(Cond::kGt, Op::VReg(a), Op::Imm(100), s7));
  codegen::DeoptState st8;
  st8.id = 8;
  st8.values = {Op::VReg(a), Op::VReg(b)};
  int32_t s8 = static_cast<int32_t>(mf.AddDeoptState(st8));
  uint32_t sum = mf.NewVReg();
  auto& add = mf.Append(b0, mi::Binary(MOp::kAddOvf, Op::VReg(sum), Op::VReg(a), Op::VReg(b)));
  add.deopt = s8;
  for (uint32_t v : many) mf.Append(b0, mi::Binary(MOp::kAdd, Op::VReg(sum), Op::VReg(sum), Op::VReg(v)));
  mf.Append(b0, mi::Mov(Op::Phys(kX0), Op::VReg(sum)));
  mf.Append(b0, mi::MovImm(Op::Phys(kX1), 1));
  mf.Append(b0, mi::Ret({Op::Phys(kX0), Op::Phys(kX1)}));
  mf.ComputeSuccessors();
  auto code = h_.backend().Compile(mf, options_, h_.cache());
  ASSERT_TRUE(code.ok()) << code.status();

  // Fast path.
  ValuePair fast = Call(*code, {1, 2});
  EXPECT_EQ(seen.calls, 0);
  int64_t want = 2 + 6;
  for (int i = 0; i < 30; ++i) want += 1 + i;
  EXPECT_EQ(static_cast<int64_t>(fast.first), want);
  EXPECT_EQ(fast.second, 1u);

  // Guard #7 fails: a = 201.
  ValuePair slow = Call(*code, {200, 5});
  ASSERT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.id, 7u);
  std::vector<uint64_t> expect = {201, 15, 42};
  for (int i = 0; i < 30; ++i) expect.push_back(200 + i);
  EXPECT_EQ(seen.values, expect);
  uint64_t expect_sum = 0;
  for (uint64_t v : expect) expect_sum += v;
  EXPECT_EQ(slow.first, expect_sum);
  EXPECT_EQ(slow.second, 77u);
  // The return pc lies in the function; sp at the exit is below the frame.
  auto region = h_.cache().Lookup(seen.return_pc);
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->start, code->region.start);
  EXPECT_EQ(seen.sp, reinterpret_cast<uint64_t>(seen.frame) - (code->metadata.frame_size - 16));
  const codegen::DeoptPoint* p7 = code->metadata.FindDeopt(7);
  ASSERT_NE(p7, nullptr);
  EXPECT_LT(p7->pc_offset, p7->exit_offset);
  EXPECT_LT(p7->exit_offset, code->metadata.code_size);
  bool any_register = false, any_slot = false;
  for (const auto& loc : p7->values) {
    any_register |= loc.kind == codegen::ValueLocation::Kind::kRegister;
    any_slot |= loc.kind == codegen::ValueLocation::Kind::kFrameSlot;
  }
  EXPECT_TRUE(any_register);
  EXPECT_TRUE(any_slot);

  // Overflow deopt #8: a + b overflows int64.
  ValuePair ovf = Call(*code, {50, INT64_MAX / 3});
  ASSERT_EQ(seen.calls, 2);
  EXPECT_EQ(seen.id, 8u);
  EXPECT_EQ(seen.values, (std::vector<uint64_t>{51, static_cast<uint64_t>(INT64_MAX / 3 * 3)}));
  EXPECT_EQ(ovf.second, 77u);
  auto decoded = codegen::DecodeDeoptPoints(codegen::EncodeDeoptPoints(code->metadata.deopt_points));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, code->metadata.deopt_points);
}

// mul.ovf (smulh + cmp) and sub.ovf exit through their deopt; the product's
// boundaries do not.
TEST_F(DeoptExitsTest, MultiplyAndSubtractOverflow) {
  for (MOp op : {MOp::kMulOvf, MOp::kSubOvf}) {
    MachineFunction mf("ovf");
    uint32_t b0 = mf.NewBlock();
    uint32_t x = mf.NewVReg(), y = mf.NewVReg(), d = mf.NewVReg();
    mf.Append(b0, mi::Mov(Op::VReg(x), Op::Phys(kX0)));
    mf.Append(b0, mi::Mov(Op::VReg(y), Op::Phys(kX1)));
    codegen::DeoptState st;
    st.id = 1;
    st.values = {Op::VReg(x), Op::VReg(y)};
    auto& inst = mf.Append(b0, mi::Binary(op, Op::VReg(d), Op::VReg(x), Op::VReg(y)));
    inst.deopt = static_cast<int32_t>(mf.AddDeoptState(st));
    mf.Append(b0, mi::Mov(Op::Phys(kX0), Op::VReg(d)));
    mf.Append(b0, mi::MovImm(Op::Phys(kX1), 1));
    mf.Append(b0, mi::Ret({Op::Phys(kX0), Op::Phys(kX1)}));
    mf.ComputeSuccessors();
    auto code = h_.backend().Compile(mf, options_, h_.cache());
    ASSERT_TRUE(code.ok()) << code.status();
    const bool mul = op == MOp::kMulOvf;
    struct Case {
      int64_t x, y;
    };
    const Case cases[] = {{3, 4}, {-3, 4}, {INT64_MAX, 1}, {INT64_MIN, 1}, {INT64_MIN, -1},
                          {int64_t{1} << 32, int64_t{1} << 31}, {int64_t{1} << 32, int64_t{1} << 30},
                          {-(int64_t{1} << 32), int64_t{1} << 31}, {INT64_MAX, -1},
                          {int64_t{3037000500}, int64_t{3037000500}}};
    for (const Case& c : cases) {
      int64_t r;
      const bool overflows = mul ? __builtin_mul_overflow(c.x, c.y, &r)
                                 : __builtin_sub_overflow(c.x, c.y, &r);
      seen = Seen();
      ValuePair got = Call(*code, {c.x, c.y});
      if (overflows) {
        EXPECT_EQ(seen.calls, 1) << c.x << " " << c.y;
        EXPECT_EQ(got.second, 77u);
        EXPECT_EQ(seen.values, (std::vector<uint64_t>{static_cast<uint64_t>(c.x),
                                                      static_cast<uint64_t>(c.y)}));
      } else {
        EXPECT_EQ(seen.calls, 0) << c.x << " " << c.y;
        EXPECT_EQ(static_cast<int64_t>(got.first), r);
        EXPECT_EQ(got.second, 1u);
      }
    }
  }
}

TEST_F(DeoptExitsTest, UnconditionalDeoptAndMissingEntryIsAnError) {
  MachineFunction mf("always");
  uint32_t b0 = mf.NewBlock();
  codegen::DeoptState st;
  st.id = 3;
  st.values = {Op::Phys(kX0), Op::Imm(-1)};
  mf.Append(b0, mi::Deopt(static_cast<int32_t>(mf.AddDeoptState(st))));
  mf.ComputeSuccessors();
  codegen::CodeCache cache;
  CompileOptions no_entry;
  MachineFunction copy = mf;
  EXPECT_FALSE(h_.backend().Compile(copy, no_entry, cache).ok());
  auto code = h_.backend().Compile(mf, options_, h_.cache());
  ASSERT_TRUE(code.ok()) << code.status();
  ValuePair r = Call(*code, {10});
  EXPECT_EQ(seen.id, 3u);
  EXPECT_EQ(seen.values, (std::vector<uint64_t>{10, static_cast<uint64_t>(-1)}));
  EXPECT_EQ(r.first, 9u);
}

}  // namespace
}  // namespace morel::aarch64
