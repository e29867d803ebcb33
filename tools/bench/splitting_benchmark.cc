// Splitting on vs off on a polymorphic SL program, interpreter only, in one
// run (issue #4). The program is testing/benchmarks/poly: one `add(a, b)`
// called with Number+Number, String+Number and String+String from three
// callers. With splitting each caller gets its own monomorphic copy of add.
//
//   bazel run -c opt //tools/bench:splitting_benchmark
//   bazel run -c opt //tools/bench:splitting_benchmark -- --benchmark_repetitions=5
//
// Each benchmark loads the program into a fresh engine, warms up (the
// splits happen there), then times run(size) in steady state. At the end it
// prints the time ratio (splitting on / off; below 1 means splitting is
// faster) and TraceSplittingSummary's "Increase in nodes" and the full
// summary of the splitting run. Not a test: nothing here can fail on time.

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "benchmark/benchmark.h"
#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine.h"
#include "languages/sl/sl_context.h"
#include "nodes/heap.h"

namespace morel {
namespace {

// testing/benchmarks/poly/poly.sl without its driver.
constexpr char kProgram[] = R"(
function add(a, b) {
  return a + b;
}

function numbers(n) {
  s = 0;
  i = 0;
  while (i < n) {
    s = add(s, i);
    i = i + 1;
  }
  return s;
}

function labels(n) {
  hits = 0;
  i = 0;
  while (i < n) {
    if (add("k", i - (i / 10) * 10) == "k7") {
      hits = hits + 1;
    }
    i = i + 1;
  }
  return hits;
}

function words(n) {
  hits = 0;
  i = 0;
  while (i < n) {
    if (add("ab", "cd") == "abcd") {
      hits = hits + 1;
    }
    i = i + 1;
  }
  return hits;
}

function run(size) {
  return numbers(size) + labels(size) * 1000 + words(size);
}
)";

constexpr int64_t kSize = 20000;
constexpr int kWarmupCalls = 5;

struct SplittingFigures {
  double increase_in_nodes = 0;
  int splits = 0;
  std::string summary;
};
std::map<bool, SplittingFigures> figures;

void BM_Poly(benchmark::State& state) {
  bool splitting = state.range(0) != 0;
  config::EngineConfig config;
  config.set_splitting(splitting);
  config.set_compilation(false);  // interpreter only
  config.set_backend(config::EngineConfig::none);
  config.set_trace_splitting_summary(true);
  config.set_log("/dev/null");  // the summary is printed below instead
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine =
      runtime::Engine::Create(config);
  if (!engine.ok()) {
    state.SkipWithError(std::string(engine.status().message()).c_str());
    return;
  }
  sl::SLContext context(engine->get(), stdout, stdin);
  absl::StatusOr<sl::SLFunction*> loaded = context.Load(kProgram, "poly.sl");
  if (!loaded.ok()) {
    state.SkipWithError(std::string(loaded.status().message()).c_str());
    return;
  }
  sl::SLFunction* run = context.functions().Find("run");
  Value size = Value::Long(kSize);
  Value expected = context.Call(run, {&size, 1});
  for (int i = 1; i < kWarmupCalls; ++i) context.Call(run, {&size, 1});
  for (auto _ : state) {
    Value result = context.Call(run, {&size, 1});
    if (!(result == expected)) state.SkipWithError("wrong result");
    benchmark::DoNotOptimize(result);
  }
  splitting::SplitStatistics statistics = (*engine)->splitting().statistics();
  SplittingFigures& f = figures[splitting];
  f.increase_in_nodes = statistics.total_created_node_count == 0
                            ? 0
                            : 100.0 * statistics.split_node_count /
                                  statistics.total_created_node_count;
  f.splits = statistics.split_count;
  f.summary = (*engine)->splitting().SummaryText();
  state.counters["splits"] = statistics.split_count;
  state.counters["node_increase_pct"] = f.increase_in_nodes;
}
BENCHMARK(BM_Poly)->Arg(1)->Arg(0)->ArgName("splitting")->Unit(benchmark::kMillisecond);

// Collects the mean time per iteration of each run.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.iterations == 0) continue;
      bool on = run.run_name.str().find("splitting:1") != std::string::npos;
      times[on].push_back(run.real_accumulated_time / run.iterations);
    }
  }
  std::map<bool, std::vector<double>> times;
};

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct Args {
  int argc;
  char** argv;
};

void Main(void* raw) {
  Args* args = static_cast<Args*>(raw);
  benchmark::Initialize(&args->argc, args->argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  if (reporter.times[true].empty() || reporter.times[false].empty()) return;
  double on = Median(reporter.times[true]);
  double off = Median(reporter.times[false]);
  std::printf("\nsplitting on: %.3f ms/run(%lld), off: %.3f ms; ratio on/off = %.3f "
              "(speed-up %.2fx)\n",
              on * 1e3, static_cast<long long>(kSize), off * 1e3, on / off, off / on);
  std::printf("splits: %d; Increase in nodes: %.2f%%\n", figures[true].splits,
              figures[true].increase_in_nodes);
  std::printf("\n[engine] %s\n", figures[true].summary.c_str());
}

}  // namespace
}  // namespace morel

int main(int argc, char** argv) {
  morel::heap::Initialize();
  morel::Args args{argc, argv};
  // Guest code runs on a large stack the collector knows, as in the launcher.
  morel::heap::RunOnLargeStack(size_t{64} << 20, morel::Main, &args);
  return 0;
}
