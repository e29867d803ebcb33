// Microbenchmarks of the IR and the optimizer (issue #7): building,
// verifying, printing and parsing a function of about 1,000 instructions,
// each standard pass alone, and the default pipeline.
//
//   bazel run -c opt //engine/opt:ir_benchmark
//   bazel run -c opt //engine/opt:ir_benchmark -- --benchmark_filter=Pass
//
// Every benchmark reports its throughput as items_per_second = IR
// instructions (terminators included) per second, and `per_1k_nodes`, the
// time per 1,000 instructions. The argument is the target size; `nodes` is
// the actual instruction count of the input. Verify, print, parse and the
// passes run on seeded random IR (testing/random_ir.h, every block
// reachable: folding, GVN and guard-elimination opportunities, dead
// values); for the passes the function is rebuilt before each iteration
// with the timer paused, so each iteration optimizes fresh IR.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"
#include "engine/ir/builder.h"
#include "engine/ir/function.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/runtime_function.h"
#include "engine/ir/verifier.h"
#include "engine/opt/pass.h"
#include "engine/opt/pass_registry.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"
#include "engine/opt/testing/random_ir.h"

namespace morel::opt {
namespace {

using ir::Opcode;
using ir::Type;
using ir::Value;

constexpr uint32_t kSeed = 2024;
// The random generator emits about this many instructions per block with
// the options below (measured; the `nodes` counter reports the real size).
constexpr int64_t kNodesPerBlock = 30;

testing::RandomIrOptions OptionsForSize(int64_t nodes) {
  testing::RandomIrOptions options;
  options.min_blocks = options.max_blocks =
      static_cast<int>(std::max<int64_t>(1, nodes / kNodesPerBlock));
  options.min_block_steps = 16;
  options.max_block_steps = 24;
  options.all_blocks_reachable = true;
  return options;
}

std::unique_ptr<ir::Function> RandomIr(int64_t nodes) {
  return testing::RandomFunction(kSeed, OptionsForSize(nodes));
}

// items_per_second counts instructions; per_1k_nodes is the time per 1,000.
void ReportNodes(benchmark::State& state, int64_t nodes) {
  const double total = static_cast<double>(state.iterations()) * static_cast<double>(nodes);
  state.SetItemsProcessed(static_cast<int64_t>(total));
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["per_1k_nodes"] =
      benchmark::Counter(total / 1000.0, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// ------------------------------------------------------------------ build

// What the partial evaluator emits for a chain of guarded, overflow-checked
// additions: per segment a type guard (icmp + guard with a frame state of
// two locals), iadd + iadd_overflows, and a br to a shared deopt block or to
// the next segment's block, which receives the sum as a block parameter.
// 8 instructions and one frame state per segment; pure builder cost, no
// random numbers.
std::unique_ptr<ir::Function> BuildGuardedChain(int64_t nodes) {
  auto f = std::make_unique<ir::Function>("chain", std::vector<Type>{Type::kI64, Type::kI64},
                                          std::vector<Type>{Type::kI64, Type::kI64});
  ir::Builder b(f.get());
  ir::Block* entry = b.CreateEntryBlock();
  ir::Block* overflow = b.CreateBlock();
  Value* x = entry->params()[0];
  Value* tag = entry->params()[1];
  b.SetInsertionPoint(entry);
  Value* long_tag = b.I64(1);
  for (int64_t i = 0; i + 8 <= nodes; i += 8) {
    ir::FrameState* fs = b.CreateFrameState(ir::DeoptKind::kEager, /*call_target_id=*/1,
                                            /*resume_point=*/i, {{x, tag}, {long_tag, tag}}, {});
    b.Guard(b.ICmp(ir::Cond::kEq, tag, long_tag), fs, "not a long");
    Value* step = b.I64(i + 1);
    Value* sum = b.Binary(Opcode::kIadd, x, step);
    Value* ovf = b.Binary(Opcode::kIaddOverflows, x, step);
    ir::Block* next = b.CreateBlock();
    Value* param = b.AddBlockParam(next, Type::kI64);
    Value* sum_args[] = {sum};
    b.Br(ovf, overflow, {}, next, sum_args);
    b.SetInsertionPoint(next);
    x = b.Binary(Opcode::kXor, param, tag);
    b.Safepoint(fs);
  }
  Value* results[] = {x, tag};
  b.Return(results);
  b.SetInsertionPoint(overflow);
  b.Deopt(b.CreateFrameState(ir::DeoptKind::kEager, 1, -1, {}, {}), "overflow");
  return f;
}

void BM_Build(benchmark::State& state) {
  int64_t nodes = 0;
  for (auto _ : state) {
    std::unique_ptr<ir::Function> f = BuildGuardedChain(state.range(0));
    nodes = testing::CountInstructions(*f);
    benchmark::DoNotOptimize(f.get());
    state.PauseTiming();  // exclude freeing the function
    f.reset();
    state.ResumeTiming();
  }
  ReportNodes(state, nodes);
}
BENCHMARK(BM_Build)->Arg(1000)->Arg(10000);

// ---------------------------------------------------- verify, print, parse

void BM_Verify(benchmark::State& state) {
  std::unique_ptr<ir::Function> f = RandomIr(state.range(0));
  if (!ir::Verify(*f).ok()) state.SkipWithError("generated IR does not verify");
  for (auto _ : state) {
    absl::Status status = ir::Verify(*f);
    benchmark::DoNotOptimize(status);
  }
  ReportNodes(state, testing::CountInstructions(*f));
}
BENCHMARK(BM_Verify)->Arg(1000)->Arg(10000);

void BM_Print(benchmark::State& state) {
  std::unique_ptr<ir::Function> f = RandomIr(state.range(0));
  int64_t bytes = 0;
  for (auto _ : state) {
    std::string text = ir::PrintFunction(*f);
    bytes = static_cast<int64_t>(text.size());
    benchmark::DoNotOptimize(text);
  }
  ReportNodes(state, testing::CountInstructions(*f));
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_Print)->Arg(1000);

void BM_Parse(benchmark::State& state) {
  std::unique_ptr<ir::Function> f = RandomIr(state.range(0));
  const std::string text = ir::PrintFunction(*f);
  for (auto _ : state) {
    ir::RuntimeRegistry registry;
    absl::StatusOr<std::unique_ptr<ir::Function>> parsed = ir::ParseFunction(text, &registry);
    if (!parsed.ok()) {
      state.SkipWithError("the printed IR does not parse");
      break;
    }
    state.PauseTiming();  // exclude freeing the function
    parsed->reset();
    state.ResumeTiming();
  }
  ReportNodes(state, testing::CountInstructions(*f));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Parse)->Arg(1000);

// ----------------------------------------------------------------- passes

// Runs `pass` on fresh random IR each iteration; `nodes_after` is the size
// of its output.
void RunOnFreshIr(benchmark::State& state, Pass& pass) {
  const int64_t nodes = testing::CountInstructions(*RandomIr(state.range(0)));
  int64_t nodes_after = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<ir::Function> f = RandomIr(state.range(0));
    PassContext ctx;
    state.ResumeTiming();
    absl::StatusOr<bool> changed = pass.Run(*f, ctx);
    state.PauseTiming();
    if (!changed.ok()) {
      state.SkipWithError(std::string(changed.status().message()).c_str());
      break;
    }
    nodes_after = testing::CountInstructions(*f);
    f.reset();
    state.ResumeTiming();
  }
  ReportNodes(state, nodes);
  state.counters["nodes_after"] = static_cast<double>(nodes_after);
}

void BM_Pass(benchmark::State& state, const char* name) {
  absl::StatusOr<std::unique_ptr<Pass>> pass = PassRegistry::Standard().Create(name);
  if (!pass.ok()) {
    state.SkipWithError("unknown pass");
    return;
  }
  RunOnFreshIr(state, **pass);
}
BENCHMARK_CAPTURE(BM_Pass, canonicalize, "canonicalize")->Arg(1000)->Arg(10000);
BENCHMARK_CAPTURE(BM_Pass, gvn, "gvn")->Arg(1000)->Arg(10000);
BENCHMARK_CAPTURE(BM_Pass, dce, "dce")->Arg(1000)->Arg(10000);
BENCHMARK_CAPTURE(BM_Pass, guard_elim, "guard_elim")->Arg(1000)->Arg(10000);

// kDefaultPassList; with VerifyIR the verifier also runs on the input and
// after each of the six passes.
void BM_DefaultPipeline(benchmark::State& state, bool verify_ir) {
  PipelineOptions options;
  options.verify_ir = verify_ir;
  absl::StatusOr<std::unique_ptr<Pipeline>> pipeline = BuildDefaultPipeline(options);
  if (!pipeline.ok()) {
    state.SkipWithError("BuildDefaultPipeline failed");
    return;
  }
  RunOnFreshIr(state, **pipeline);
}
BENCHMARK_CAPTURE(BM_DefaultPipeline, plain, false)->Arg(1000)->Arg(10000);
BENCHMARK_CAPTURE(BM_DefaultPipeline, verify_ir, true)->Arg(1000);

}  // namespace
}  // namespace morel::opt
