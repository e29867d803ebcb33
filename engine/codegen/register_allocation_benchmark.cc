// Microbenchmarks of linear-scan register allocation (issue #7):
// AllocateRegisters on machine functions of 100, 1,000 and 10,000
// instructions: straight-line code with 8 or 24 values live at once, with
// and without calls (whose clobbers are fixed ranges), and loop nests.
//
//   bazel run -c opt //engine/codegen:register_allocation_benchmark
//
// items_per_second counts the machine instructions of the input (spill
// code the allocator inserts is not counted); `spilled` and `reloads` say
// how much spill code it inserted. Each iteration allocates a fresh copy of
// the function (copied with the timer paused). Two register descriptions:
// `sysv` has the shape of x86_64 SysV (12 allocatable registers, 5 of them
// callee-saved; defined here because codegen does not depend on a backend),
// `toy` is the 4-register test target (testing/toy_target.h).

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_allocator.h"
#include "engine/codegen/register_info.h"
#include "engine/codegen/testing/toy_target.h"

namespace morel::codegen {
namespace {

using Op = MachineOperand;

RegisterInfo SysVShapedRegisterInfo() {
  RegisterInfo ri;
  ri.target = "sysv-shaped";
  for (const char* name : {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9",
                           "r10", "r11", "r12", "r13", "r14", "r15"}) {
    ri.names.push_back(name);
  }
  ri.allocatable[0] = {0, 1, 2, 6, 7, 8, 9, 3, 12, 13, 14, 15};
  for (PReg r : {3, 12, 13, 14, 15}) ri.callee_saved |= RegisterInfo::Bit(r);
  for (PReg r : {0, 1, 2, 6, 7, 8, 9, 10, 11}) ri.caller_saved |= RegisterInfo::Bit(r);
  ri.argument_regs = {7, 6, 2, 1, 8, 9};
  ri.return_regs = {0, 2};
  ri.scratch = {10, 11};
  ri.stack_pointer = 4;
  ri.frame_pointer = 5;
  ri.shift_count = 1;
  ri.div_clobbers = RegisterInfo::Bit(0) | RegisterInfo::Bit(2);
  return ri;
}

const RegisterInfo& SysV() {
  static const RegisterInfo* ri = new RegisterInfo(SysVShapedRegisterInfo());
  return *ri;
}
const RegisterInfo& Toy() {
  static const RegisterInfo* ri = new RegisterInfo(testing::ToyRegisterInfo());
  return *ri;
}

// Never called: the benchmark only allocates.
int64_t Callee(int64_t x) { return x; }

// Emits the common parts of the generated functions.
class Generator {
 public:
  // A call every `call_every` instructions on average (0: none).
  Generator(const RegisterInfo& ri, uint32_t seed, int call_every)
      : ri_(ri), rng_(seed), call_every_(call_every) {}

  MachineFunction& mf() { return mf_; }

  // The three incoming arguments as vregs, at the top of `block`.
  void Arguments(uint32_t block) {
    for (int k = 0; k < 3; ++k) Define(block, mi::Mov(New(), Op::Phys(ri_.argument_regs[k])));
  }

  // dst = op(a, b|imm) over recently defined vregs, or a call (3
  // instructions: argument, call, result).
  void Arithmetic(uint32_t block, int window) {
    static constexpr MOp kOps[] = {MOp::kAdd, MOp::kSub, MOp::kMul, MOp::kAnd, MOp::kOr, MOp::kXor};
    if (call_every_ > 0 && Pick(call_every_ - 2) == 0) {
      const Op arg = Op::Phys(ri_.argument_regs[0]);
      const Op result = Op::Phys(ri_.return_regs[0]);
      mf_.Append(block, mi::Mov(arg, Recent(window)));
      mf_.Append(block, mi::Call(reinterpret_cast<const void*>(&Callee), {arg}, {result}, 0));
      Define(block, mi::Mov(New(), result));
      return;
    }
    const Op rhs = Pick(4) == 0 ? Op::Imm(Pick(100)) : Recent(window);
    Define(block, mi::Binary(kOps[Pick(6)], New(), Recent(window), rhs));
  }

  // Returns a digest of the last `count` values.
  void Return(uint32_t block, int count) {
    Op sum = Op::VReg(recent_.back());
    const int n = std::min<int>(count, recent_.size());
    for (int k = 2; k <= n; ++k) {
      Op next = New();
      mf_.Append(block, mi::Binary(MOp::kXor, next, sum, Op::VReg(recent_[recent_.size() - k])));
      sum = next;
    }
    const Op result = Op::Phys(ri_.return_regs[0]);
    mf_.Append(block, mi::Mov(result, sum));
    mf_.Append(block, mi::Ret({result}));
  }

  int64_t Pick(int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); }
  Op New() { return Op::VReg(mf_.NewVReg()); }
  // One of the last `window` values defined.
  Op Recent(int window) {
    const int n = std::min<int>(window, recent_.size());
    return Op::VReg(recent_[recent_.size() - 1 - Pick(n)]);
  }
  void Define(uint32_t block, MachineInst inst) {
    recent_.push_back(inst.defs[0].index);
    mf_.Append(block, std::move(inst));
  }

 private:
  const RegisterInfo& ri_;
  std::mt19937_64 rng_;
  const int call_every_;
  MachineFunction mf_{"benchmark"};
  std::vector<uint32_t> recent_;  // vregs in definition order
};

int64_t CountInstructions(const MachineFunction& mf) {
  int64_t n = 0;
  for (const MachineBlock& block : mf.blocks()) n += block.insts.size();
  return n;
}

// One block of `n` instructions; each new value reads values among the last
// `window` defined, so about `window` values are live at every point.
MachineFunction StraightLine(const RegisterInfo& ri, int64_t n, int window, int call_every) {
  Generator g(ri, 1, call_every);
  const uint32_t entry = g.mf().NewBlock();
  g.Arguments(entry);
  while (CountInstructions(g.mf()) + window + 2 < n) g.Arithmetic(entry, window);
  g.Return(entry, window);
  return std::move(g.mf());
}

// Loop nests of about 50 instructions each, in sequence:
//   pre:   oi = 0; jump outer
//   outer: ii = 0; <work>; jump inner
//   inner: <work>; ci = ci op t (loop-carried, for four c); ii += 1;
//          branch ii < 10, inner, latch
//   latch: <work>; oi += 1; branch oi < 10, outer, <next pre>
// The carried values c0..c3 are live through every loop.
MachineFunction LoopNests(const RegisterInfo& ri, int64_t n, int window, int call_every) {
  Generator g(ri, 2, call_every);
  MachineFunction& mf = g.mf();
  const uint32_t entry = mf.NewBlock();
  g.Arguments(entry);
  std::vector<Op> carried;
  for (int k = 0; k < 4; ++k) {
    carried.push_back(g.New());
    g.Define(entry, mi::MovImm(carried.back(), k + 1));
  }
  uint32_t current = entry;
  while (CountInstructions(mf) + window + 60 < n) {
    const uint32_t outer = mf.NewBlock();
    const uint32_t inner = mf.NewBlock();
    const uint32_t latch = mf.NewBlock();
    const Op oi = g.New(), ii = g.New();
    mf.Append(current, mi::MovImm(oi, 0));
    mf.Append(current, mi::Jump(outer));
    mf.Append(outer, mi::MovImm(ii, 0));
    for (int k = 0; k < 8; ++k) g.Arithmetic(outer, window);
    mf.Append(outer, mi::Jump(inner));
    for (int k = 0; k < 24; ++k) g.Arithmetic(inner, window);
    for (const Op& c : carried) {
      mf.Append(inner, mi::Binary(MOp::kAdd, c, c, g.Recent(window)));
    }
    mf.Append(inner, mi::Binary(MOp::kAdd, ii, ii, Op::Imm(1)));
    mf.Append(inner, mi::Branch(Cond::kLt, ii, Op::Imm(10), inner, latch));
    for (int k = 0; k < 8; ++k) g.Arithmetic(latch, window);
    const uint32_t next = mf.NewBlock();
    mf.Append(latch, mi::Binary(MOp::kAdd, oi, oi, Op::Imm(1)));
    mf.Append(latch, mi::Branch(Cond::kLt, oi, Op::Imm(10), outer, next));
    current = next;
  }
  for (const Op& c : carried) g.Define(current, mi::Mov(g.New(), c));
  g.Return(current, window);
  return std::move(mf);
}

void Allocate(benchmark::State& state, const RegisterInfo& ri, const MachineFunction& prototype) {
  AllocationResult last;
  for (auto _ : state) {
    state.PauseTiming();
    MachineFunction mf = prototype;
    state.ResumeTiming();
    absl::StatusOr<AllocationResult> result = AllocateRegisters(mf, ri);
    state.PauseTiming();
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      break;
    }
    last = *std::move(result);
    mf = MachineFunction();  // free outside the timed region
    state.ResumeTiming();
  }
  const int64_t insts = CountInstructions(prototype);
  state.SetItemsProcessed(state.iterations() * insts);
  state.counters["insts"] = static_cast<double>(insts);
  state.counters["vregs"] = static_cast<double>(prototype.num_vregs());
  state.counters["spilled"] = static_cast<double>(last.num_spilled);
  state.counters["reloads"] = static_cast<double>(last.reloads);
}

// Args: instructions; values live at once; a call every N instructions
// (0: none; each call adds fixed ranges for the caller-saved registers).
void BM_StraightLine(benchmark::State& state, const RegisterInfo& (*target)()) {
  const RegisterInfo& ri = target();
  Allocate(state, ri,
           StraightLine(ri, state.range(0), static_cast<int>(state.range(1)),
                        static_cast<int>(state.range(2))));
}
BENCHMARK_CAPTURE(BM_StraightLine, sysv, &SysV)
    ->ArgNames({"insts", "live", "call_every"})
    ->ArgsProduct({{100, 1000, 10000}, {8, 24}, {0, 16}});
BENCHMARK_CAPTURE(BM_StraightLine, toy, &Toy)
    ->ArgNames({"insts", "live", "call_every"})
    ->ArgsProduct({{100, 1000, 10000}, {8}, {16}});

void BM_LoopNests(benchmark::State& state, const RegisterInfo& (*target)()) {
  const RegisterInfo& ri = target();
  Allocate(state, ri,
           LoopNests(ri, state.range(0), static_cast<int>(state.range(1)),
                     static_cast<int>(state.range(2))));
}
BENCHMARK_CAPTURE(BM_LoopNests, sysv, &SysV)
    ->ArgNames({"insts", "live", "call_every"})
    ->ArgsProduct({{100, 1000, 10000}, {8, 24}, {16}});

}  // namespace
}  // namespace morel::codegen
