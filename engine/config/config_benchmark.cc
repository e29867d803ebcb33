// Microbenchmarks for option parsing (issue 7):
//   bazel run -c opt //engine/config:config_benchmark
//   bazel run --config=bench //engine/config:config_benchmark -- --benchmark_filter=Set
//
// What a launcher pays per option: OptionRegistry::Set for each value type
// and for an unknown name (which computes a suggestion), and
// BuildEngineConfig / ParseCommandLine for a typical handful of flags.

#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/config/config_loader.h"
#include "engine/config/option_registry.h"

namespace morel::config {
namespace {

// One option set through the registry: (name, value).
void BM_RegistrySet(benchmark::State& state, const char* name, const char* value) {
  const OptionRegistry& registry = OptionRegistry::Get();
  EngineConfig config;
  for (auto _ : state) {
    absl::Status status = registry.Set(config, name, value);
    benchmark::DoNotOptimize(status);
    if (!status.ok()) state.SkipWithError("Set failed");
  }
}
BENCHMARK_CAPTURE(BM_RegistrySet, bool, "Compilation", "false");
BENCHMARK_CAPTURE(BM_RegistrySet, int32, "SplittingMaxCalleeSize", "250");
BENCHMARK_CAPTURE(BM_RegistrySet, double, "SplittingGrowthLimit", "2.25");
BENCHMARK_CAPTURE(BM_RegistrySet, enum, "CompilationFailureAction", "ExitVM");
BENCHMARK_CAPTURE(BM_RegistrySet, string, "Log", "/tmp/engine.log");

// An unknown option: the error path, including the "did you mean" search.
void BM_RegistrySetUnknown(benchmark::State& state) {
  const OptionRegistry& registry = OptionRegistry::Get();
  EngineConfig config;
  for (auto _ : state) {
    absl::Status status = registry.Set(config, "SplitingMaxCalleSize", "1");
    benchmark::DoNotOptimize(status);
  }
}
BENCHMARK(BM_RegistrySetUnknown);

void BM_RegistryFind(benchmark::State& state) {
  const OptionRegistry& registry = OptionRegistry::Get();
  for (auto _ : state) {
    benchmark::DoNotOptimize(registry.Find("OSRCompilationThreshold"));
  }
}
BENCHMARK(BM_RegistryFind);

const std::vector<std::string>& TypicalFlags() {
  static const auto* flags = new std::vector<std::string>{
      "--engine.Compilation=false",
      "--engine.SplittingMaxCalleeSize=250",
      "--engine.SplittingGrowthLimit=2.25",
      "--engine.TraceSplitting",
      "--engine.CompilationFailureAction=ExitVM",
      "--engine.MinInvokeThreshold=7",
  };
  return *flags;
}

// Schema defaults only: the floor cost of building a configuration.
void BM_BuildEngineConfigDefaults(benchmark::State& state) {
  ConfigSources sources;
  for (auto _ : state) {
    absl::StatusOr<EngineConfig> config = BuildEngineConfig(sources);
    benchmark::DoNotOptimize(config);
  }
}
BENCHMARK(BM_BuildEngineConfigDefaults);

// Six flags plus two options from MOREL_OPTIONS.
void BM_BuildEngineConfigFlags(benchmark::State& state) {
  ConfigSources sources;
  sources.environment = "--engine.InliningRecursionDepth=3 --engine.TraceInlining";
  sources.flags = TypicalFlags();
  for (auto _ : state) {
    absl::StatusOr<EngineConfig> config = BuildEngineConfig(sources);
    if (!config.ok()) state.SkipWithError("BuildEngineConfig failed");
    benchmark::DoNotOptimize(config);
  }
}
BENCHMARK(BM_BuildEngineConfigFlags);

// A launcher's whole command line: the flags mixed with a program argument.
void BM_ParseCommandLine(benchmark::State& state) {
  std::vector<std::string> args = TypicalFlags();
  args.insert(args.begin() + 3, "program.sl");
  for (auto _ : state) {
    absl::StatusOr<CommandLine> command_line = ParseCommandLine(args, std::nullopt);
    if (!command_line.ok()) state.SkipWithError("ParseCommandLine failed");
    benchmark::DoNotOptimize(command_line);
  }
}
BENCHMARK(BM_ParseCommandLine);

}  // namespace
}  // namespace morel::config
