#include "engine/codegen/register_allocator.h"

#include <random>
#include <string>
#include <vector>

#include "engine/codegen/allocation_verifier.h"
#include "engine/codegen/liveness.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/testing/mir_interpreter.h"
#include "engine/codegen/testing/toy_target.h"
#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

using Op = MachineOperand;
using testing::RunMir;
using testing::ToyRegisterInfo;

// Allocates `mf`, verifies the allocation both ways, and checks that the
// allocated function computes what the original did.
void AllocateAndCheck(MachineFunction& mf, const RegisterInfo& ri,
                      const std::vector<uint64_t>& args, AllocationResult* out = nullptr,
                      AllocationOptions options = {}) {
  mf.ComputeSuccessors();
  auto before = RunMir(mf, ri, args);
  ASSERT_TRUE(before.ok()) << before.status();
  auto result = AllocateRegisters(mf, ri, options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(VerifyAllocation(mf, ri).ok()) << VerifyAllocation(mf, ri) << mf.Dump(&ri.names);
  ASSERT_TRUE(VerifyIntervals(*result).ok()) << VerifyIntervals(*result);
  auto after = RunMir(mf, ri, args);
  ASSERT_TRUE(after.ok()) << after.status() << mf.Dump(&ri.names);
  EXPECT_EQ(before->returned, after->returned) << mf.Dump(&ri.names);
  EXPECT_EQ(before->deopt_id, after->deopt_id);
  EXPECT_EQ(before->deopt_values, after->deopt_values);
  if (out != nullptr) *out = *result;
}

// v = arg0 + arg1, returned in r0.
MachineFunction AddArgs() {
  MachineFunction mf("add");
  uint32_t b = mf.NewBlock();
  uint32_t a = mf.NewVReg(), c = mf.NewVReg(), s = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(a), Op::Phys(4)));
  mf.Append(b, mi::Mov(Op::VReg(c), Op::Phys(5)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(s), Op::VReg(a), Op::VReg(c)));
  mf.Append(b, mi::Mov(Op::Phys(0), Op::VReg(s)));
  mf.Append(b, mi::Ret({Op::Phys(0)}));
  return mf;
}

TEST(RegisterAllocatorTest, StraightLineNeedsNoSpills) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf = AddArgs();
  AllocationResult r;
  AllocateAndCheck(mf, ri, {40, 2}, &r);
  EXPECT_EQ(r.num_spilled, 0u);
  EXPECT_TRUE(mf.allocated());
  auto run = RunMir(mf, ri, {40, 2});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->returned, std::vector<uint64_t>{42});
}

// n values live at once (more than the 4 registers): v_i = arg0 * i, then
// their sum.
MachineFunction ManyLive(int n) {
  MachineFunction mf("many");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(4)));
  std::vector<uint32_t> vs;
  for (int i = 0; i < n; ++i) {
    uint32_t v = mf.NewVReg();
    mf.Append(b, mi::Binary(MOp::kMul, Op::VReg(v), Op::VReg(x), Op::Imm(i + 1)));
    vs.push_back(v);
  }
  uint32_t sum = mf.NewVReg();
  mf.Append(b, mi::MovImm(Op::VReg(sum), 0));
  for (uint32_t v : vs) mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(sum), Op::VReg(sum), Op::VReg(v)));
  mf.Append(b, mi::Mov(Op::Phys(0), Op::VReg(sum)));
  mf.Append(b, mi::Ret({Op::Phys(0)}));
  return mf;
}

TEST(RegisterAllocatorTest, MoreLiveValuesThanRegistersSpill) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf = ManyLive(10);
  AllocationResult r;
  AllocateAndCheck(mf, ri, {3}, &r);
  EXPECT_GE(r.num_spilled, 6u);
  EXPECT_GT(r.reloads, 0u);
  EXPECT_GT(r.stores, 0u);
  auto run = RunMir(mf, ri, {3});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->returned, std::vector<uint64_t>{3 * 55});
  EXPECT_NE(mf.Dump(&ri.names).find("reload"), std::string::npos);
}

TEST(RegisterAllocatorTest, SpillEverythingStillComputes) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf = ManyLive(5);
  AllocationResult r;
  AllocationOptions options;
  options.spill_everything = true;
  AllocateAndCheck(mf, ri, {7}, &r, options);
  EXPECT_EQ(r.num_spilled, r.intervals.size());
}

// sum = 0; i = 1; extra loop-carried values k0..k5 (k_j += j each round);
// while (i <= n) { sum += i; i += 1; ... }  return sum + sum(k).
MachineFunction LoopWithPressure(int extra) {
  MachineFunction mf("loop");
  uint32_t entry = mf.NewBlock(), header = mf.NewBlock(), body = mf.NewBlock(),
           exit = mf.NewBlock();
  uint32_t n = mf.NewVReg(), sum = mf.NewVReg(), i = mf.NewVReg();
  mf.Append(entry, mi::Mov(Op::VReg(n), Op::Phys(4)));
  mf.Append(entry, mi::MovImm(Op::VReg(sum), 0));
  mf.Append(entry, mi::MovImm(Op::VReg(i), 1));
  std::vector<uint32_t> ks;
  for (int j = 0; j < extra; ++j) {
    ks.push_back(mf.NewVReg());
    mf.Append(entry, mi::MovImm(Op::VReg(ks.back()), j));
  }
  mf.Append(entry, mi::Jump(header));
  mf.Append(header, mi::Branch(Cond::kLe, Op::VReg(i), Op::VReg(n), body, exit));
  mf.Append(body, mi::Binary(MOp::kAdd, Op::VReg(sum), Op::VReg(sum), Op::VReg(i)));
  mf.Append(body, mi::Binary(MOp::kAdd, Op::VReg(i), Op::VReg(i), Op::Imm(1)));
  for (int j = 0; j < extra; ++j) {
    mf.Append(body, mi::Binary(MOp::kAdd, Op::VReg(ks[j]), Op::VReg(ks[j]), Op::Imm(j)));
  }
  mf.Append(body, mi::Jump(header));
  for (uint32_t k : ks) mf.Append(exit, mi::Binary(MOp::kAdd, Op::VReg(sum), Op::VReg(sum), Op::VReg(k)));
  mf.Append(exit, mi::Mov(Op::Phys(0), Op::VReg(sum)));
  mf.Append(exit, mi::Ret({Op::Phys(0)}));
  return mf;
}

TEST(RegisterAllocatorTest, LoopCarriedValuesSurviveTheBackEdge) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf = LoopWithPressure(0);
  AllocationResult r;
  AllocateAndCheck(mf, ri, {100}, &r);
  EXPECT_EQ(r.num_spilled, 0u);
  auto run = RunMir(mf, ri, {100});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->returned, std::vector<uint64_t>{5050});
}

TEST(RegisterAllocatorTest, LoopUnderPressureSpills) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf = LoopWithPressure(5);
  AllocationResult r;
  AllocateAndCheck(mf, ri, {10}, &r);
  EXPECT_GT(r.num_spilled, 0u);
  // k_j = j + 10 * j after 10 rounds: sum_j 11 j = 11 * 10.
  auto run = RunMir(mf, ri, {10});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->returned, std::vector<uint64_t>{55 + 110});
}

// A frame-base-like value `base` used `hot_uses` times per round of a loop
// and last read after the loop, next to `cold` values defined before the
// loop and read once after it (before `base`), so `base` ends last. With
// `call` != nullptr the loop body also calls it (clobbering the caller-saved
// registers). Returns acc + sum(cold) + base, where acc += base each use.
struct HotLoop {
  MachineFunction mf{"hot"};
  uint32_t base = 0, acc = 0, i = 0, n = 0, body = 0;
  std::vector<uint32_t> cold;
};

HotLoop HotLoopWithColdValues(int hot_uses, int cold, const void* call = nullptr) {
  HotLoop h;
  MachineFunction& mf = h.mf;
  uint32_t entry = mf.NewBlock(), header = mf.NewBlock(), body = mf.NewBlock(),
           exit = mf.NewBlock();
  h.body = body;
  h.n = mf.NewVReg();
  h.base = mf.NewVReg();
  h.acc = mf.NewVReg();
  h.i = mf.NewVReg();
  mf.Append(entry, mi::Mov(Op::VReg(h.n), Op::Phys(4)));
  mf.Append(entry, mi::Mov(Op::VReg(h.base), Op::Phys(5)));
  for (int j = 0; j < cold; ++j) {
    h.cold.push_back(mf.NewVReg());
    mf.Append(entry, mi::MovImm(Op::VReg(h.cold.back()), 100 * (j + 1)));
  }
  mf.Append(entry, mi::MovImm(Op::VReg(h.acc), 0));
  mf.Append(entry, mi::MovImm(Op::VReg(h.i), 0));
  mf.Append(entry, mi::Jump(header));
  mf.Append(header, mi::Branch(Cond::kLt, Op::VReg(h.i), Op::VReg(h.n), body, exit));
  for (int k = 0; k < hot_uses; ++k) {
    mf.Append(body, mi::Binary(MOp::kAdd, Op::VReg(h.acc), Op::VReg(h.acc), Op::VReg(h.base)));
  }
  if (call != nullptr) {
    uint32_t r = mf.NewVReg();
    mf.Append(body, mi::Mov(Op::Phys(4), Op::VReg(h.i)));
    mf.Append(body, mi::Call(call, {Op::Phys(4)}, {Op::Phys(0)}, 0));
    mf.Append(body, mi::Mov(Op::VReg(r), Op::Phys(0)));
    mf.Append(body, mi::Binary(MOp::kSub, Op::VReg(h.acc), Op::VReg(h.acc), Op::VReg(r)));
  }
  mf.Append(body, mi::Binary(MOp::kAdd, Op::VReg(h.i), Op::VReg(h.i), Op::Imm(1)));
  mf.Append(body, mi::Jump(header));
  for (uint32_t c : h.cold) {
    mf.Append(exit, mi::Binary(MOp::kAdd, Op::VReg(h.acc), Op::VReg(h.acc), Op::VReg(c)));
  }
  mf.Append(exit, mi::Binary(MOp::kAdd, Op::VReg(h.acc), Op::VReg(h.acc), Op::VReg(h.base)));
  mf.Append(exit, mi::Mov(Op::Phys(0), Op::VReg(h.acc)));
  mf.Append(exit, mi::Ret({Op::Phys(0)}));
  return h;
}

PReg AssignedRegister(const AllocationResult& r, uint32_t vreg) {
  for (const LiveInterval& it : r.intervals) {
    if (it.vreg == vreg) return it.preg;
  }
  return kNoPReg;
}

int ReloadsAndStoresIn(const MachineBlock& b) {
  int n = 0;
  for (const MachineInst& inst : b.insts) {
    n += inst.op == MOp::kReload || inst.op == MOp::kSpill ? 1 : 0;
  }
  return n;
}

TEST(RegisterAllocatorTest, HotLoopValuesKeepRegistersAndColdOnesSpill) {
  RegisterInfo ri = ToyRegisterInfo();
  // base, acc, i, n and three cold values live across the loop: 7 values,
  // 4 registers. "Spill the one that ends last" spilled base (and acc).
  HotLoop h = HotLoopWithColdValues(/*hot_uses=*/6, /*cold=*/3);
  AllocationResult r;
  AllocateAndCheck(h.mf, ri, {5, 7}, &r);
  for (uint32_t v : {h.base, h.acc, h.i, h.n}) {
    EXPECT_NE(AssignedRegister(r, v), kNoPReg) << "v" << v << h.mf.Dump(&ri.names);
  }
  for (uint32_t c : h.cold) EXPECT_EQ(AssignedRegister(r, c), kNoPReg) << "v" << c;
  EXPECT_EQ(r.num_spilled, 3u);
  EXPECT_EQ(ReloadsAndStoresIn(h.mf.block(h.body)), 0) << h.mf.Dump(&ri.names);
  auto run = RunMir(h.mf, ri, {5, 7});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->returned, std::vector<uint64_t>{5 * 6 * 7 + 100 + 200 + 300 + 7});
}

uint64_t Double(uint64_t x, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t) { return 2 * x; }

TEST(RegisterAllocatorTest, HotValuesAcrossACallTakeTheCalleeSavedRegisters) {
  RegisterInfo ri = ToyRegisterInfo();
  // Everything live across the loop is live across the call: only the two
  // callee-saved registers qualify, and the hottest values, base and acc,
  // get them (i and n are read twice and once per round: they spill).
  HotLoop h = HotLoopWithColdValues(/*hot_uses=*/6, /*cold=*/2,
                                    reinterpret_cast<const void*>(&Double));
  AllocationResult r;
  AllocateAndCheck(h.mf, ri, {6, 3}, &r);
  for (uint32_t v : {h.base, h.acc}) {
    PReg p = AssignedRegister(r, v);
    EXPECT_TRUE(p != kNoPReg && ri.IsCalleeSaved(p)) << "v" << v << h.mf.Dump(&ri.names);
  }
  for (uint32_t c : h.cold) EXPECT_EQ(AssignedRegister(r, c), kNoPReg) << "v" << c;
  // acc = sum over i < 6 of (6 * 3 - 2 i) + 100 + 200 + 3.
  auto run = RunMir(h.mf, ri, {6, 3});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->returned, std::vector<uint64_t>{6 * 18 - 30 + 300 + 3});
}

TEST(RegisterAllocatorTest, SpillWeightsCountLoopDepth) {
  RegisterInfo ri = ToyRegisterInfo();
  HotLoop h = HotLoopWithColdValues(/*hot_uses=*/2, /*cold=*/1);
  AllocationResult r;
  AllocateAndCheck(h.mf, ri, {3, 1}, &r);
  double base = 0, cold = 0;
  for (const LiveInterval& it : r.intervals) {
    if (it.vreg == h.base) base = it.weight;
    if (it.vreg == h.cold[0]) cold = it.weight;
  }
  // base: a def and a use at depth 0, two uses at depth 1; the cold value
  // a def and a use at depth 0 over a slightly shorter interval.
  EXPECT_GT(base, 5 * cold);
  EXPECT_GT(cold, 0);
}

TEST(LoopDepthTest, NestedLoopsAndOsrEntries) {
  // b0 -> b1; b1 -> b2 | b5; b2 -> b3; b3 -> b3 | b4 (inner loop, also an
  // OSR entry); b4 -> b1 (outer loop); b5 ret; b6 (OSR entry only) -> b7;
  // b7 -> b7 | b5; b8 (unreachable) -> b1.
  MachineFunction mf("nest");
  for (int k = 0; k < 9; ++k) mf.NewBlock();
  uint32_t x = mf.NewVReg();
  mf.Append(0, mi::Mov(Op::VReg(x), Op::Phys(4)));
  mf.Append(0, mi::Jump(1));
  mf.Append(1, mi::Branch(Cond::kLt, Op::VReg(x), Op::Imm(3), 2, 5));
  mf.Append(2, mi::Jump(3));
  mf.Append(3, mi::Branch(Cond::kLt, Op::VReg(x), Op::Imm(3), 3, 4));
  mf.block(3).osr_entry = 0;
  mf.Append(4, mi::Jump(1));
  mf.Append(5, mi::Ret({}));
  mf.Append(6, mi::Jump(7));
  mf.block(6).osr_entry = 1;
  mf.Append(7, mi::Branch(Cond::kLt, Op::VReg(x), Op::Imm(3), 7, 5));
  mf.Append(8, mi::Jump(1));
  mf.ComputeSuccessors();
  EXPECT_EQ(ComputeLoopDepths(mf), (std::vector<int>{0, 1, 1, 2, 1, 0, 0, 1, 0}));
}

uint64_t Triple(uint64_t x, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t) { return 3 * x; }

TEST(RegisterAllocatorTest, ValuesLiveAcrossCallsAvoidCallerSavedRegisters) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf("call");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), y = mf.NewVReg(), z = mf.NewVReg(), w = mf.NewVReg(),
           r = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(4)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(y), Op::VReg(x), Op::Imm(1)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(z), Op::VReg(x), Op::Imm(2)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(w), Op::VReg(x), Op::Imm(3)));
  mf.Append(b, mi::Mov(Op::Phys(4), Op::VReg(x)));
  mf.Append(b, mi::Call(reinterpret_cast<const void*>(&Triple), {Op::Phys(4)}, {Op::Phys(0)}, 0));
  mf.Append(b, mi::Mov(Op::VReg(r), Op::Phys(0)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(r), Op::VReg(r), Op::VReg(y)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(r), Op::VReg(r), Op::VReg(z)));
  mf.Append(b, mi::Binary(MOp::kAdd, Op::VReg(r), Op::VReg(r), Op::VReg(w)));
  mf.Append(b, mi::Mov(Op::Phys(0), Op::VReg(r)));
  mf.Append(b, mi::Ret({Op::Phys(0)}));
  AllocationResult res;
  AllocateAndCheck(mf, ri, {10}, &res);
  for (const LiveInterval& it : res.intervals) {
    if (it.vreg == y || it.vreg == z || it.vreg == w) {
      EXPECT_TRUE(it.preg == kNoPReg || ri.IsCalleeSaved(it.preg)) << "v" << it.vreg;
    }
  }
  EXPECT_GE(res.num_spilled, 1u);  // three values, two callee-saved registers
  auto run = RunMir(mf, ri, {10});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->returned, std::vector<uint64_t>{30 + 11 + 12 + 13});
}

TEST(RegisterAllocatorTest, RegisterShiftCountsMoveToTheCountRegister) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf("shift");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), c = mf.NewVReg(), d = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(4)));
  mf.Append(b, mi::Mov(Op::VReg(c), Op::Phys(5)));
  mf.Append(b, mi::Binary(MOp::kShl, Op::VReg(d), Op::VReg(x), Op::VReg(c)));
  mf.Append(b, mi::Mov(Op::Phys(0), Op::VReg(d)));
  mf.Append(b, mi::Ret({Op::Phys(0)}));
  AllocateAndCheck(mf, ri, {3, 4});
  bool found = false;
  for (const MachineInst& inst : mf.block(0).insts) {
    if (inst.op == MOp::kShl) {
      found = true;
      EXPECT_TRUE(inst.uses[1].is_preg());
      EXPECT_EQ(inst.uses[1].index, 7u);
    }
  }
  EXPECT_TRUE(found);
}

TEST(RegisterAllocatorTest, SpilledDeoptValuesStayInTheirSlots) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf = ManyLive(8);
  // Guard before the sum: deopt with every v_i in its state.
  MachineBlock& blk = mf.block(0);
  DeoptState st;
  st.id = 7;
  for (uint32_t v = 1; v <= 8; ++v) st.values.push_back(Op::VReg(v));
  st.values.push_back(Op::Imm(99));
  int32_t idx = static_cast<int32_t>(mf.AddDeoptState(st));
  blk.insts.insert(blk.insts.begin() + 9, mi::DeoptIf(Cond::kEq, Op::VReg(0), Op::Imm(5), idx));
  AllocateAndCheck(mf, ri, {5});
  auto run = RunMir(mf, ri, {5});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->deopt_id, 7);
  EXPECT_EQ(run->deopt_values,
            (std::vector<uint64_t>{5, 10, 15, 20, 25, 30, 35, 40, 99}));
  int in_slots = 0;
  for (const Op& v : mf.deopt_states()[0].values) {
    in_slots += v.kind == Op::Kind::kStackSlot ? 1 : 0;
  }
  EXPECT_GT(in_slots, 0);
}

TEST(RegisterAllocatorTest, OverflowExitStateSurvivesTheDef) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf("ovf");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), y = mf.NewVReg(), d = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(4)));
  mf.Append(b, mi::Mov(Op::VReg(y), Op::Phys(5)));
  DeoptState st;
  st.id = 1;
  st.values = {Op::VReg(x), Op::VReg(y)};
  MachineInst add = mi::Binary(MOp::kAddOvf, Op::VReg(d), Op::VReg(x), Op::VReg(y));
  add.deopt = static_cast<int32_t>(mf.AddDeoptState(st));
  mf.Append(b, add);
  mf.Append(b, mi::Mov(Op::Phys(0), Op::VReg(d)));
  mf.Append(b, mi::Ret({Op::Phys(0)}));
  AllocationResult r;
  AllocateAndCheck(mf, ri, {uint64_t{INT64_MAX}, 1}, &r);
  // Neither x nor y shares a register with d.
  PReg dreg = kNoPReg;
  for (const LiveInterval& it : r.intervals) {
    if (it.vreg == d) dreg = it.preg;
  }
  for (const LiveInterval& it : r.intervals) {
    if (it.vreg != d && dreg != kNoPReg) EXPECT_NE(it.preg, dreg) << "v" << it.vreg;
  }
  auto run = RunMir(mf, ri, {uint64_t{INT64_MAX}, 1});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->deopt_id, 1);
  EXPECT_EQ(run->deopt_values, (std::vector<uint64_t>{uint64_t{INT64_MAX}, 1}));
}

TEST(RegisterAllocatorTest, RejectsADefInsideItsOwnDeoptState) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf("selfdeopt");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::VReg(x), Op::Phys(4)));
  DeoptState st;
  st.values = {Op::VReg(x)};
  MachineInst add = mi::Binary(MOp::kAddOvf, Op::VReg(x), Op::VReg(x), Op::Imm(1));
  add.deopt = static_cast<int32_t>(mf.AddDeoptState(st));
  mf.Append(b, add);
  mf.Append(b, mi::Mov(Op::Phys(0), Op::VReg(x)));
  mf.Append(b, mi::Ret({Op::Phys(0)}));
  auto r = AllocateRegisters(mf, ri);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(RegisterAllocatorTest, RejectsUseBeforeDefinition) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf("bad");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg();
  mf.Append(b, mi::Mov(Op::Phys(0), Op::VReg(x)));
  mf.Append(b, mi::Ret({Op::Phys(0)}));
  auto r = AllocateRegisters(mf, ri);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(std::string(r.status().message()).find("v0"), std::string::npos);
}

TEST(AllocationVerifierTest, DetectsAUseThatReadsTheWrongRegister) {
  RegisterInfo ri = ToyRegisterInfo();
  MachineFunction mf = ManyLive(3);
  auto r = AllocateRegisters(mf, ri);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(VerifyAllocation(mf, ri).ok());
  // Redirect the first allocated use to another allocatable register.
  bool corrupted = false;
  for (MachineInst& inst : mf.block(0).insts) {
    if (inst.op == MOp::kAdd && inst.uses[1].is_preg() && inst.uses[1].vreg != kNoVReg) {
      inst.uses[1].index = inst.uses[1].index == 0 ? 1 : 0;
      corrupted = true;
      break;
    }
  }
  ASSERT_TRUE(corrupted);
  absl::Status s = VerifyAllocation(mf, ri);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("use of v"), std::string::npos) << s;
}

TEST(AllocationVerifierTest, DetectsOverlappingIntervalsSharingARegister) {
  AllocationResult r;
  r.intervals = {{0, 0, 10, 2, -1}, {1, 5, 20, 2, -1}};
  EXPECT_FALSE(VerifyIntervals(r).ok());
  r.intervals[1].preg = 3;
  EXPECT_TRUE(VerifyIntervals(r).ok());
  r.fixed.push_back({3, 7, 7});
  EXPECT_FALSE(VerifyIntervals(r).ok());
}

// Random programs: a chain of blocks with forward conditional branches,
// random arithmetic over a pool of vregs, and occasional calls. With
// `loops`, blocks 1 .. nblocks - 2 may instead end with a back edge to a
// block in 1 .. b, taken while a counter of its own (set in block 0, never
// reset) stays below 3: loops nest or overlap, and the program terminates.
MachineFunction RandomProgram(std::mt19937_64& rng, int nblocks, int pool, bool loops = false) {
  MachineFunction mf("random");
  for (int i = 0; i < nblocks; ++i) mf.NewBlock();
  std::vector<uint32_t> vs;
  for (int i = 0; i < pool; ++i) vs.push_back(mf.NewVReg());
  auto pick = [&]() { return Op::VReg(vs[rng() % vs.size()]); };
  std::vector<uint32_t> counters(nblocks, kNoVReg);
  if (loops) {
    for (int b = 1; b + 1 < nblocks; ++b) {
      if (rng() % 2 == 0) continue;
      counters[b] = mf.NewVReg();
      mf.Append(0, mi::MovImm(Op::VReg(counters[b]), 0));
    }
  }
  for (int i = 0; i < pool; ++i) {
    if (i < 3) {
      mf.Append(0, mi::Mov(Op::VReg(vs[i]), Op::Phys(4 + i)));
    } else {
      mf.Append(0, mi::MovImm(Op::VReg(vs[i]), static_cast<int64_t>(rng() % 1000)));
    }
  }
  const MOp ops[] = {MOp::kAdd, MOp::kSub, MOp::kMul, MOp::kAnd, MOp::kOr, MOp::kXor, MOp::kShl};
  for (int b = 0; b < nblocks; ++b) {
    int n = 2 + static_cast<int>(rng() % 8);
    for (int k = 0; k < n; ++k) {
      int what = static_cast<int>(rng() % 10);
      if (what == 0) {
        mf.Append(b, mi::Mov(Op::Phys(4), pick()));
        mf.Append(b, mi::Call(reinterpret_cast<const void*>(&Triple), {Op::Phys(4)},
                              {Op::Phys(0)}, 0));
        mf.Append(b, mi::Mov(pick(), Op::Phys(0)));
      } else if (what == 1) {
        mf.Append(b, mi::CmpSet(Cond::kLt, pick(), pick(), pick()));
      } else {
        MOp op = ops[rng() % 7];
        Op rhs = (rng() % 3 == 0) ? Op::Imm(static_cast<int64_t>(rng() % 50)) : pick();
        mf.Append(b, mi::Binary(op, pick(), pick(), rhs));
      }
    }
    if (b + 1 == nblocks) {
      Op sum = pick();
      for (uint32_t v : vs) mf.Append(b, mi::Binary(MOp::kAdd, sum, sum, Op::VReg(v)));
      mf.Append(b, mi::Mov(Op::Phys(0), sum));
      mf.Append(b, mi::Ret({Op::Phys(0)}));
    } else if (counters[b] != kNoVReg) {
      const Op c = Op::VReg(counters[b]);
      uint32_t target = 1 + static_cast<uint32_t>(rng() % b);
      mf.Append(b, mi::Binary(MOp::kAdd, c, c, Op::Imm(1)));
      mf.Append(b, mi::Branch(Cond::kLt, c, Op::Imm(3), target, b + 1));
    } else {
      uint32_t far = b + 1 + static_cast<uint32_t>(rng() % (nblocks - b - 1));
      mf.Append(b, mi::Branch(Cond::kUGt, pick(), pick(), b + 1, far));
    }
  }
  return mf;
}

TEST(RegisterAllocatorTest, RandomProgramsComputeTheSameAfterAllocation) {
  RegisterInfo ri = ToyRegisterInfo();
  std::mt19937_64 rng(20240605);
  for (int iter = 0; iter < 300; ++iter) {
    MachineFunction mf = RandomProgram(rng, 1 + iter % 6, 3 + iter % 9);
    SCOPED_TRACE(iter);
    AllocateAndCheck(mf, ri, {rng() % 100, rng() % 100, rng() % 100});
    if (::testing::Test::HasFailure()) break;
  }
}

TEST(RegisterAllocatorTest, RandomProgramsWithLoopsComputeTheSameAfterAllocation) {
  RegisterInfo ri = ToyRegisterInfo();
  std::mt19937_64 rng(20261121);
  for (int iter = 0; iter < 300; ++iter) {
    MachineFunction mf = RandomProgram(rng, 3 + iter % 7, 3 + iter % 9, /*loops=*/true);
    SCOPED_TRACE(iter);
    AllocateAndCheck(mf, ri, {rng() % 100, rng() % 100, rng() % 100});
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace morel::codegen
