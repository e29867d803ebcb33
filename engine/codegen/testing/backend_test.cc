// What every backend does with machine IR (engine/codegen/machine_function.h),
// run against each backend this test binary can run (natively, or under a
// registered emulator: testing/ir_harness.h), written once from the
// backend's RegisterInfo and IsLegalImmediate: hand-built machine functions
// through register allocation, encoding, installation and execution --
//   every machine operation against the machine-IR interpreter (linear
//   scan and spill-everything, destination aliasing, legal immediates);
//   arguments and result pairs; loops with an OSR entry; constants of every
//   shape; loads and stores at every displacement; calls of C++ and of
//   compiled code with values live across them in callee-saved registers;
//   more live values than registers; frames beyond 32 KiB; the guest
//   stack check (absolute, thread-local on two threads, from a context
//   argument under deep recursion); deopt exits (guards, overflow checks,
//   unconditional) read back through the code's metadata.
// Each backend's own package checks the instruction sequences it emits
// (its lowered_code_test, function_emitter_test).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/codegen/allocation_verifier.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/testing/ir_harness.h"
#include "engine/codegen/testing/mir_interpreter.h"
#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

using testing::IrHarness;
using Op = MachineOperand;

class BackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.status(); }

  const RegisterInfo& ri() { return h_.backend().register_info(); }
  Op Arg(int i) { return Op::Phys(ri().argument_regs[i]); }
  Op Result(int i) { return Op::Phys(ri().return_regs[i]); }
  size_t CalleeSavedAllocatable() {
    size_t n = 0;
    for (PReg r : ri().allocatable[0]) n += ri().IsCalleeSaved(r) ? 1 : 0;
    return n;
  }

  CompiledCode Compile(MachineFunction& mf, const CompileOptions& options = {}) {
    mf.ComputeSuccessors();
    auto code = h_.backend().Compile(mf, options, h_.cache());
    EXPECT_TRUE(code.ok()) << code.status() << "\n" << mf.Dump(&ri().names);
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

  std::vector<uint32_t> TakeArgs(MachineFunction& mf, uint32_t block, int n) {
    std::vector<uint32_t> vs;
    for (int i = 0; i < n; ++i) {
      vs.push_back(mf.NewVReg());
      mf.Append(block, mi::Mov(Op::VReg(vs.back()), Arg(i)));
    }
    return vs;
  }
  void ReturnVReg(MachineFunction& mf, uint32_t block, uint32_t v) {
    mf.Append(block, mi::Mov(Result(0), Op::VReg(v)));
    mf.Append(block, mi::Ret({Result(0)}));
  }
  // An immediate the backend accepts for `op` (else a register operand).
  Op ImmOrReg(MachineFunction& mf, uint32_t block, MOp op, int64_t imm) {
    if (h_.backend().IsLegalImmediate(op, imm)) return Op::Imm(imm);
    uint32_t v = mf.NewVReg();
    mf.Append(block, mi::MovImm(Op::VReg(v), imm));
    return Op::VReg(v);
  }

  IrHarness h_{GetParam()};
};

// ------------------------------------------------------------ operations

struct Case {
  MOp op;
  bool imm;
  Cond cond;
  // Which operand the result overwrites (non-SSA vregs): 0 fresh, 1 = a, 2 = b.
  int dst_alias;
};

// A random immediate the backend accepts for `op`, or nullopt after many
// tries (the backend takes none for it).
std::optional<int64_t> LegalImmediate(const Backend& backend, MOp op, std::mt19937_64& rng) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    int64_t v;
    switch (rng() % 6) {
      case 0: v = static_cast<int8_t>(rng()); break;
      case 1: v = static_cast<int32_t>(rng()); break;
      case 2: v = static_cast<int64_t>(rng() % 4096); break;
      case 3: v = static_cast<int64_t>(rng() % 4096) << 12; break;
      case 4: v = -static_cast<int64_t>(rng() % 4096); break;
      default: {  // a rotated run of ones (AArch64's bitmask immediates)
        const unsigned ones = 1 + rng() % 63, rotation = rng() % 64;
        uint64_t u = (uint64_t{1} << ones) - 1;
        u = rotation == 0 ? u : (u >> rotation) | (u << (64 - rotation));
        v = static_cast<int64_t>(u);
      }
    }
    if (op == MOp::kShl || op == MOp::kSar || op == MOp::kShr) v &= 63;
    if (backend.IsLegalImmediate(op, v)) return v;
  }
  return std::nullopt;
}

// f(x, y) = x op y (or x op imm), with optional aliasing of the destination.
MachineFunction BuildOperation(const RegisterInfo& ri, const Case& c, int64_t imm) {
  MachineFunction mf("op");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), y = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(ri.argument_regs[0])));
  mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(ri.argument_regs[1])));
  uint32_t d = c.dst_alias == 1 ? x : c.dst_alias == 2 ? y : mf.NewVReg();
  Op rhs = c.imm ? Op::Imm(imm) : Op::VReg(y);
  switch (c.op) {
    case MOp::kNeg: case MOp::kNot:
      mf.Append(b, mi::Unary(c.op, Op::VReg(d), Op::VReg(x)));
      break;
    case MOp::kCmpSet:
      mf.Append(b, mi::CmpSet(c.cond, Op::VReg(d), Op::VReg(x), rhs));
      break;
    default:
      mf.Append(b, mi::Binary(c.op, Op::VReg(d), Op::VReg(x), rhs));
  }
  // Keep x and y alive past the operation so aliasing matters.
  uint32_t r = mf.NewVReg();
  mf.Append(b, mi::Binary(MOp::kXor, Op::VReg(r), Op::VReg(d), Op::VReg(x)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(r), Op::VReg(r), Op::VReg(y)));
  mf.Append(b, mi::Mov(Op::Phys(ri.return_regs[0]), Op::VReg(r)));
  mf.Append(b, mi::Ret({Op::Phys(ri.return_regs[0])}));
  mf.ComputeSuccessors();
  return mf;
}

TEST_P(BackendTest, EveryOperationMatchesTheMachineIrInterpreter) {
  std::vector<Case> cases;
  for (MOp op : {MOp::kAdd, MOp::kSub, MOp::kMul, MOp::kAnd, MOp::kOr, MOp::kXor, MOp::kShl,
                 MOp::kSar, MOp::kShr, MOp::kDiv, MOp::kRem, MOp::kMulHigh, MOp::kNeg,
                 MOp::kNot}) {
    for (int alias = 0; alias < 3; ++alias) {
      cases.push_back({op, false, Cond::kEq, alias});
      if (op != MOp::kDiv && op != MOp::kRem && op != MOp::kMulHigh && op != MOp::kNeg &&
          op != MOp::kNot) {
        for (int k = 0; k < 3; ++k) cases.push_back({op, true, Cond::kEq, alias});
      }
    }
  }
  for (int c = 0; c <= static_cast<int>(Cond::kUGe); ++c) {
    cases.push_back({MOp::kCmpSet, false, static_cast<Cond>(c), 0});
    cases.push_back({MOp::kCmpSet, true, static_cast<Cond>(c), 1});
    cases.push_back({MOp::kCmpSet, true, static_cast<Cond>(c), 0});
  }
  std::mt19937_64 rng(42);
  int runs = 0;
  for (bool spill_everything : {false, true}) {
    for (const Case& c : cases) {
      const bool shift = c.op == MOp::kShl || c.op == MOp::kSar || c.op == MOp::kShr;
      int64_t imm = 0;
      if (c.imm) {
        std::optional<int64_t> legal = LegalImmediate(h_.backend(), c.op, rng);
        if (!legal) continue;  // the backend takes no immediate for it (AArch64 mul)
        imm = *legal;
      }
      MachineFunction reference = BuildOperation(ri(), c, imm);
      MachineFunction mf = reference;
      CompileOptions options;
      options.allocation.spill_everything = spill_everything;
      auto code = h_.backend().Compile(mf, options, h_.cache());
      ASSERT_TRUE(code.ok()) << MOpName(c.op) << " #" << imm << ": " << code.status();
      for (int i = 0; i < 20; ++i) {
        int64_t x = static_cast<int64_t>(rng()) >> (rng() % 64);
        int64_t y = static_cast<int64_t>(rng()) >> (rng() % 64);
        if (i == 0) y = x;
        if (i == 1 && c.imm) x = imm;  // equal operands for the compares
        if (shift) y &= 63;
        if ((c.op == MOp::kDiv || c.op == MOp::kRem) && (y == 0 || y == -1)) y = 7;
        auto want = testing::RunMir(reference, ri(),
                                    {static_cast<uint64_t>(x), static_cast<uint64_t>(y)});
        ASSERT_TRUE(want.ok()) << want.status();
        auto got = h_.runner().Call(code->entry(), {x, y});
        ASSERT_TRUE(got.ok()) << got.status();
        ASSERT_EQ(got->first, want->returned[0])
            << MOpName(c.op) << (c.imm ? " imm " : " reg ") << "alias " << c.dst_alias
            << " cond " << CondName(c.cond) << " x=" << x << " y=" << y << " imm=" << imm
            << (spill_everything ? " spill-everything" : "") << "\n" << mf.Dump(&ri().names);
        ++runs;
      }
    }
  }
  EXPECT_GE(runs, static_cast<int>(cases.size()) * 20);
}

TEST_P(BackendTest, IllegalImmediatesAreRefusedAndMaterializedConstantsAreNot) {
  EXPECT_TRUE(h_.backend().IsLegalImmediate(MOp::kMovImm, int64_t{1} << 40));
  EXPECT_FALSE(h_.backend().IsLegalImmediate(MOp::kAdd, int64_t{1} << 40));
  MachineFunction mf("big");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Arg(0)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(x), Op::VReg(x), Op::Imm(int64_t{1} << 40)));
  ReturnVReg(mf, b, x);
  mf.ComputeSuccessors();
  EXPECT_FALSE(h_.backend().Compile(mf, {}, h_.cache()).ok());
}

// ------------------------------------------------------ values and control

TEST_P(BackendTest, AddsTwoArgumentsAndReturnsAPair) {
  MachineFunction mf("pair");
  uint32_t b = mf.NewBlock();
  auto a = TakeArgs(mf, b, 2);  // (payload, tag)
  uint32_t s = mf.NewVReg();
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(s), Op::VReg(a[0]), Op::VReg(a[0])));
  mf.Append(b, mi::Mov(Result(0), Op::VReg(s)));
  mf.Append(b, mi::Mov(Result(1), Op::VReg(a[1])));
  mf.Append(b, mi::Ret({Result(0), Result(1)}));
  CompiledCode code = Compile(mf);
  ASSERT_NE(code.entry(), nullptr);
  ValuePair v = Call(code, {21, 1});
  EXPECT_EQ(v.first, 42u);
  EXPECT_EQ(v.second, 1u);
  EXPECT_EQ(code.metadata.code_size, code.region.size);
}

// sum = 0; for (i = 1; i <= n; ++i) sum += i; return sum;
MachineFunction SumLoop(const RegisterInfo& ri) {
  MachineFunction mf("sum");
  uint32_t entry = mf.NewBlock(), header = mf.NewBlock(), body = mf.NewBlock(),
           exit = mf.NewBlock();
  uint32_t n = mf.NewVReg(), sum = mf.NewVReg(), i = mf.NewVReg();
  mf.Append(entry, mi::Mov(Op::VReg(n), Op::Phys(ri.argument_regs[0])));
  mf.Append(entry, mi::MovImm(Op::VReg(sum), 0));
  mf.Append(entry, mi::MovImm(Op::VReg(i), 1));
  mf.Append(entry, mi::Jump(header));
  mf.Append(header, mi::Branch(Cond::kLe, Op::VReg(i), Op::VReg(n), body, exit));
  mf.Append(body, mi::Binary(MOp::kAdd, Op::VReg(sum), Op::VReg(sum), Op::VReg(i)));
  mf.Append(body, mi::Binary(MOp::kAdd, Op::VReg(i), Op::VReg(i), Op::Imm(1)));
  mf.Append(body, mi::Jump(header));
  mf.Append(exit, mi::Mov(Op::Phys(ri.return_regs[0]), Op::VReg(sum)));
  mf.Append(exit, mi::Ret({Op::Phys(ri.return_regs[0])}));
  mf.block(header).osr_entry = 0;
  return mf;
}

TEST_P(BackendTest, LoopSumsOneToN) {
  for (bool spill_everything : {false, true}) {
    MachineFunction mf = SumLoop(ri());
    CompileOptions options;
    options.allocation.spill_everything = spill_everything;
    CompiledCode code = Compile(mf, options);
    ASSERT_NE(code.entry(), nullptr);
    EXPECT_EQ(Call1(code, {0}), 0);
    EXPECT_EQ(Call1(code, {10}), 55);
    EXPECT_EQ(Call1(code, {100000}), int64_t{5000050000});
    ASSERT_EQ(code.metadata.osr_entries.size(), 1u);
    EXPECT_LT(code.metadata.osr_entries[0].pc_offset, code.metadata.code_size);
  }
}

// A frame of more than 32 KiB: spill slots far above the stack pointer
// (slots made after allocation lie below the spill slots).
TEST_P(BackendTest, LargeFrames) {
  MachineFunction mf = SumLoop(ri());
  mf.ComputeSuccessors();
  AllocationOptions spill_everything;
  spill_everything.spill_everything = true;
  ASSERT_TRUE(AllocateRegisters(mf, ri(), spill_everything).ok());
  for (int i = 0; i < 5000; ++i) mf.NewStackSlot();
  CompiledCode code = Compile(mf);
  ASSERT_NE(code.entry(), nullptr);
  EXPECT_GT(code.metadata.frame_size, 40000u);
  EXPECT_EQ(code.metadata.frame_size % 16, 0u);
  EXPECT_EQ(Call1(code, {100}), 5050);
}

TEST_P(BackendTest, MaterializesEveryConstant) {
  const int64_t constants[] = {0, 1, -1, 0xffff, 0x10000, -0x10000, 0x5555555555555555,
                               INT64_MIN, INT64_MAX, 0x123456789abcdef0, -0x123456789abcdef0,
                               0xffff0000ffff, 0x0000ffff00000000, -0x1ffff,
                               0x00ff00ff00ff00ff, 0x7ffffffffffff000, INT32_MIN, INT32_MAX,
                               int64_t{INT32_MAX} + 1};
  for (int64_t c : constants) {
    MachineFunction mf("constant");
    uint32_t b = mf.NewBlock();
    uint32_t v = mf.NewVReg();
    mf.Append(b, mi::MovImm(Op::VReg(v), c));
    ReturnVReg(mf, b, v);
    CompiledCode code = Compile(mf);
    ASSERT_NE(code.entry(), nullptr);
    EXPECT_EQ(Call1(code, {}), c) << std::hex << c << "\n" << Listing(code);
  }
}

TEST_P(BackendTest, LoadsAndStoresAtAnyDisplacement) {
  static int64_t memory[12000];
  for (int32_t disp : {0, 8, -8, 3, -256, 32760, 32768, 40000, -40000, 255, -257}) {
    MachineFunction mf("memory");
    uint32_t b = mf.NewBlock();
    auto a = TakeArgs(mf, b, 2);  // base, value
    uint32_t v = mf.NewVReg();
    mf.Append(b, mi::Store(Op::VReg(a[0]), disp, Op::VReg(a[1])));
    mf.Append(b, mi::Load(Op::VReg(v), Op::VReg(a[0]), disp));
    ReturnVReg(mf, b, v);
    for (bool spill : {false, true}) {
      MachineFunction copy = mf;
      CompileOptions options;
      options.allocation.spill_everything = spill;
      CompiledCode code = Compile(copy, options);
      ASSERT_NE(code.entry(), nullptr);
      uint8_t* base = reinterpret_cast<uint8_t*>(memory) + 48000;
      std::fill(std::begin(memory), std::end(memory), 0);
      const int64_t value = 0x1122334455667788 + disp;
      EXPECT_EQ(Call1(code, {reinterpret_cast<int64_t>(base), value}), value) << disp;
      int64_t stored;
      std::memcpy(&stored, base + disp, 8);
      EXPECT_EQ(stored, value) << disp;
    }
  }
}

// ------------------------------------------------------------------ calls

int64_t RuntimeCombine(int64_t a, int64_t b) { return a * 1000 + b; }

// f(x, y) keeps `n` values live across a call of `callee(x, y)` (or of the
// compiled function at address y), then sums them with the call's result.
MachineFunction LiveAcrossCall(const RegisterInfo& ri, const char* name, int n,
                               const void* callee) {
  MachineFunction mf(name);
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), y = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(ri.argument_regs[0])));
  mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(ri.argument_regs[1])));
  std::vector<uint32_t> keep;
  for (int k = 0; k < n; ++k) {
    keep.push_back(mf.NewVReg());
    mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(keep.back()), Op::VReg(x), Op::Imm(k * 3)));
  }
  const Op a0 = Op::Phys(ri.argument_regs[0]), a1 = Op::Phys(ri.argument_regs[1]);
  const Op r0 = Op::Phys(ri.return_regs[0]);
  mf.Append(b, mi::Mov(a0, Op::VReg(x)));
  mf.Append(b, mi::Mov(a1, Op::VReg(y)));
  if (callee == nullptr) {
    mf.Append(b, MachineInst{MOp::kCallIndirect, Cond::kEq, {r0}, {Op::VReg(y), a0, a1}});
  } else {
    mf.Append(b, mi::Call(callee, {a0, a1}, {r0}, ri.caller_saved));
  }
  uint32_t r = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(r), r0));
  for (uint32_t k : keep) mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(r), Op::VReg(r), Op::VReg(k)));
  mf.Append(b, mi::Mov(r0, Op::VReg(r)));
  mf.Append(b, mi::Ret({r0}));
  return mf;
}

// C++ called from compiled code, and compiled code calling compiled code
// whose callee writes every callee-saved register: more values live across
// each call than there are callee-saved registers, so the callers keep some
// in callee-saved registers and spill the rest. A callee that failed to
// restore a register would change its caller's sum (and the emulator
// checks the outermost activation's callee-saved registers on return).
TEST_P(BackendTest, CallsKeepValuesLiveAcrossThem) {
  ASSERT_TRUE(h_.AllowHostCall(reinterpret_cast<const void*>(&RuntimeCombine)).ok());
  const int live = static_cast<int>(CalleeSavedAllocatable()) + 2;
  MachineFunction inner_mf =
      LiveAcrossCall(ri(), "inner", live, reinterpret_cast<const void*>(&RuntimeCombine));
  CompiledCode inner = Compile(inner_mf);
  ASSERT_NE(inner.entry(), nullptr);
  ASSERT_EQ(inner.metadata.call_sites.size(), 1u);
  // The inner frame uses (so saves) every callee-saved register.
  EXPECT_EQ(inner.metadata.saved_registers.size(), CalleeSavedAllocatable());
  MachineFunction outer_mf = LiveAcrossCall(ri(), "outer", live, nullptr);
  CompiledCode outer = Compile(outer_mf);
  ASSERT_NE(outer.entry(), nullptr);
  const int64_t kept = 3 * (live - 1) * live / 2;  // sum of k * 3
  for (int64_t x : {int64_t{5}, int64_t{-40}}) {
    EXPECT_EQ(Call1(inner, {x, 7}), x * 1000 + 7 + live * x + kept);
    const int64_t addr = reinterpret_cast<int64_t>(inner.entry());
    EXPECT_EQ(Call1(outer, {x, addr}), x * 1000 + addr + 2 * (live * x + kept));
  }
}

// More values live at once than allocatable registers.
TEST_P(BackendTest, SpillsWhenMoreValuesAreLiveThanRegisters) {
  const int n = static_cast<int>(ri().allocatable[0].size()) + 15;
  MachineFunction mf("many");
  uint32_t b = mf.NewBlock();
  auto a = TakeArgs(mf, b, 1);
  std::vector<uint32_t> vs;
  for (int i = 0; i < n; ++i) {
    vs.push_back(mf.NewVReg());
    const Op k = ImmOrReg(mf, b, MOp::kMul, i + 1);
    mf.Append(b, mi::Binary(MOp::kMul, Op::VReg(vs.back()), Op::VReg(a[0]), k));
  }
  uint32_t sum = mf.NewVReg();
  mf.Append(b, mi::MovImm(Op::VReg(sum), 0));
  for (auto it = vs.rbegin(); it != vs.rend(); ++it) {
    mf.Append(b, mi::Binary(MOp::kSub, Op::VReg(sum), Op::VReg(*it), Op::VReg(sum)));
  }
  ReturnVReg(mf, b, sum);
  mf.ComputeSuccessors();
  auto alloc = AllocateRegisters(mf, ri());
  ASSERT_TRUE(alloc.ok()) << alloc.status();
  EXPECT_GE(alloc->num_spilled, 15u);
  ASSERT_TRUE(VerifyAllocation(mf, ri()).ok());
  CompiledCode code = Compile(mf);
  ASSERT_NE(code.entry(), nullptr);
  auto expected = [n](int64_t x) {
    int64_t s = 0;
    for (int i = n - 1; i >= 0; --i) s = x * (i + 1) - s;
    return s;
  };
  EXPECT_EQ(Call1(code, {7}), expected(7));
  EXPECT_EQ(Call1(code, {-3}), expected(-3));
  EXPECT_GE(code.metadata.frame_size, 16u + 8 * 15);
  EXPECT_EQ(code.metadata.frame_size % 16, 0u);
}

// ------------------------------------------------------------ stack check

int overflow_calls = 0;
ValuePair OnStackOverflow(uint64_t arg0, uint64_t arg1) {
  ++overflow_calls;
  return {0xdead0000 + arg0, arg1};  // sees the function's own arguments
}

// f(x, y) = (x, y), with a stack check.
MachineFunction Identity(const RegisterInfo& ri) {
  MachineFunction mf("checked");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), y = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(ri.argument_regs[0])));
  mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(ri.argument_regs[1])));
  mf.Append(b, mi::Mov(Op::Phys(ri.return_regs[0]), Op::VReg(x)));
  mf.Append(b, mi::Mov(Op::Phys(ri.return_regs[1]), Op::VReg(y)));
  mf.Append(b, mi::Ret({Op::Phys(ri.return_regs[0]), Op::Phys(ri.return_regs[1])}));
  return mf;
}

TEST_P(BackendTest, StackCheckAgainstAnAbsoluteLimit) {
  static uint64_t limit = 0;
  ASSERT_TRUE(h_.AllowHostCall(reinterpret_cast<const void*>(&OnStackOverflow)).ok());
  MachineFunction mf = Identity(ri());
  CompileOptions options;
  options.stack_limit.kind = StackLimit::Kind::kAbsolute;
  options.stack_limit.address = &limit;
  options.stack_overflow_handler = reinterpret_cast<const void*>(&OnStackOverflow);
  CompiledCode code = Compile(mf, options);
  ASSERT_NE(code.entry(), nullptr);
  overflow_calls = 0;
  limit = 0;  // everything is above the limit
  EXPECT_EQ(Call(code, {1, 2}).first, 1u);
  EXPECT_EQ(overflow_calls, 0);
  limit = UINT64_MAX;  // everything is below it
  ValuePair over = Call(code, {5, 6});
  EXPECT_EQ(overflow_calls, 1);
  EXPECT_EQ(over.first, 0xdead0005u);
  EXPECT_EQ(over.second, 6u);
}

thread_local uint64_t thread_stack_limit;

TEST_P(BackendTest, StackCheckAgainstAThreadLocalLimit) {
  if (h_.runner().ThreadPointer() == 0) GTEST_SKIP() << "no thread pointer";
  ASSERT_TRUE(h_.AllowHostCall(reinterpret_cast<const void*>(&OnStackOverflow)).ok());
  MachineFunction mf = Identity(ri());
  CompileOptions options;
  options.stack_limit.kind = StackLimit::Kind::kThreadLocal;
  options.stack_limit.offset = static_cast<int32_t>(h_.ThreadPointerOffset(&thread_stack_limit));
  options.stack_overflow_handler = reinterpret_cast<const void*>(&OnStackOverflow);
  CompiledCode code = Compile(mf, options);
  ASSERT_NE(code.entry(), nullptr);
  overflow_calls = 0;
  thread_stack_limit = 0;
  EXPECT_EQ(Call(code, {1, 2}).first, 1u);
  thread_stack_limit = UINT64_MAX;
  EXPECT_EQ(Call(code, {5, 6}).first, 0xdead0005u);
  EXPECT_EQ(overflow_calls, 1);
  uint64_t other = 0;  // another thread has its own limit
  std::thread([&] {
    thread_stack_limit = 0;
    auto r = h_.runner().Call(code.entry(), std::vector<int64_t>{3, 4});
    other = r.ok() ? r->first : 0xbad;
  }).join();
  EXPECT_EQ(other, 3u);
}

int64_t DeepOverflow(uint64_t, uint64_t) {
  ++overflow_calls;
  return -1000000;
}

// f(ctx, n): ctx[0] = f's own address, ctx[1] = stack limit;
// returns n == 0 ? 0 : 1 + f(ctx, n - 1). The overflow handler returns
// -1000000.
TEST_P(BackendTest, RecursionHitsAStackLimitReadFromAContextArgument) {
  ASSERT_TRUE(h_.AllowHostCall(reinterpret_cast<const void*>(&DeepOverflow)).ok());
  MachineFunction mf("recurse");
  uint32_t entry = mf.NewBlock(), rec = mf.NewBlock(), base = mf.NewBlock();
  auto a = TakeArgs(mf, entry, 2);
  mf.Append(entry, mi::Branch(Cond::kEq, Op::VReg(a[1]), Op::Imm(0), base, rec));
  uint32_t target = mf.NewVReg(), n1 = mf.NewVReg(), r = mf.NewVReg();
  mf.Append(rec, mi::Load(Op::VReg(target), Op::VReg(a[0]), 0));
  mf.Append(rec, mi::Binary(MOp::kSub, Op::VReg(n1), Op::VReg(a[1]), Op::Imm(1)));
  mf.Append(rec, mi::Mov(Arg(0), Op::VReg(a[0])));
  mf.Append(rec, mi::Mov(Arg(1), Op::VReg(n1)));
  mf.Append(rec, MachineInst{MOp::kCallIndirect, Cond::kEq, {Result(0)},
                             {Op::VReg(target), Arg(0), Arg(1)}});
  mf.Append(rec, mi::Mov(Op::VReg(r), Result(0)));
  mf.Append(rec, mi::Binary(MOp::kAdd, Op::VReg(r), Op::VReg(r), Op::Imm(1)));
  ReturnVReg(mf, rec, r);
  uint32_t zero = mf.NewVReg();
  mf.Append(base, mi::MovImm(Op::VReg(zero), 0));
  ReturnVReg(mf, base, zero);
  CompileOptions options;
  options.stack_limit = {StackLimit::Kind::kArgument, nullptr, 0, 8};
  options.stack_overflow_handler = reinterpret_cast<const void*>(&DeepOverflow);
  CompiledCode code = Compile(mf, options);
  ASSERT_NE(code.entry(), nullptr);
  // Where compiled code's stack is (the real one, or the emulator's): a
  // function returning its outgoing-area address.
  MachineFunction sp_mf("sp");
  uint32_t b = sp_mf.NewBlock();
  uint32_t v = sp_mf.NewVReg();
  sp_mf.Append(b, mi::OutgoingArea(Op::VReg(v)));
  ReturnVReg(sp_mf, b, v);
  CompiledCode sp_code = Compile(sp_mf);
  const uint64_t here = static_cast<uint64_t>(Call1(sp_code, {}));
  ASSERT_NE(here, 0u);
  uint64_t ctx[2] = {reinterpret_cast<uint64_t>(code.entry()), here - 64 * 1024};
  overflow_calls = 0;
  EXPECT_EQ(Call1(code, {reinterpret_cast<int64_t>(ctx), 100}), 100);  // 100 frames fit
  EXPECT_EQ(overflow_calls, 0);
  const int64_t deep = Call1(code, {reinterpret_cast<int64_t>(ctx), 1000000});
  EXPECT_EQ(overflow_calls, 1);
  const int64_t frames = deep + 1000000;  // the handler's result plus one per frame
  EXPECT_GT(frames, 100);
  EXPECT_LT(frames, 64 * 1024 / 16);
}

// ------------------------------------------------------------ deopt exits

// What the deopt handler saw.
struct Seen {
  int calls = 0;
  uint64_t id = 0;
  std::vector<uint64_t> values;
  const void* return_pc = nullptr;
};
Seen seen;
const CodeMetadata* current_metadata = nullptr;

ValuePair TestDeoptHandler(uint64_t id, uint64_t* regs, uint8_t* frame, const void* return_pc) {
  ++seen.calls;
  seen.id = id;
  seen.return_pc = return_pc;
  seen.values.clear();
  const DeoptPoint* p = current_metadata->FindDeopt(static_cast<uint32_t>(id));
  if (p == nullptr) return {0, 0};
  uint64_t sum = 0;
  for (const ValueLocation& loc : p->values) {
    seen.values.push_back(ReadDeoptValue(loc, regs, frame));
    sum += seen.values.back();
  }
  return {sum, 77};  // "the interpreter finished the activation"
}

class DeoptExitTest : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    ASSERT_TRUE(h_.AllowHostCall(reinterpret_cast<const void*>(&TestDeoptHandler)).ok());
    auto entry = h_.backend().CreateDeoptEntry(&TestDeoptHandler, h_.cache());
    ASSERT_TRUE(entry.ok()) << entry.status();
    options_.deopt_entry = *entry;
    seen = Seen();
  }
  ValuePair Run(const CompiledCode& code, std::vector<int64_t> args) {
    current_metadata = &code.metadata;
    return Call(code, std::move(args));
  }
  CompileOptions options_;
};

// f(x, y): a = x + 1; b = y * 3; many values; deopt #7 if a > 100 with
// state [a, b, 42, v...] (more values than registers); an overflow-checked
// sum deopts with #8.
TEST_P(DeoptExitTest, GuardFailureReportsRegisterAndStackValues) {
  const int many_count = static_cast<int>(ri().allocatable[0].size()) + 5;
  MachineFunction mf("guarded");
  uint32_t b0 = mf.NewBlock();
  auto args = TakeArgs(mf, b0, 2);
  uint32_t x = args[0], y = args[1], a = mf.NewVReg(), b = mf.NewVReg();
  mf.Append(b0, mi::Binary(MOp::kAdd, Op::VReg(a), Op::VReg(x), Op::Imm(1)));
  mf.Append(b0, mi::Binary(MOp::kMul, Op::VReg(b), Op::VReg(y), ImmOrReg(mf, b0, MOp::kMul, 3)));
  std::vector<uint32_t> many;
  for (int i = 0; i < many_count; ++i) {
    many.push_back(mf.NewVReg());
    mf.Append(b0, mi::Binary(MOp::kAdd, Op::VReg(many.back()), Op::VReg(x), Op::Imm(i)));
  }
  DeoptState st;
  st.id = 7;
  st.values = {Op::VReg(a), Op::VReg(b), Op::Imm(42)};
  for (uint32_t v : many) st.values.push_back(Op::VReg(v));
  int32_t s7 = static_cast<int32_t>(mf.AddDeoptState(st));
  mf.Append(b0, mi::DeoptIf(Cond::kGt, Op::VReg(a), Op::Imm(100), s7));
  DeoptState st8;
  st8.id = 8;
  st8.values = {Op::VReg(a), Op::VReg(b)};
  int32_t s8 = static_cast<int32_t>(mf.AddDeoptState(st8));
  uint32_t sum = mf.NewVReg();
  auto& add = mf.Append(b0, mi::Binary(MOp::kAddOvf, Op::VReg(sum), Op::VReg(a), Op::VReg(b)));
  add.deopt = s8;
  for (uint32_t v : many) mf.Append(b0, mi::Binary(MOp::kAdd, Op::VReg(sum), Op::VReg(sum), Op::VReg(v)));
  mf.Append(b0, mi::Mov(Result(0), Op::VReg(sum)));
  mf.Append(b0, mi::MovImm(Result(1), 1));
  mf.Append(b0, mi::Ret({Result(0), Result(1)}));
  CompiledCode code = Compile(mf, options_);
  ASSERT_NE(code.entry(), nullptr);

  ValuePair fast = Run(code, {1, 2});  // no exit
  EXPECT_EQ(seen.calls, 0);
  int64_t want = 2 + 6;
  for (int i = 0; i < many_count; ++i) want += 1 + i;
  EXPECT_EQ(static_cast<int64_t>(fast.first), want);
  EXPECT_EQ(fast.second, 1u);

  ValuePair slow = Run(code, {200, 5});  // guard #7 fails: a = 201
  ASSERT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.id, 7u);
  std::vector<uint64_t> expect = {201, 15, 42};
  for (int i = 0; i < many_count; ++i) expect.push_back(200 + i);
  EXPECT_EQ(seen.values, expect);
  uint64_t expect_sum = 0;
  for (uint64_t v : expect) expect_sum += v;
  EXPECT_EQ(slow.first, expect_sum);
  EXPECT_EQ(slow.second, 77u);
  // The return pc lies in the function; the metadata points inside the code.
  auto region = h_.cache().Lookup(seen.return_pc);
  ASSERT_TRUE(region.ok());
  EXPECT_EQ(region->start, code.region.start);
  const DeoptPoint* p7 = code.metadata.FindDeopt(7);
  ASSERT_NE(p7, nullptr);
  EXPECT_LT(p7->pc_offset, p7->exit_offset);
  EXPECT_LT(p7->exit_offset, code.metadata.code_size);
  bool any_register = false, any_slot = false;
  for (const auto& loc : p7->values) {
    any_register |= loc.kind == ValueLocation::Kind::kRegister;
    any_slot |= loc.kind == ValueLocation::Kind::kFrameSlot;
  }
  EXPECT_TRUE(any_register);
  EXPECT_TRUE(any_slot);

  ValuePair ovf = Run(code, {50, INT64_MAX / 3});  // #8: a + b overflows
  ASSERT_EQ(seen.calls, 2);
  EXPECT_EQ(seen.id, 8u);
  EXPECT_EQ(seen.values, (std::vector<uint64_t>{51, static_cast<uint64_t>(INT64_MAX / 3 * 3)}));
  EXPECT_EQ(ovf.second, 77u);
  auto decoded = DecodeDeoptPoints(EncodeDeoptPoints(code.metadata.deopt_points));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, code.metadata.deopt_points);
}

// mul.ovf and sub.ovf leave through their exit exactly when the operation
// overflows int64.
TEST_P(DeoptExitTest, MultiplyAndSubtractOverflow) {
  for (MOp op : {MOp::kMulOvf, MOp::kSubOvf}) {
    MachineFunction mf("ovf");
    uint32_t b0 = mf.NewBlock();
    auto args = TakeArgs(mf, b0, 2);
    uint32_t d = mf.NewVReg();
    DeoptState st;
    st.id = 1;
    st.values = {Op::VReg(args[0]), Op::VReg(args[1])};
    auto& inst = mf.Append(b0, mi::Binary(op, Op::VReg(d), Op::VReg(args[0]), Op::VReg(args[1])));
    inst.deopt = static_cast<int32_t>(mf.AddDeoptState(st));
    mf.Append(b0, mi::Mov(Result(0), Op::VReg(d)));
    mf.Append(b0, mi::MovImm(Result(1), 1));
    mf.Append(b0, mi::Ret({Result(0), Result(1)}));
    CompiledCode code = Compile(mf, options_);
    ASSERT_NE(code.entry(), nullptr);
    const bool mul = op == MOp::kMulOvf;
    const std::pair<int64_t, int64_t> cases[] = {
        {3, 4}, {-3, 4}, {INT64_MAX, 1}, {INT64_MIN, 1}, {INT64_MIN, -1},
        {int64_t{1} << 32, int64_t{1} << 31}, {int64_t{1} << 32, int64_t{1} << 30},
        {-(int64_t{1} << 32), int64_t{1} << 31}, {INT64_MAX, -1},
        {int64_t{3037000500}, int64_t{3037000500}}};
    for (auto [x, y] : cases) {
      int64_t r;
      const bool overflows = mul ? __builtin_mul_overflow(x, y, &r) : __builtin_sub_overflow(x, y, &r);
      seen = Seen();
      ValuePair got = Run(code, {x, y});
      if (overflows) {
        EXPECT_EQ(seen.calls, 1) << MOpName(op) << " " << x << " " << y;
        EXPECT_EQ(got.second, 77u);
        EXPECT_EQ(seen.values,
                  (std::vector<uint64_t>{static_cast<uint64_t>(x), static_cast<uint64_t>(y)}));
      } else {
        EXPECT_EQ(seen.calls, 0) << MOpName(op) << " " << x << " " << y;
        EXPECT_EQ(static_cast<int64_t>(got.first), r);
        EXPECT_EQ(got.second, 1u);
      }
    }
  }
}

TEST_P(DeoptExitTest, UnconditionalDeoptAndMissingEntryIsAnError) {
  MachineFunction mf("always");
  uint32_t b0 = mf.NewBlock();
  DeoptState st;
  st.id = 3;
  st.values = {Arg(0), Op::Imm(-1)};
  mf.Append(b0, mi::Deopt(static_cast<int32_t>(mf.AddDeoptState(st))));
  mf.ComputeSuccessors();
  CodeCache cache;
  MachineFunction copy = mf;
  EXPECT_FALSE(h_.backend().Compile(copy, CompileOptions(), cache).ok());
  CompiledCode code = Compile(mf, options_);
  ASSERT_NE(code.entry(), nullptr);
  ValuePair r = Run(code, {10});
  EXPECT_EQ(seen.id, 3u);
  EXPECT_EQ(seen.values, (std::vector<uint64_t>{10, static_cast<uint64_t>(-1)}));
  EXPECT_EQ(r.first, 9u);
}

INSTANTIATE_TEST_SUITE_P(Backends, BackendTest, ::testing::ValuesIn(testing::RunnableBackends()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, DeoptExitTest, ::testing::ValuesIn(testing::RunnableBackends()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BackendTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DeoptExitTest);

}  // namespace
}  // namespace morel::codegen
