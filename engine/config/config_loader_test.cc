#include "engine/config/config_loader.h"

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace morel::config {
namespace {

// Debian's Abseil has its own string_view, which gtest prints char by char.
std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string WriteFile(const std::string& name, const std::string& contents) {
  std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream(path) << contents;
  return path;
}

TEST(BuildEngineConfigTest, DefaultsWhenNothingIsGiven) {
  absl::StatusOr<EngineConfig> config = BuildEngineConfig({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->compilation());
  EXPECT_EQ(config->splitting_max_callee_size(), 100);
  EXPECT_FALSE(config->has_splitting_max_callee_size());
}

TEST(BuildEngineConfigTest, PrecedenceIsEnvironmentFileFlagsEmbedder) {
  std::string file = WriteFile("precedence.textproto",
                               "splitting_max_callee_size: 20\n"
                               "inlining_recursion_depth: 4\n"
                               "osr_compilation_threshold: 2048\n");
  EngineConfig embedder;
  embedder.set_osr_compilation_threshold(4096);
  ConfigSources sources;
  sources.environment =
      "--engine.SplittingMaxCalleeSize=10 --engine.InliningRecursionDepth=3 "
      "--engine.MinInvokeThreshold=7  --engine.TraceSplitting";
  sources.flags = {"--engine.InliningRecursionDepth=5",
                   absl::StrCat("--engine.Config=", file),
                   "--engine.OSRCompilationThreshold=1024"};
  sources.embedder = &embedder;
  absl::StatusOr<EngineConfig> config = BuildEngineConfig(sources);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->min_invoke_threshold(), 7);          // environment only
  EXPECT_TRUE(config->trace_splitting());                // environment only
  EXPECT_EQ(config->splitting_max_callee_size(), 20);    // file beats environment
  EXPECT_EQ(config->inlining_recursion_depth(), 5);      // flag beats file
  EXPECT_EQ(config->osr_compilation_threshold(), 4096);  // embedder beats all
}

TEST(BuildEngineConfigTest, BareFlagSetsBooleansOnly) {
  ConfigSources sources;
  sources.flags = {"--engine.CompileImmediately"};
  absl::StatusOr<EngineConfig> config = BuildEngineConfig(sources);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->compile_immediately());

  sources.flags = {"--engine.SplittingMaxCalleeSize"};
  EXPECT_EQ(Message(BuildEngineConfig(sources).status()),
            "option engine.SplittingMaxCalleeSize needs a value: "
            "--engine.SplittingMaxCalleeSize=<int32>");
}

TEST(BuildEngineConfigTest, EnvironmentErrorsSayWhereTheyCameFrom) {
  ConfigSources sources;
  sources.environment = "--engine.Splitting=maybe";
  EXPECT_EQ(Message(BuildEngineConfig(sources).status()),
            "MOREL_OPTIONS: option engine.Splitting: invalid value 'maybe' "
            "(expected true or false)");
  sources.environment = "Splitting=true";
  EXPECT_EQ(Message(BuildEngineConfig(sources).status()),
            "MOREL_OPTIONS: 'Splitting=true' is not an engine option (expected "
            "--engine.<Name>=<value>)");
  sources.environment = "--engine.Config=x.textproto";
  EXPECT_THAT(Message(BuildEngineConfig(sources).status()),
              HasSubstr("engine.Config is accepted only on the command line"));
}

TEST(BuildEngineConfigTest, EmbedderConfigIsValidated) {
  EngineConfig embedder;
  embedder.set_splitting_growth_limit(-1);
  ConfigSources sources;
  sources.embedder = &embedder;
  EXPECT_EQ(Message(BuildEngineConfig(sources).status()),
            "embedder EngineConfig: option engine.SplittingGrowthLimit: value "
            "-1 is out of range (expected >= 0)");
}

TEST(ParseConfigTextTest, ReportsTheLineOfAMalformedValue) {
  absl::StatusOr<EngineConfig> config = ParseConfigText(
      "compilation: true\n# comment\nsplitting_max_callee_size: abc\n",
      "bad.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(Message(config.status()),
            "bad.textproto:3:28: Expected integer, got: abc (in "
            "\"splitting_max_callee_size: abc\")");
}

TEST(ParseConfigTextTest, InvalidValueAtEndOfLinePointsAtThatLine) {
  absl::StatusOr<EngineConfig> config =
      ParseConfigText("compilation: true\nosr: maybe\n\n", "bool.textproto");
  EXPECT_EQ(Message(config.status()),
            "bool.textproto:2:6: Invalid value for boolean field \"osr\". "
            "Value: \"maybe\". (in \"osr: maybe\")");
}

TEST(ParseConfigTextTest, UnknownFieldSuggestsTheClosestField) {
  absl::StatusOr<EngineConfig> config =
      ParseConfigText("\n  splitting_max_calee_size: 3\n", "typo.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(Message(config.status()),
            "typo.textproto:2:27: Message type \"morel.config.EngineConfig\" has "
            "no field named \"splitting_max_calee_size\". Did you mean "
            "splitting_max_callee_size? (in \"splitting_max_calee_size: 3\")");
}

TEST(ParseConfigTextTest, OutOfRangeValuesInFilesAreRejected) {
  absl::StatusOr<EngineConfig> config =
      ParseConfigText("splitting_growth_limit: -2\n", "range.textproto");
  EXPECT_EQ(Message(config.status()),
            "range.textproto: option engine.SplittingGrowthLimit: value -2 is "
            "out of range (expected >= 0)");
}

TEST(ParseConfigTextTest, EnumsBySchemaName) {
  absl::StatusOr<EngineConfig> config = ParseConfigText(
      "backend: none compilation_failure_action: Print mode: latency", "e");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->backend(), EngineConfig::none);
  EXPECT_EQ(config->compilation_failure_action(), EngineConfig::Print);
  EXPECT_EQ(config->mode(), EngineConfig::latency);
}

TEST(ReadConfigFileTest, MissingFileNamesThePath) {
  absl::StatusOr<EngineConfig> config =
      ReadConfigFile("/nonexistent/morel.textproto");
  EXPECT_EQ(config.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(Message(config.status()),
            "option engine.Config: cannot read '/nonexistent/morel.textproto': "
            "No such file or directory");
  EXPECT_THAT(Message(ReadConfigFile("").status()),
              HasSubstr("needs a file"));
}

TEST(ParseCommandLineTest, SeparatesEngineOptionsHelpAndArguments) {
  std::vector<std::string> args = {"prog.sl", "--engine.TraceCompilation",
                                   "--sl.Other", "--help:engine", "--",
                                   "--engine.NotAnOption"};
  absl::StatusOr<CommandLine> command_line =
      ParseCommandLine(args, std::nullopt);
  ASSERT_TRUE(command_line.ok()) << command_line.status();
  EXPECT_TRUE(command_line->help);
  EXPECT_TRUE(command_line->config.trace_compilation());
  EXPECT_THAT(command_line->arguments,
              ElementsAre("prog.sl", "--sl.Other", "--engine.NotAnOption"));
}

TEST(ParseCommandLineTest, UnknownOptionFailsTheWholeCommandLine) {
  std::vector<std::string> args = {"--engine.Compilation=false",
                                   "--engine.TraceCompilaton"};
  EXPECT_EQ(Message(ParseCommandLine(args, std::nullopt).status()),
            "unknown option engine.TraceCompilaton; did you mean "
            "engine.TraceCompilation?");
}

TEST(EngineHelpTextTest, MentionsEverySource) {
  std::string help = EngineHelpText();
  EXPECT_THAT(help, HasSubstr("MOREL_OPTIONS"));
  EXPECT_THAT(help, HasSubstr("--engine.Config=<file.textproto>"));
}

}  // namespace
}  // namespace morel::config
