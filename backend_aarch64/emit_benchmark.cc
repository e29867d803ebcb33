// Microbenchmarks of AArch64 code emission: encoding one instruction through
// LLVM MC (McEncoder), decoding one (McDisassembler), creating an encoder,
// and compiling a machine function (register allocation + EmitFunction).
//
//   bazel run -c opt //backend_aarch64:emit_benchmark
//
// items_per_second counts instructions: forms encoded or decoded, or the
// machine instructions of the compiled function.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "backend_aarch64/abi.h"
#include "backend_aarch64/disasm.h"
#include "backend_aarch64/emit.h"
#include "backend_aarch64/function_emitter.h"
#include "backend_aarch64/isa.h"
#include "benchmark/benchmark.h"
#include "engine/codegen/code_buffer.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_allocator.h"

namespace morel::aarch64 {
namespace {

struct Inst {
  Form form;
  FormOperands ops;
};

// A valid operand set for `form`, registers rotating with i (x0..x28).
FormOperands OperandsFor(Form form, int i) {
  FormOperands ops{static_cast<Gpr>(i % 29), static_cast<Gpr>((i * 7 + 3) % 29),
                   static_cast<Gpr>((i * 5 + 1) % 29), static_cast<Gpr>((i * 3 + 2) % 29)};
  const ImmediateRange range = GetImmediateRange(form);
  switch (GetForm(form).layout) {
    case Layout::kMovWide: case Layout::kMovK: ops.imm2 = 16 * (i % 4); break;
    case Layout::kRRLogical: ops.imm = 0xff00; break;
    case Layout::kRRRShift: ops.imm2 = i % 64; break;
    case Layout::kRRImmImm: ops.imm2 = 63; break;
    case Layout::kRRRCond: case Layout::kBranchCond: ops.cc = static_cast<A64Cond>(i % 15); break;
    default: break;
  }
  if (range.max > range.min && GetForm(form).layout != Layout::kRRLogical) {
    const int64_t steps = (range.max - range.min) / range.multiple + 1;
    ops.imm = range.min + range.multiple * (i % std::min<int64_t>(steps, 1000));
  }
  if (GetForm(form).layout == Layout::kPair || GetForm(form).layout == Layout::kPairWb) {
    ops.a = static_cast<Gpr>((ops.d + 1) % 29);
    ops.n = static_cast<Gpr>((ops.d + 2) % 29);
  }
  return ops;
}

std::vector<Inst> AllForms(int rounds) {
  std::vector<Inst> insts;
  int i = 0;
  for (int round = 0; round < rounds; ++round) {
    for (const FormInfo& info : Forms()) insts.push_back({info.form, OperandsFor(info.form, i++)});
  }
  return insts;
}

void BM_EncodeAllForms(benchmark::State& state) {
  auto encoder = McEncoder::Create();
  if (!encoder.ok()) return state.SkipWithError("no encoder");
  const std::vector<Inst> insts = AllForms(20);
  for (auto _ : state) {
    codegen::CodeBuffer buffer;
    for (const Inst& inst : insts) {
      if (absl::Status s = (*encoder)->Encode(inst.form, inst.ops, buffer); !s.ok()) {
        return state.SkipWithError(std::string(s.message()).c_str());
      }
    }
    benchmark::DoNotOptimize(buffer.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(insts.size()));
}
BENCHMARK(BM_EncodeAllForms);

void BM_DisassembleAllForms(benchmark::State& state) {
  auto encoder = McEncoder::Create();
  auto disasm = McDisassembler::Create();
  if (!encoder.ok() || !disasm.ok()) return state.SkipWithError("no MC");
  const std::vector<Inst> insts = AllForms(20);
  codegen::CodeBuffer buffer;
  for (const Inst& inst : insts) {
    if (!(*encoder)->Encode(inst.form, inst.ops, buffer).ok()) {
      return state.SkipWithError("Encode failed");
    }
  }
  for (auto _ : state) {
    auto decoded = (*disasm)->Decode(buffer.bytes());
    if (!decoded.ok()) return state.SkipWithError("Decode failed");
    benchmark::DoNotOptimize(decoded->data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(insts.size()));
}
BENCHMARK(BM_DisassembleAllForms);

void BM_CreateEncoder(benchmark::State& state) {
  for (auto _ : state) {
    auto encoder = McEncoder::Create();
    benchmark::DoNotOptimize(encoder);
  }
}
BENCHMARK(BM_CreateEncoder);

// A straight-line function of ~n instructions with a loop around it:
// arithmetic on 16 live values, a compare and a branch.
codegen::MachineFunction Function(int n) {
  namespace mi = codegen::mi;
  using Op = codegen::MachineOperand;
  codegen::MachineFunction mf("bench");
  const uint32_t entry = mf.NewBlock(), loop = mf.NewBlock(), exit = mf.NewBlock();
  std::vector<uint32_t> vs;
  for (int k = 0; k < 16; ++k) {
    vs.push_back(mf.NewVReg());
    mf.Append(entry, mi::MovImm(Op::VReg(vs.back()), k * 977));
  }
  mf.Append(entry, mi::Jump(loop));
  const codegen::MOp ops[] = {codegen::MOp::kAdd, codegen::MOp::kSub, codegen::MOp::kXor,
                              codegen::MOp::kMul, codegen::MOp::kAnd};
  for (int i = 0; i < n; ++i) {
    const uint32_t d = vs[i % 16], a = vs[(i * 7 + 1) % 16], b = vs[(i * 3 + 2) % 16];
    mf.Append(loop, mi::Binary(ops[i % 5], Op::VReg(d), Op::VReg(a), Op::VReg(b)));
  }
  mf.Append(loop, mi::Branch(codegen::Cond::kLt, Op::VReg(vs[0]), Op::VReg(vs[1]), loop, exit));
  mf.Append(exit, mi::Mov(Op::Phys(kX0), Op::VReg(vs[0])));
  mf.Append(exit, mi::Ret({Op::Phys(kX0)}));
  mf.ComputeSuccessors();
  return mf;
}

// Register allocation and emission (what Aarch64Backend::Compile does but
// installing), per machine instruction.
void BM_AllocateAndEmitFunction(benchmark::State& state) {
  const codegen::MachineFunction original = Function(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    codegen::MachineFunction mf = original;
    state.ResumeTiming();
    auto encoder = McEncoder::Create();
    if (!encoder.ok() || !codegen::AllocateRegisters(mf, Aapcs64RegisterInfo()).ok()) {
      return state.SkipWithError("allocation failed");
    }
    auto emitted = EmitFunction(mf, {}, **encoder);
    if (!emitted.ok()) return state.SkipWithError("EmitFunction failed");
    benchmark::DoNotOptimize(emitted->code.data());
  }
  state.SetItemsProcessed(state.iterations() * (state.range(0) + 20));
}
BENCHMARK(BM_AllocateAndEmitFunction)->Arg(100)->Arg(1000);

}  // namespace
}  // namespace morel::aarch64
