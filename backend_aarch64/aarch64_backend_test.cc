// The AArch64 backend's own facts: the frame it emits and the immediates it
// takes, run by the harness's runner (natively on an AArch64 host, under
// the Unicorn emulator elsewhere: backend_aarch64/testing); the runtime
// support's assembly stubs, which run only on AArch64 hosts (e.g. the qemu
// end-to-end run). What every backend does with machine IR is
// //engine/codegen:backend_test.

#include "backend_aarch64/aarch64_backend.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "backend_aarch64/abi.h"
#include "backend_aarch64/regs.h"
#include "engine/codegen/allocation_verifier.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/testing/ir_harness.h"
#include "gtest/gtest.h"

namespace morel::aarch64 {
namespace {

using codegen::CompiledCode;
using codegen::CompileOptions;
using codegen::Cond;
using codegen::MachineFunction;
using codegen::MOp;
using codegen::ValuePair;
using codegen::testing::IrHarness;
using Op = codegen::MachineOperand;
namespace mi = codegen::mi;

class Aarch64BackendTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.status(); }

  CompiledCode Compile(MachineFunction& mf, const CompileOptions& options = {}) {
    mf.ComputeSuccessors();
    auto code = h_.backend().Compile(mf, options, h_.cache());
    EXPECT_TRUE(code.ok()) << code.status() << "\n"
                           << mf.Dump(&h_.backend().register_info().names);
    if (!code.ok()) return {};
    return *code;
  }

  ValuePair Call(const CompiledCode& code, std::vector<int64_t> args) {
    auto r = h_.runner().Call(code.entry(), args);
    EXPECT_TRUE(r.ok()) << r.status() << "\n" << Listing(code);
    return r.ok() ? *r : ValuePair{0xbad, 0xbad};
  }
  int64_t Call1(const CompiledCode& code, std::vector<int64_t> args) {
    return static_cast<int64_t>(Call(code, std::move(args)).first);
  }

  std::string Listing(const CompiledCode& code) {
    auto text = h_.backend().Disassemble(absl::MakeConstSpan(code.region.start, code.region.size),
                                         reinterpret_cast<uint64_t>(code.region.start));
    return text.ok() ? *text : std::string(text.status().message());
  }

  IrHarness h_{"aarch64"};
};

std::vector<uint32_t> TakeArgs(MachineFunction& mf, uint32_t block, int n) {
  std::vector<uint32_t> vs;
  const auto& args = Aapcs64RegisterInfo().argument_regs;
  for (int i = 0; i < n; ++i) {
    vs.push_back(mf.NewVReg());
    mf.Append(block, mi::Mov(Op::VReg(vs.back()), Op::Phys(args[i])));
  }
  return vs;
}

void ReturnVReg(MachineFunction& mf, uint32_t block, uint32_t v) {
  mf.Append(block, mi::Mov(Op::Phys(kX0), Op::VReg(v)));
  mf.Append(block, mi::Ret({Op::Phys(kX0)}));
}

TEST_F(Aarch64BackendTest, AddsTwoArguments) {
  MachineFunction mf("add");
  uint32_t b = mf.NewBlock();
  auto a = TakeArgs(mf, b, 2);
  uint32_t s = mf.NewVReg();
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(s), Op::VReg(a[0]), Op::VReg(a[1])));
  ReturnVReg(mf, b, s);
  CompiledCode code = Compile(mf);
  ASSERT_NE(code.entry(), nullptr);
  EXPECT_EQ(Call1(code, {40, 2}), 42);
  EXPECT_EQ(Call1(code, {-5, 3}), -2);
  const std::string listing = Listing(code);
  EXPECT_NE(listing.find("stp x29, x30, [sp, #-16]!"), std::string::npos) << listing;
  EXPECT_NE(listing.find("add x0, x0, x1"), std::string::npos) << listing;
  EXPECT_NE(listing.find("ldp x29, x30, [sp], #16"), std::string::npos) << listing;
  EXPECT_EQ(code.metadata.code_size, code.region.size);
  EXPECT_EQ(code.metadata.code_size % 4, 0u);
}

TEST_F(Aarch64BackendTest, LegalImmediates) {
  const codegen::Backend& b = h_.backend();
  EXPECT_TRUE(b.IsLegalImmediate(MOp::kAdd, 4095));
  EXPECT_TRUE(b.IsLegalImmediate(MOp::kAdd, -4095));
  EXPECT_TRUE(b.IsLegalImmediate(MOp::kSub, 4095 << 12));
  EXPECT_FALSE(b.IsLegalImmediate(MOp::kAdd, 4097));
  EXPECT_TRUE(b.IsLegalImmediate(MOp::kAnd, 0xff));
  EXPECT_FALSE(b.IsLegalImmediate(MOp::kAnd, 0x1234));
  EXPECT_FALSE(b.IsLegalImmediate(MOp::kMul, 3));
  EXPECT_TRUE(b.IsLegalImmediate(MOp::kCmpSet, -1));
  EXPECT_TRUE(b.IsLegalImmediate(MOp::kShl, 63));
  EXPECT_FALSE(b.IsLegalImmediate(MOp::kShl, 64));
}

// ---- Runtime support (runtime_stubs.h): AArch64 hosts only ----

TEST(Aarch64RuntimeSupportTest, DescribesTheAapcs64Frame) {
  auto backend = CreateAarch64Backend();
  const codegen::RuntimeSupport* support = backend->runtime_support();
#if !defined(__aarch64__)
  EXPECT_EQ(support, nullptr);  // generates code this host cannot run
  GTEST_SKIP() << "the runtime stubs run on AArch64 hosts";
#endif
  ASSERT_NE(support, nullptr);
  EXPECT_EQ(support->frame.return_address_offset, 8);
  EXPECT_EQ(support->frame.caller_link_offset, 0);
  EXPECT_EQ(support->frame.saved_registers_offset, -8);
  EXPECT_EQ(support->frame.register_count, kNumGprs);
  EXPECT_EQ(support->frame.captured_registers,
            (std::vector<int>{kX19, kX20, kX21, kX22, kX23, kX24, kX25, kX26, kX27, kX28}));
  EXPECT_TRUE(support->prologue_stack_check);
  ASSERT_NE(support->thread_pointer, nullptr);
  ASSERT_NE(support->call_with_captured_registers, nullptr);
}

#if defined(__aarch64__)

thread_local int64_t thread_local_word;

TEST(Aarch64RuntimeSupportTest, ThreadLocalsLieAtTheSameOffsetFromTheThreadPointer) {
  auto backend = CreateAarch64Backend();
  auto thread_pointer = backend->runtime_support()->thread_pointer;
  auto offset = [&] {
    return reinterpret_cast<intptr_t>(&thread_local_word) -
           static_cast<intptr_t>(thread_pointer());
  };
  const intptr_t here = offset();
  EXPECT_NE(here, 0);
  intptr_t there = 0;
  std::thread([&] { there = offset(); }).join();
  EXPECT_EQ(here, there);
}

// Calls target(a0, ..., a5) with x19..x28 = 19..28 (restoring the caller's),
// so a test can check which registers a capture stub stored where.
extern "C" ValuePair MorelTestCallWithKnownCalleeSaved(const void* target, int64_t a0,
                                                       int64_t a1, int64_t a2, int64_t a3,
                                                       int64_t a4, int64_t a5);
asm(R"(
  .text
  .p2align 2
  .type MorelTestCallWithKnownCalleeSaved, %function
MorelTestCallWithKnownCalleeSaved:
  stp x29, x30, [sp, #-96]!
  mov x29, sp
  stp x19, x20, [sp, #16]
  stp x21, x22, [sp, #32]
  stp x23, x24, [sp, #48]
  stp x25, x26, [sp, #64]
  stp x27, x28, [sp, #80]
  mov x19, #19
  mov x20, #20
  mov x21, #21
  mov x22, #22
  mov x23, #23
  mov x24, #24
  mov x25, #25
  mov x26, #26
  mov x27, #27
  mov x28, #28
  mov x16, x0
  mov x0, x1
  mov x1, x2
  mov x2, x3
  mov x3, x4
  mov x4, x5
  mov x5, x6
  blr x16
  ldp x19, x20, [sp, #16]
  ldp x21, x22, [sp, #32]
  ldp x23, x24, [sp, #48]
  ldp x25, x26, [sp, #64]
  ldp x27, x28, [sp, #80]
  ldp x29, x30, [sp], #96
  ret
  .size MorelTestCallWithKnownCalleeSaved, .-MorelTestCallWithKnownCalleeSaved
)");

struct Captured {
  void* a0;
  const void* a1;
  int64_t a2;
  uint64_t registers[10];  // captured x19..x28
  uint64_t link_words[2];  // the stub's frame link: caller's x29, return address
};

ValuePair RecordCaptured(void* a0, const void* a1, int64_t a2, const uint64_t* captured) {
  auto* out = static_cast<Captured*>(a0);
  out->a0 = a0;
  out->a1 = a1;
  out->a2 = a2;
  std::copy(captured, captured + 10, out->registers);
  out->link_words[0] = captured[10];
  out->link_words[1] = captured[11];
  return ValuePair{7, 8};
}

[[gnu::noinline]] ValuePair CallCaptureStub(codegen::CallWithCapturedRegistersFn stub,
                                            Captured* out, const void** frame) {
  *frame = __builtin_frame_address(0);
  return stub(out, &out->a2, 42, &RecordCaptured);
}

const std::vector<uint64_t> kKnownCalleeSaved = {19, 20, 21, 22, 23, 24, 25, 26, 27, 28};

TEST(Aarch64RuntimeSupportTest, CaptureStubPassesItsArgumentsAndItsFrameLink) {
  auto backend = CreateAarch64Backend();
  Captured out{};
  const void* frame = nullptr;
  ValuePair result =
      CallCaptureStub(backend->runtime_support()->call_with_captured_registers, &out, &frame);
  EXPECT_EQ(result.first, 7u);
  EXPECT_EQ(result.second, 8u);
  EXPECT_EQ(out.a0, &out);
  EXPECT_EQ(out.a1, &out.a2);
  EXPECT_EQ(out.a2, 42);
  EXPECT_EQ(out.link_words[0], reinterpret_cast<uint64_t>(frame));
  EXPECT_NE(out.link_words[1], 0u);
  // x19..x28 in FrameLayout::captured_registers order.
  Captured known{};
  ValuePair r = MorelTestCallWithKnownCalleeSaved(
      reinterpret_cast<const void*>(backend->runtime_support()->call_with_captured_registers),
      reinterpret_cast<int64_t>(&known), reinterpret_cast<int64_t>(&known.a2), 42,
      reinterpret_cast<int64_t>(&RecordCaptured), 0, 0);
  EXPECT_EQ(r.first, 7u);
  EXPECT_EQ(std::vector<uint64_t>(known.registers, known.registers + 10), kKnownCalleeSaved);
}

int64_t guest_call_words[6];
uint64_t guest_call_registers[10];

ValuePair RecordGuestCall(const void* invoker, int64_t w0, int64_t w1, int64_t w2, int64_t w3,
                          int64_t w4, const uint64_t* captured) {
  const int64_t words[6] = {reinterpret_cast<int64_t>(invoker), w0, w1, w2, w3, w4};
  std::copy(words, words + 6, guest_call_words);
  std::copy(captured, captured + 10, guest_call_registers);
  return ValuePair{static_cast<uint64_t>(w0 + w4), 9};
}

TEST(Aarch64RuntimeSupportTest, GuestCallEntryPassesEveryWordAndTheCapturedRegisters) {
  auto backend = CreateAarch64Backend();
  codegen::CodeCache cache;
  absl::StatusOr<const void*> entry = backend->CreateGuestCallEntry(&RecordGuestCall, cache);
  ASSERT_TRUE(entry.ok()) << entry.status();
  ASSERT_NE(*entry, nullptr);
  ValuePair result = MorelTestCallWithKnownCalleeSaved(*entry, 0x1234, 1, 2, 3, 4, 5);
  EXPECT_EQ(result.first, 6u);
  EXPECT_EQ(result.second, 9u);
  EXPECT_EQ(std::vector<int64_t>(guest_call_words, guest_call_words + 6),
            (std::vector<int64_t>{0x1234, 1, 2, 3, 4, 5}));
  EXPECT_EQ(std::vector<uint64_t>(guest_call_registers, guest_call_registers + 10),
            kKnownCalleeSaved);
}

#endif  // defined(__aarch64__)

}  // namespace
}  // namespace morel::aarch64
