// The x86_64 backend's own facts, executed natively (skipped on other
// hosts): the frame it emits, and the runtime support (runtime_stubs.h).
// What every backend does with machine IR is //engine/codegen:backend_test.

#include "backend_x86_64/x86_64_backend.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backend_x86_64/abi.h"
#include "backend_x86_64/regs.h"
#include "engine/codegen/allocation_verifier.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/testing/mir_interpreter.h"
#include "gtest/gtest.h"

namespace morel::x86_64 {
namespace {

using codegen::CodeCache;
using codegen::CompiledCode;
using codegen::CompileOptions;
using codegen::Cond;
using codegen::MachineFunction;
using codegen::MOp;
using codegen::ValuePair;
using Op = codegen::MachineOperand;
namespace mi = codegen::mi;

using Fn1 = int64_t (*)(int64_t);
using Fn2 = int64_t (*)(int64_t, int64_t);

class X86_64BackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
#if !defined(__x86_64__)
    GTEST_SKIP() << "executes x86_64 code";
#endif
    backend_ = CreateX86_64Backend();
  }

  CompiledCode Compile(MachineFunction& mf, const CompileOptions& options = {}) {
    mf.ComputeSuccessors();
    auto code = backend_->Compile(mf, options, cache_);
    EXPECT_TRUE(code.ok()) << code.status() << "\n" << mf.Dump(&backend_->register_info().names);
    if (!code.ok()) return {};
    return *code;
  }

  std::string Listing(const CompiledCode& code) {
    auto text = backend_->Disassemble(absl::MakeConstSpan(code.region.start, code.region.size),
                                      reinterpret_cast<uint64_t>(code.region.start));
    return text.ok() ? *text : std::string(text.status().message());
  }

  std::unique_ptr<codegen::Backend> backend_;
  CodeCache cache_;
};

// Moves incoming argument registers into fresh vregs.
std::vector<uint32_t> TakeArgs(MachineFunction& mf, uint32_t block, int n) {
  std::vector<uint32_t> vs;
  const auto& args = SysVRegisterInfo().argument_regs;
  for (int i = 0; i < n; ++i) {
    vs.push_back(mf.NewVReg());
    mf.Append(block, mi::Mov(Op::VReg(vs.back()), Op::Phys(args[i])));
  }
  return vs;
}

void ReturnVReg(MachineFunction& mf, uint32_t block, uint32_t v) {
  mf.Append(block, mi::Mov(Op::Phys(kRax), Op::VReg(v)));
  mf.Append(block, mi::Ret({Op::Phys(kRax)}));
}

TEST_F(X86_64BackendTest, AddsTwoArguments) {
  MachineFunction mf("add");
  uint32_t b = mf.NewBlock();
  auto a = TakeArgs(mf, b, 2);
  uint32_t s = mf.NewVReg();
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(s), Op::VReg(a[0]), Op::VReg(a[1])));
  ReturnVReg(mf, b, s);
  CompiledCode code = Compile(mf);
  ASSERT_NE(code.entry(), nullptr);
  auto fn = reinterpret_cast<Fn2>(const_cast<void*>(code.entry()));
  EXPECT_EQ(fn(40, 2), 42);
  EXPECT_EQ(fn(-5, 3), -2);
  std::string listing = Listing(code);
  EXPECT_NE(listing.find("pushq %rbp"), std::string::npos) << listing;
  EXPECT_NE(listing.find("addq"), std::string::npos) << listing;
  EXPECT_EQ(code.metadata.code_size, code.region.size);
}

// ---- Runtime support (runtime_stubs.h) ----

TEST_F(X86_64BackendTest, RuntimeSupportDescribesTheSysVFrame) {
  const codegen::RuntimeSupport* support = backend_->runtime_support();
  ASSERT_NE(support, nullptr);
  EXPECT_EQ(support->frame.return_address_offset, 8);
  EXPECT_EQ(support->frame.caller_link_offset, 0);
  EXPECT_EQ(support->frame.saved_registers_offset, -8);
  EXPECT_EQ(support->frame.register_count, kNumGprs);
  EXPECT_EQ(support->frame.captured_registers, (std::vector<int>{kRbx, kR12, kR13, kR14, kR15}));
  EXPECT_TRUE(support->prologue_stack_check);
  ASSERT_NE(support->thread_pointer, nullptr);
  ASSERT_NE(support->call_with_captured_registers, nullptr);
}

thread_local int64_t thread_local_word;

TEST_F(X86_64BackendTest, ThreadLocalsLieAtTheSameOffsetFromTheThreadPointerOnEveryThread) {
  auto thread_pointer = backend_->runtime_support()->thread_pointer;
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

struct Captured {
  void* a0;
  const void* a1;
  int64_t a2;
  uint64_t link_words[2];  // the stub's frame link: caller's rbp, return address
};

ValuePair RecordCaptured(void* a0, const void* a1, int64_t a2, const uint64_t* captured) {
  auto* out = static_cast<Captured*>(a0);
  out->a0 = a0;
  out->a1 = a1;
  out->a2 = a2;
  out->link_words[0] = captured[5];
  out->link_words[1] = captured[6];
  return ValuePair{7, 8};
}

[[gnu::noinline]] ValuePair CallCaptureStub(codegen::CallWithCapturedRegistersFn stub,
                                            Captured* out, const void** frame) {
  *frame = __builtin_frame_address(0);
  return stub(out, &out->a2, 42, &RecordCaptured);
}

TEST_F(X86_64BackendTest, CaptureStubPassesItsArgumentsAndItsFrameLink) {
  Captured out{};
  const void* frame = nullptr;
  ValuePair result =
      CallCaptureStub(backend_->runtime_support()->call_with_captured_registers, &out, &frame);
  EXPECT_EQ(result.first, 7u);
  EXPECT_EQ(result.second, 8u);
  EXPECT_EQ(out.a0, &out);
  EXPECT_EQ(out.a1, &out.a2);
  EXPECT_EQ(out.a2, 42);
  // The stub's caller link is its caller's frame pointer (FrameLayout).
  EXPECT_EQ(out.link_words[0], reinterpret_cast<uint64_t>(frame));
  EXPECT_NE(out.link_words[1], 0u);
}

int64_t guest_call_words[6];
bool guest_call_captured;

ValuePair RecordGuestCall(const void* invoker, int64_t w0, int64_t w1, int64_t w2, int64_t w3,
                          int64_t w4, const uint64_t* captured) {
  const int64_t words[6] = {reinterpret_cast<int64_t>(invoker), w0, w1, w2, w3, w4};
  std::copy(words, words + 6, guest_call_words);
  guest_call_captured = captured != nullptr;
  return ValuePair{static_cast<uint64_t>(w0 + w4), 9};
}

TEST_F(X86_64BackendTest, GuestCallEntryPassesEveryWordAndTheCapturedRegisters) {
  absl::StatusOr<const void*> entry = backend_->CreateGuestCallEntry(&RecordGuestCall, cache_);
  ASSERT_TRUE(entry.ok()) << entry.status();
  ASSERT_NE(*entry, nullptr);
  using Entry = ValuePair (*)(const void*, int64_t, int64_t, int64_t, int64_t, int64_t);
  ValuePair result = reinterpret_cast<Entry>(const_cast<void*>(*entry))(
      reinterpret_cast<const void*>(uintptr_t{0x1234}), 1, 2, 3, 4, 5);
  EXPECT_EQ(result.first, 6u);
  EXPECT_EQ(result.second, 9u);
  EXPECT_EQ(std::vector<int64_t>(guest_call_words, guest_call_words + 6),
            (std::vector<int64_t>{0x1234, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(guest_call_captured);
}

}  // namespace
}  // namespace morel::x86_64
