// Microbenchmarks of x86_64 code emission (issue #7): encoding one
// instruction through LLVM MC (McEncoder), decoding one (McDisassembler),
// and emitting an allocated machine function (EmitFunction: prologue,
// two-address lowering, branches with label fixups).
//
//   bazel run -c opt //backend_x86_64:emit_benchmark
//
// items_per_second counts instructions: forms encoded or decoded, or the
// machine instructions of the emitted function.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "backend_x86_64/abi.h"
#include "backend_x86_64/disasm.h"
#include "backend_x86_64/emit.h"
#include "backend_x86_64/function_emitter.h"
#include "backend_x86_64/isa.h"
#include "benchmark/benchmark.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_buffer.h"
#include "engine/codegen/machine_function.h"
#include "engine/codegen/register_allocator.h"

namespace morel::x86_64 {
namespace {

struct Inst {
  Form form;
  FormOperands ops;
};

// An immediate `form` can hold (for forms without one it is ignored).
int64_t ImmediateFor(Form form, int i) {
  switch (form) {
    case Form::kMovRI64:
      return int64_t{0x123456789} * (i + 1);
    case Form::kShlRI:
    case Form::kSarRI:
    case Form::kShrRI:
      return 1 + i % 63;
    default:
      break;
  }
  const absl::string_view name = GetForm(form).llvm_name;
  if (absl::EndsWith(name, "ri8")) return -64 + i % 128;
  return 0x10000 + 977 * i;
}

// `rounds` passes over every form of the table, with rotating registers
// (rsp, rbp, r12 and r13 included, whose memory forms need a SIB byte or a
// displacement), condition codes, 8- and 32-bit displacements and immediates.
std::vector<Inst> AllForms(int rounds) {
  std::vector<Inst> insts;
  int i = 0;
  for (int round = 0; round < rounds; ++round) {
    for (const FormInfo& info : Forms()) {
      FormOperands ops;
      ops.dst = static_cast<Gpr>(i % kNumGprs);
      ops.src = static_cast<Gpr>((i * 7 + 3) % kNumGprs);
      ops.base = static_cast<Gpr>((i * 5 + 1) % kNumGprs);
      ops.disp = i % 3 == 0 ? 8 * (i % 16) : 4096 + 8 * i;
      ops.imm = ImmediateFor(info.form, i);
      ops.cc = static_cast<X86Cond>(i % 16);
      insts.push_back({info.form, ops});
      ++i;
    }
  }
  return insts;
}

// One form, repeated with rotating registers.
std::vector<Inst> OneForm(Form form, int n) {
  std::vector<Inst> insts;
  for (int i = 0; i < n; ++i) {
    FormOperands ops;
    ops.dst = static_cast<Gpr>(i % kNumGprs);
    ops.src = static_cast<Gpr>((i * 7 + 3) % kNumGprs);
    ops.base = kRbp;
    ops.disp = -8 * (1 + i % 32);
    ops.imm = ImmediateFor(form, i);
    ops.cc = static_cast<X86Cond>(i % 16);
    insts.push_back({form, ops});
  }
  return insts;
}

std::unique_ptr<McEncoder> NewEncoder(benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<McEncoder>> encoder = McEncoder::Create();
  if (!encoder.ok()) {
    state.SkipWithError(std::string(encoder.status().message()).c_str());
    return nullptr;
  }
  return *std::move(encoder);
}

void Encode(benchmark::State& state, const std::vector<Inst>& insts) {
  std::unique_ptr<McEncoder> encoder = NewEncoder(state);
  if (encoder == nullptr) return;
  int64_t bytes = 0;
  for (auto _ : state) {
    codegen::CodeBuffer buffer;
    for (const Inst& inst : insts) {
      if (!encoder->Encode(inst.form, inst.ops, buffer).ok()) {
        state.SkipWithError("Encode failed");
        return;
      }
    }
    bytes = static_cast<int64_t>(buffer.size());
    benchmark::DoNotOptimize(buffer.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(insts.size()));
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["bytes_per_inst"] = static_cast<double>(bytes) / insts.size();
}

// Every form of the table, 20 times (about 1,000 instructions).
void BM_EncodeAllForms(benchmark::State& state) { Encode(state, AllForms(20)); }
BENCHMARK(BM_EncodeAllForms);

// Single forms: the common register, immediate, memory and branch shapes.
void BM_EncodeForm(benchmark::State& state, Form form) { Encode(state, OneForm(form, 1000)); }
BENCHMARK_CAPTURE(BM_EncodeForm, mov_rr, Form::kMovRR);
BENCHMARK_CAPTURE(BM_EncodeForm, add_rr, Form::kAddRR);
BENCHMARK_CAPTURE(BM_EncodeForm, add_ri8, Form::kAddRI8);
BENCHMARK_CAPTURE(BM_EncodeForm, mov_ri64, Form::kMovRI64);
BENCHMARK_CAPTURE(BM_EncodeForm, load, Form::kLoad);
BENCHMARK_CAPTURE(BM_EncodeForm, store, Form::kStore);
BENCHMARK_CAPTURE(BM_EncodeForm, jcc_rel32, Form::kJcc);

// Decoding and printing (AT&T) the encoded AllForms stream.
void BM_DisassembleAllForms(benchmark::State& state) {
  std::unique_ptr<McEncoder> encoder = NewEncoder(state);
  absl::StatusOr<std::unique_ptr<McDisassembler>> disasm = McDisassembler::Create();
  if (encoder == nullptr || !disasm.ok()) {
    state.SkipWithError("creating the encoder or disassembler failed");
    return;
  }
  const std::vector<Inst> insts = AllForms(20);
  codegen::CodeBuffer buffer;
  for (const Inst& inst : insts) {
    if (!encoder->Encode(inst.form, inst.ops, buffer).ok()) {
      state.SkipWithError("Encode failed");
      return;
    }
  }
  for (auto _ : state) {
    auto decoded = (*disasm)->Decode(buffer.bytes(), 0x1000);
    if (!decoded.ok() || decoded->size() != insts.size()) {
      state.SkipWithError("the stream does not decode into the encoded instructions");
      return;
    }
    benchmark::DoNotOptimize(decoded->data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(insts.size()));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(buffer.size()));
}
BENCHMARK(BM_DisassembleAllForms);

// A machine function of `blocks` blocks: per block ten three-address
// operations over eight values (register and immediate operands, some
// destinations aliasing a source), a compare-and-set, and a branch to the
// next block or the one after; the last block returns. Allocated for SysV.
absl::StatusOr<codegen::MachineFunction> AllocatedFunction(int blocks) {
  using codegen::MOp;
  using Op = codegen::MachineOperand;
  namespace mi = codegen::mi;
  const codegen::RegisterInfo& ri = SysVRegisterInfo();
  codegen::MachineFunction mf("emit_benchmark");
  for (int b = 0; b < blocks; ++b) mf.NewBlock();
  std::vector<Op> v;
  for (int k = 0; k < 8; ++k) v.push_back(Op::VReg(mf.NewVReg()));
  for (int k = 0; k < 3; ++k) mf.Append(0, mi::Mov(v[k], Op::Phys(ri.argument_regs[k])));
  for (int k = 3; k < 8; ++k) mf.Append(0, mi::MovImm(v[k], 1000 * k));
  static constexpr MOp kOps[] = {MOp::kAdd, MOp::kSub, MOp::kMul, MOp::kAnd, MOp::kOr,
                                 MOp::kXor, MOp::kAdd, MOp::kSub, MOp::kShl, MOp::kSar};
  int i = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int k = 0; k < 10; ++k, ++i) {
      const MOp op = kOps[k];
      const bool shift = op == MOp::kShl || op == MOp::kSar;
      const Op rhs = shift || i % 3 == 0 ? Op::Imm(shift ? 1 + i % 7 : i % 100) : v[(i + 5) % 8];
      const Op dst = i % 4 == 0 ? v[(i + 2) % 8] : v[(i + 1) % 8];
      mf.Append(b, mi::Binary(op, dst, v[(i + 2) % 8], rhs));
    }
    mf.Append(b, mi::CmpSet(codegen::Cond::kLt, v[i % 8], v[(i + 3) % 8], v[(i + 6) % 8]));
    if (b + 1 == blocks) {
      const Op result = Op::Phys(ri.return_regs[0]);
      mf.Append(b, mi::Mov(result, v[i % 8]));
      mf.Append(b, mi::Ret({result}));
    } else {
      const int far = b + 2 < blocks ? b + 2 : b + 1;
      mf.Append(b, mi::Branch(codegen::Cond::kUGt, v[i % 8], Op::Imm(100), b + 1, far));
    }
  }
  absl::StatusOr<codegen::AllocationResult> allocation = codegen::AllocateRegisters(mf, ri);
  if (!allocation.ok()) return allocation.status();
  return mf;
}

void BM_EmitFunction(benchmark::State& state) {
  std::unique_ptr<McEncoder> encoder = NewEncoder(state);
  absl::StatusOr<codegen::MachineFunction> mf = AllocatedFunction(static_cast<int>(state.range(0)));
  if (encoder == nullptr || !mf.ok()) {
    state.SkipWithError("setting up the function failed");
    return;
  }
  int64_t insts = 0;
  for (const codegen::MachineBlock& block : mf->blocks()) insts += block.insts.size();
  int64_t bytes = 0;
  for (auto _ : state) {
    absl::StatusOr<EmittedFunction> emitted =
        EmitFunction(*mf, codegen::CompileOptions{}, *encoder);
    if (!emitted.ok()) {
      state.SkipWithError(std::string(emitted.status().message()).c_str());
      return;
    }
    bytes = static_cast<int64_t>(emitted->code.size());
    benchmark::DoNotOptimize(emitted->code.data());
  }
  state.SetItemsProcessed(state.iterations() * insts);
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["insts"] = static_cast<double>(insts);
}
// About 100 and 1,000 machine instructions (12 per block).
BENCHMARK(BM_EmitFunction)->ArgName("blocks")->Arg(8)->Arg(84);

// What every compilation pays before encoding: McEncoder::Create (the LLVM
// MC objects and the form -> opcode table are built once per process; a
// compilation only takes an MCContext + MCCodeEmitter from a pool).
void BM_CreateEncoder(benchmark::State& state) {
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<McEncoder>> encoder = McEncoder::Create();
    if (!encoder.ok()) {
      state.SkipWithError("McEncoder::Create failed");
      return;
    }
    benchmark::DoNotOptimize(encoder->get());
  }
}
BENCHMARK(BM_CreateEncoder);

// The per-compilation cost of code generation for a small function as
// X86_64Backend::Compile pays it: a fresh encoder plus EmitFunction.
void BM_CreateAndEmitFunction(benchmark::State& state) {
  absl::StatusOr<codegen::MachineFunction> mf = AllocatedFunction(static_cast<int>(state.range(0)));
  if (!mf.ok()) {
    state.SkipWithError("setting up the function failed");
    return;
  }
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<McEncoder>> encoder = McEncoder::Create();
    if (!encoder.ok()) {
      state.SkipWithError("McEncoder::Create failed");
      return;
    }
    absl::StatusOr<EmittedFunction> emitted =
        EmitFunction(*mf, codegen::CompileOptions{}, **encoder);
    if (!emitted.ok()) {
      state.SkipWithError(std::string(emitted.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(emitted->code.data());
  }
}
BENCHMARK(BM_CreateAndEmitFunction)->ArgName("blocks")->Arg(2)->Arg(8);

}  // namespace
}  // namespace morel::x86_64
