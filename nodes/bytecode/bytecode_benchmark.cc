// The bytecode interpreter's loop, to see what a back edge costs (loop
// iteration counting, the safepoint poll, bytecode OSR's back-edge counter):
//
//   bazel run -c opt //nodes/bytecode:bytecode_benchmark
//
// BM_CountDown is nearly all back edges (3 instructions per iteration, one
// of them the back edge); BM_Sum is a realistic loop (`s = s + i`, 11
// instructions, 3 operations). Both run on a runtime without OSR, as the
// interpreter does below the OSR threshold: the back edge takes its fast
// path every time. Timing is reported, never asserted (DESIGN §9).

#include <cstdint>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "nodes/bytecode/bytecode_builder.h"
#include "nodes/bytecode/bytecode_root_node.h"
#include "nodes/call_target.h"
#include "testing/test_language/test_runtime.h"

namespace morel::bytecode {
namespace {

// Decrements local 0 and pushes whether it is still positive: the loop's
// only operation.
class CountDownOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(CountDownOperation)
  Value ExecuteOperation(Frame& frame, absl::Span<const Value>) override {
    const int64_t n = frame.Get(0).AsLong() - 1;
    frame.Set(0, Value::Long(n));
    return Value::Boolean(n > 0);
  }
};

class AddOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(AddOperation)
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    return Value::Long(operands[0].AsLong() + operands[1].AsLong());
  }
};

class LessOperation final : public Node, public BytecodeOperation {
 public:
  MOREL_NODE_KIND(LessOperation)
  Value ExecuteOperation(Frame&, absl::Span<const Value> operands) override {
    return Value::Boolean(operands[0].AsLong() < operands[1].AsLong());
  }
};

CallTarget* Define(test_language::TestRuntime& runtime, BytecodeBuilder builder, int locals) {
  auto program = std::move(builder).Build();
  if (!program.ok()) std::abort();
  auto descriptor = std::make_unique<FrameDescriptor>();
  for (int i = 0; i < locals; ++i) descriptor->AddSlot(absl::StrCat("l", i));
  return runtime.CreateCallTarget(std::make_unique<BytecodeRootNode>(
      SourceSection(), "bench", std::move(descriptor), *std::move(program)));
}

// n = arg0; do { } while (--n > 0) as: L: op countdown; branch.false X;
// branch L; X: return n
CallTarget* CountDown(test_language::TestRuntime& runtime) {
  BytecodeBuilder b;
  b.EmitArgument(0, Value::Long(1));
  b.EmitStoreLocal(0);
  auto header = b.NewLabel(), exit = b.NewLabel();
  b.Bind(header);
  b.EmitOperation(std::make_unique<CountDownOperation>(), 0);
  b.EmitBranchFalse(exit);
  b.EmitBranch(header);
  b.Bind(exit);
  b.EmitLoadLocal(0);
  b.EmitReturn();
  return Define(runtime, std::move(b), 1);
}

// s = 0; i = 0; while (i < n) { s = s + i; i = i + 1 } return s
CallTarget* Sum(test_language::TestRuntime& runtime) {
  BytecodeBuilder b;
  b.EmitConstant(Value::Long(0));
  b.EmitStoreLocal(0);
  b.EmitConstant(Value::Long(0));
  b.EmitStoreLocal(1);
  auto header = b.NewLabel(), exit = b.NewLabel();
  b.Bind(header);
  b.EmitLoadLocal(1);
  b.EmitArgument(0, Value::Long(0));
  b.EmitOperation(std::make_unique<LessOperation>(), 2);
  b.EmitBranchFalse(exit);
  b.EmitLoadLocal(0);
  b.EmitLoadLocal(1);
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitStoreLocal(0);
  b.EmitLoadLocal(1);
  b.EmitConstant(Value::Long(1));
  b.EmitOperation(std::make_unique<AddOperation>(), 2);
  b.EmitStoreLocal(1);
  b.EmitBranch(header);
  b.Bind(exit);
  b.EmitLoadLocal(0);
  b.EmitReturn();
  return Define(runtime, std::move(b), 2);
}

constexpr int64_t kIterations = 1 << 20;

void BM_CountDown(benchmark::State& state) {
  test_language::TestRuntime runtime;
  CallTarget* target = CountDown(runtime);
  for (auto _ : state) {
    benchmark::DoNotOptimize(target->Call({Value::Long(kIterations)}));
  }
  state.SetItemsProcessed(state.iterations() * kIterations);  // back edges
}
BENCHMARK(BM_CountDown);

void BM_Sum(benchmark::State& state) {
  test_language::TestRuntime runtime;
  CallTarget* target = Sum(runtime);
  for (auto _ : state) {
    benchmark::DoNotOptimize(target->Call({Value::Long(kIterations)}));
  }
  state.SetItemsProcessed(state.iterations() * kIterations);
}
BENCHMARK(BM_Sum);

}  // namespace
}  // namespace morel::bytecode
