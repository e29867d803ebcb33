// Microbenchmarks of the specialization machinery (issue #7): the cost of a
// monomorphic fast path, of a polymorphic dispatch, and of a specialization
// transition (a fresh node specializing, and a RewriteOn exclusion), on the
// test language's AddNode (AddInt | AddWide | AddString).
//
//   bazel run -c opt //nodes:specialization_benchmark

#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel::test_language {
namespace {

std::unique_ptr<AddNode> NewAdd() {
  return std::make_unique<AddNode>(nullptr, nullptr, SourceSection{});
}

void BM_MonomorphicFastPath(benchmark::State& state) {
  auto add = NewAdd();
  add->ExecuteWith(Value::Long(1), Value::Long(2));
  int64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(add->ExecuteWith(Value::Long(i++), Value::Long(3)));
  }
}
BENCHMARK(BM_MonomorphicFastPath);

void BM_PolymorphicDispatch(benchmark::State& state) {
  auto add = NewAdd();
  add->ExecuteWith(Value::Long(1), Value::Long(2));
  add->ExecuteWith(Value::Double(1.5), Value::Long(2));
  int64_t i = 0;
  for (auto _ : state) {
    // Alternates between the first and the second specialization.
    Value left = (i & 1) ? Value::Double(0.5) : Value::Long(i);
    benchmark::DoNotOptimize(add->ExecuteWith(left, Value::Long(3)));
    ++i;
  }
}
BENCHMARK(BM_PolymorphicDispatch);

// A fresh node's first execution: the slow path activates AddInt.
void BM_FirstSpecialization(benchmark::State& state) {
  std::vector<std::unique_ptr<AddNode>> nodes;
  for (auto _ : state) {
    state.PauseTiming();
    nodes.push_back(NewAdd());
    AddNode* add = nodes.back().get();
    state.ResumeTiming();
    benchmark::DoNotOptimize(add->ExecuteWith(Value::Long(1), Value::Long(2)));
  }
}
BENCHMARK(BM_FirstSpecialization);

// AddInt active, then an overflow: RewriteOn excludes it and AddWide takes over.
void BM_RewriteOnTransition(benchmark::State& state) {
  std::vector<std::unique_ptr<AddNode>> nodes;
  for (auto _ : state) {
    state.PauseTiming();
    nodes.push_back(NewAdd());
    AddNode* add = nodes.back().get();
    add->ExecuteWith(Value::Long(1), Value::Long(2));
    state.ResumeTiming();
    benchmark::DoNotOptimize(
        add->ExecuteWith(Value::Long(INT64_MAX), Value::Long(1)));
  }
}
BENCHMARK(BM_RewriteOnTransition);

}  // namespace
}  // namespace morel::test_language
