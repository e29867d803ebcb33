#include "engine/config/option_registry.h"

#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace morel::config {
namespace {

using ::testing::HasSubstr;

const OptionRegistry& Registry() { return OptionRegistry::Get(); }

TEST(FieldNameToOptionNameTest, CapitalizesWordsAndAcronyms) {
  EXPECT_EQ(FieldNameToOptionName("splitting_max_callee_size"),
            "SplittingMaxCalleeSize");
  EXPECT_EQ(FieldNameToOptionName("osr_compilation_threshold"),
            "OSRCompilationThreshold");
  EXPECT_EQ(FieldNameToOptionName("osr_max_compilation_re_attempts"),
            "OSRMaxCompilationReAttempts");
  EXPECT_EQ(FieldNameToOptionName("osr"), "OSR");
  EXPECT_EQ(FieldNameToOptionName("dump_ir"), "DumpIR");
  EXPECT_EQ(FieldNameToOptionName("deopt_every_n"), "DeoptEveryN");
  EXPECT_EQ(FieldNameToOptionName("max_cpu_time"), "MaxCPUTime");
  EXPECT_EQ(FieldNameToOptionName("max_ast_depth"), "MaxASTDepth");
}

TEST(OptionRegistryTest, EveryFieldIsAnOptionWithAUniqueNameAndHelp) {
  const auto* descriptor = EngineConfig::descriptor();
  ASSERT_EQ(Registry().options().size(), descriptor->field_count());
  std::set<std::string> names;
  for (const OptionInfo& option : Registry().options()) {
    EXPECT_TRUE(names.insert(option.name).second) << option.name;
    EXPECT_FALSE(option.spec.help().empty()) << option.name;
    EXPECT_EQ(Registry().Find(option.name), &option);
  }
}

// The defaults of ../shared/docs/truffle_reference.md, under Truffle's names.
TEST(OptionRegistryTest, DefaultsMatchTruffle) {
  const std::pair<const char*, const char*> expected[] = {
      {"Compilation", "true"},
      {"CompileImmediately", "false"},
      {"BackgroundCompilation", "true"},
      {"CompilerThreads", "-1"},
      {"MultiTier", "true"},
      {"FirstTierCompilationThreshold", "400"},
      {"FirstTierMinInvokeThreshold", "1"},
      {"LastTierCompilationThreshold", "10000"},
      {"MinInvokeThreshold", "3"},
      {"SingleTierCompilationThreshold", "1000"},
      {"MaximumCompilations", "100"},
      {"CompilationFailureAction", "Silent"},
      {"Mode", "default"},
      {"Splitting", "true"},
      {"SplittingAllowForcedSplits", "true"},
      {"SplittingDumpDecisions", "false"},
      {"SplittingGrowthLimit", "1.5"},
      {"SplittingMaxCalleeSize", "100"},
      {"SplittingMaxPropagationDepth", "5"},
      {"SplittingTraceEvents", "false"},
      {"TraceSplitting", "false"},
      {"TraceSplittingSummary", "false"},
      {"Inlining", "true"},
      {"InliningExpansionBudget", "12000"},
      {"InliningInliningBudget", "12000"},
      {"InliningRecursionDepth", "2"},
      {"TraceInlining", "false"},
      {"OSR", "true"},
      {"OSRCompilationThreshold", "100352"},
      {"OSRMaxCompilationReAttempts", "30"},
      {"TraceCompilation", "false"},
      {"TraceCompilationDetails", "false"},
      {"Log", ""},
      {"Backend", "host"},
      {"BackendPlugin", ""},
  };
  for (const auto& [name, default_text] : expected) {
    const OptionInfo* option = Registry().Find(name);
    ASSERT_NE(option, nullptr) << name;
    EXPECT_EQ(option->DefaultText(), default_text) << name;
  }
}

TEST(OptionRegistryTest, SetsEveryType) {
  EngineConfig config;
  ASSERT_TRUE(Registry().Set(config, "Compilation", "false").ok());
  ASSERT_TRUE(Registry().Set(config, "TraceSplitting", "TRUE").ok());
  ASSERT_TRUE(Registry().Set(config, "SplittingMaxCalleeSize", "250").ok());
  ASSERT_TRUE(Registry().Set(config, "OptimizationFuel", "9000000000").ok());
  ASSERT_TRUE(Registry().Set(config, "SplittingGrowthLimit", "2.25").ok());
  ASSERT_TRUE(Registry().Set(config, "CompilationFailureAction", "exitvm").ok());
  ASSERT_TRUE(Registry().Set(config, "Backend", "none").ok());
  ASSERT_TRUE(Registry().Set(config, "Log", "/tmp/engine.log").ok());
  EXPECT_FALSE(config.compilation());
  EXPECT_TRUE(config.trace_splitting());
  EXPECT_EQ(config.splitting_max_callee_size(), 250);
  EXPECT_EQ(config.optimization_fuel(), 9000000000);
  EXPECT_DOUBLE_EQ(config.splitting_growth_limit(), 2.25);
  EXPECT_EQ(config.compilation_failure_action(), EngineConfig::ExitVM);
  EXPECT_EQ(config.backend(), EngineConfig::none);
  EXPECT_EQ(config.log(), "/tmp/engine.log");
}

TEST(OptionRegistryTest, SetFromFlagTakesABareNameForBooleansOnly) {
  EngineConfig config;
  ASSERT_TRUE(Registry().SetFromFlag(config, "TraceSplitting").ok());
  ASSERT_TRUE(Registry().SetFromFlag(config, "SplittingMaxCalleeSize=250").ok());
  ASSERT_TRUE(Registry().SetFromFlag(config, "Log=/tmp/a=b.log").ok());
  EXPECT_TRUE(config.trace_splitting());
  EXPECT_EQ(config.splitting_max_callee_size(), 250);
  EXPECT_EQ(config.log(), "/tmp/a=b.log");
  EXPECT_EQ(Registry().SetFromFlag(config, "Log").message(),
            "option engine.Log needs a value: --engine.Log=<path>");
  EXPECT_EQ(Registry().SetFromFlag(config, "SplittingGrowthLimit").message(),
            "option engine.SplittingGrowthLimit needs a value: "
            "--engine.SplittingGrowthLimit=<double>");
  EXPECT_EQ(Registry().SetFromFlag(config, "TraceSpliting").message(),
            "unknown option engine.TraceSpliting; did you mean engine.TraceSplitting?");
  EXPECT_EQ(config.log(), "/tmp/a=b.log");  // unchanged by the errors
}

TEST(OptionRegistryTest, UnknownOptionSuggestsTheClosestName) {
  EngineConfig config;
  absl::Status status = Registry().Set(config, "SplitingMaxCalleeSize", "1");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "unknown option engine.SplitingMaxCalleeSize; did you mean "
            "engine.SplittingMaxCalleeSize?");
  status = Registry().Set(config, "osrcompilationthreshold", "1");
  EXPECT_THAT(status.message(), HasSubstr("did you mean engine.OSRCompilationThreshold?"));
  status = Registry().Set(config, "Frobnicate", "1");
  EXPECT_EQ(status.message(),
            "unknown option engine.Frobnicate (--help lists every option)");
}

TEST(OptionRegistryTest, WrongTypesNameTheOptionAndWhatItAccepts) {
  EngineConfig config;
  EXPECT_EQ(Registry().Set(config, "SplittingMaxCalleeSize", "ten").message(),
            "option engine.SplittingMaxCalleeSize: invalid value 'ten' "
            "(expected a 32-bit integer)");
  EXPECT_EQ(
      Registry().Set(config, "SplittingMaxCalleeSize", "3000000000").message(),
      "option engine.SplittingMaxCalleeSize: invalid value '3000000000' "
      "(expected a 32-bit integer)");
  EXPECT_EQ(Registry().Set(config, "Compilation", "yes").message(),
            "option engine.Compilation: invalid value 'yes' (expected true or "
            "false)");
  EXPECT_EQ(Registry().Set(config, "SplittingGrowthLimit", "nan").message(),
            "option engine.SplittingGrowthLimit: invalid value 'nan' (expected "
            "a finite number)");
  EXPECT_EQ(Registry().Set(config, "CompilationFailureAction", "Loud").message(),
            "option engine.CompilationFailureAction: invalid value 'Loud' "
            "(expected one of Silent, Print, Throw, Diagnose, ExitVM)");
  EXPECT_FALSE(config.has_splitting_max_callee_size());
  EXPECT_FALSE(config.has_compilation());
}

TEST(OptionRegistryTest, OutOfRangeValuesAreRejected) {
  EngineConfig config;
  EXPECT_EQ(Registry().Set(config, "FirstTierCompilationThreshold", "-1").message(),
            "option engine.FirstTierCompilationThreshold: value -1 is out of "
            "range (expected >= 0)");
  EXPECT_EQ(Registry().Set(config, "SplittingGrowthLimit", "-0.5").message(),
            "option engine.SplittingGrowthLimit: value -0.5 is out of range "
            "(expected >= 0)");
  EXPECT_EQ(Registry().Set(config, "CompilerThreads", "65").message(),
            "option engine.CompilerThreads: value 65 is out of range (expected "
            "between -1 and 64)");
  EXPECT_TRUE(Registry().Set(config, "CompilerThreads", "-1").ok());
  EXPECT_TRUE(Registry().Set(config, "MaximumCompilations", "-5").ok());
}

TEST(OptionRegistryTest, ValidateChecksRangesOfSetFields) {
  EngineConfig config;
  EXPECT_TRUE(Registry().Validate(config).ok());
  config.set_osr_compilation_threshold(-3);
  EXPECT_EQ(Registry().Validate(config).message(),
            "option engine.OSRCompilationThreshold: value -3 is out of range "
            "(expected >= 0)");
}

TEST(OptionRegistryTest, HelpListsEveryOptionWithTypeAndDefault) {
  std::string help = Registry().HelpText();
  for (const OptionInfo& option : Registry().options()) {
    EXPECT_THAT(help, HasSubstr("--engine." + option.name + "=<")) << option.name;
  }
  EXPECT_THAT(help, HasSubstr("--engine.SplittingMaxCalleeSize=<int32>  (default: 100)"));
  EXPECT_THAT(help, HasSubstr("--engine.CompilationFailureAction=<Silent|Print|Throw|Diagnose|ExitVM>  (default: Silent)"));
  EXPECT_THAT(help, HasSubstr("--engine.Log=<path>  (default: not set)"));
  EXPECT_THAT(help, HasSubstr("Debug options"));
}

TEST(OptionRegistryTest, SandboxLimitsAreGraalVMs) {
  for (const char* name : {"MaxCPUTime", "MaxHeapMemory", "MaxStackFrames", "MaxASTDepth",
                           "MaxOutputStreamSize"}) {
    EXPECT_NE(Registry().Find(name), nullptr) << name;
  }
  EngineConfig config;
  EXPECT_TRUE(Registry().Set(config, "MaxCPUTime", "250ms").ok());
  EXPECT_EQ(ParseQuantity(OptionSpec::DURATION, config.max_cpu_time()).value(), 250);
  EXPECT_EQ(ParseQuantity(OptionSpec::DURATION, "2m").value(), 120000);
  EXPECT_EQ(ParseQuantity(OptionSpec::DURATION, "").value(), -1);
  EXPECT_TRUE(Registry().Set(config, "MaxHeapMemory", "64MB").ok());
  EXPECT_EQ(ParseQuantity(OptionSpec::BYTE_SIZE, config.max_heap_memory()).value(), 64 << 20);
  EXPECT_EQ(ParseQuantity(OptionSpec::BYTE_SIZE, "3KB").value(), 3072);
  EXPECT_TRUE(Registry().Set(config, "MaxOutputStreamSize", "0B").ok());
  EXPECT_TRUE(Registry().Set(config, "MaxStackFrames", "100").ok());
  EXPECT_TRUE(Registry().Set(config, "MaxASTDepth", "40").ok());
  EXPECT_TRUE(Registry().Validate(config).ok());
}

TEST(OptionRegistryTest, BadSandboxLimitsNameTheOptionAndWhatItAccepts) {
  EngineConfig config;
  EXPECT_EQ(Registry().Set(config, "MaxCPUTime", "10").message(),
            "option engine.MaxCPUTime: invalid value '10' (expected a duration such as "
            "500ms, 10s, 2m, 1h or 1d, or empty for no limit)");
  EXPECT_EQ(Registry().Set(config, "MaxCPUTime", "0ms").message(),
            "option engine.MaxCPUTime: value '0ms' is out of range (expected at least 1ms)");
  EXPECT_EQ(Registry().Set(config, "MaxHeapMemory", "1TB").message(),
            "option engine.MaxHeapMemory: invalid value '1TB' (expected a size such as "
            "4096B, 64KB, 100MB or 2GB, or empty for no limit)");
  EXPECT_FALSE(Registry().Set(config, "MaxHeapMemory", "-5MB").ok());
  EXPECT_FALSE(Registry().Set(config, "MaxOutputStreamSize", "99999999999999999999B").ok());
  EXPECT_EQ(Registry().Set(config, "MaxStackFrames", "-1").message(),
            "option engine.MaxStackFrames: value -1 is out of range (expected >= 0)");
  EXPECT_FALSE(Registry().Set(config, "MaxASTDepth", "deep").ok());
  // A config built by an embedder is validated too.
  config.set_max_cpu_time("soon");
  EXPECT_EQ(Registry().Validate(config).message(),
            "option engine.MaxCPUTime: invalid value 'soon' (expected a duration such as "
            "500ms, 10s, 2m, 1h or 1d, or empty for no limit)");
}

}  // namespace
}  // namespace morel::config
