// The language interface with a second language that is not SL: "adder"
// (testing/adder), with its options schema (test_language_options.proto).
// Nothing in engine/ knows about it: it plugs in through the registry, the
// generic launcher and the embedding API.

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/api/embedding.h"
#include "engine/api/language.h"
#include "engine/api/launcher.h"
#include "engine/api/test_language_options.pb.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "testing/adder/adder_language.h"

namespace morel::api {
namespace {

using testing::TestLanguageOptions;

TEST(LanguageRegistryTest, FindsTheLanguageByIdAndExtension) {
  const Language* adder = LanguageRegistry::Find("adder");
  ASSERT_NE(adder, nullptr);
  EXPECT_EQ(adder->name(), "Adder");
  EXPECT_EQ(LanguageRegistry::ForFile("dir/program.add"), adder);
  EXPECT_EQ(LanguageRegistry::ForFile("program.txt"), nullptr);
  EXPECT_EQ(LanguageRegistry::Find("cobol"), nullptr);
}

TEST(LanguageRegistryTest, RefusesADuplicateId) {
  absl::Status status = LanguageRegistry::Register(std::make_unique<adder::AdderLanguage>());
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists) << status;
}

TEST(LanguageOptionsTest, ParsesAndValidatesFromTheSchema) {
  const Language& adder = *LanguageRegistry::Find("adder");
  absl::StatusOr<std::unique_ptr<google::protobuf::Message>> options = ParseLanguageOptions(
      adder, {"MaxDefinitions=5", "StrictMode", "Greeting=hi=there", "MaxDefinitions=3"});
  ASSERT_TRUE(options.ok()) << options.status();
  const auto& parsed = static_cast<const TestLanguageOptions&>(**options);
  EXPECT_EQ(parsed.max_definitions(), 3);
  EXPECT_TRUE(parsed.strict_mode());
  EXPECT_EQ(parsed.greeting(), "hi=there");

  absl::Status out_of_range =
      ParseLanguageOptions(adder, {"MaxDefinitions=1000"}).status();
  EXPECT_EQ(out_of_range.message(),
            "option adder.MaxDefinitions: value 1000 is out of range (expected between 1 "
            "and 100)");
  absl::Status wrong_type = ParseLanguageOptions(adder, {"StrictMode=maybe"}).status();
  EXPECT_EQ(wrong_type.message(),
            "option adder.StrictMode: invalid value 'maybe' (expected true or false)");
  absl::Status unknown = ParseLanguageOptions(adder, {"StrictMod=true"}).status();
  EXPECT_EQ(unknown.message(), "unknown option adder.StrictMod; did you mean adder.StrictMode?");
  EXPECT_EQ(ParseLanguageOptions(adder, {"StrictMod"}).status().message(),
            "unknown option adder.StrictMod; did you mean adder.StrictMode?");
  // Only a boolean option may go without a value.
  absl::Status needs_value = ParseLanguageOptions(adder, {"MaxDefinitions"}).status();
  EXPECT_EQ(needs_value.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(needs_value.message(),
            "option adder.MaxDefinitions needs a value: --adder.MaxDefinitions=<int32>");

  TestLanguageOptions embedder;
  embedder.set_max_definitions(0);
  EXPECT_FALSE(ValidateLanguageOptions(adder, embedder).ok());
  config::EngineConfig not_ours;
  EXPECT_EQ(ValidateLanguageOptions(adder, not_ours).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(LanguageOptionsTest, HelpListsTheLanguagesOptions) {
  std::string help = LanguageOptionsHelpText(*LanguageRegistry::Find("adder"));
  EXPECT_TRUE(absl::StrContains(help, "--adder.MaxDefinitions=<int32>  (default: 10)")) << help;
  EXPECT_TRUE(absl::StrContains(help, "--adder.StrictMode=<bool>  (default: false)")) << help;
  EXPECT_TRUE(absl::StrContains(help, "--adder.Greeting=<string>  (default: hello)")) << help;
  EXPECT_TRUE(absl::StrContains(help, "Range: 1..100.")) << help;
}

// Runs the generic launcher on `program` (a file it writes) with `args`;
// returns the exit status and what it printed.
struct Launched {
  int status;
  std::string out;
  std::string err;
};

std::string ReadAll(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  std::fclose(file);
  return text;
}

Launched RunAdder(const std::string& program, const TestLanguageOptions* options = nullptr) {
  ProgramRun run;
  run.language = LanguageRegistry::Find("adder");
  run.source_text = program;
  run.source_name = "p.add";
  run.language_options = options;
  run.out = std::tmpfile();
  run.err = std::tmpfile();
  int status = RunProgram(run);
  return {status, ReadAll(run.out), ReadAll(run.err)};
}

TEST(LauncherTest, RunsASecondLanguage) {
  Launched ok = RunAdder("main 41\n");
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.out, "hello\n41\n");
  EXPECT_EQ(ok.err, "");

  Launched guest_error = RunAdder("main fail\n");
  EXPECT_EQ(guest_error.status, 1);
  EXPECT_EQ(guest_error.err, "main failed at p.add:1\n");

  Launched syntax_error = RunAdder("main 1\nmain x\n");
  EXPECT_EQ(syntax_error.status, 1);
  EXPECT_EQ(syntax_error.err, "p.add:2:6: expected an integer\n");

  TestLanguageOptions options;
  options.set_strict_mode(true);
  options.set_greeting("strict");
  Launched strict = RunAdder("main -1\n", &options);
  EXPECT_EQ(strict.status, 1);
  EXPECT_EQ(strict.out, "strict\n");
  EXPECT_EQ(strict.err, "p.add:1:6: negative constant (adder.StrictMode)\n");
}

TEST(EmbeddingTest, EmbedsASecondLanguage) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create();
  ASSERT_TRUE(engine.ok()) << engine.status();
  TestLanguageOptions options;
  options.set_max_definitions(2);
  Engine::ContextOptions context_options;
  context_options.language_options = &options;
  absl::StatusOr<std::unique_ptr<Context>> context =
      (*engine)->CreateContext("adder", context_options);
  ASSERT_TRUE(context.ok()) << context.status();

  absl::StatusOr<Value> defined = (*context)->Eval("inc 1\nfail fail\n", "lib.add");
  ASSERT_TRUE(defined.ok()) << defined.status();
  EXPECT_EQ(defined->AsInt64().value_or(-1), 2);
  EXPECT_EQ((*context)->Eval("a 1\nb 2\nc 3\n", "many.add").status().message(),
            "many.add:3:1: too many definitions (adder.MaxDefinitions)");

  absl::StatusOr<Value> inc = (*context)->GetFunction("inc");
  ASSERT_TRUE(inc.ok()) << inc.status();
  EXPECT_TRUE(inc->IsFunction());
  absl::StatusOr<Value> two = (*context)->Call(*inc, {Value::Int64(1)});
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->AsInt64().value_or(-1), 2);

  absl::StatusOr<Value> fail = (*context)->GetFunction("fail");
  ASSERT_TRUE(fail.ok());
  absl::Status failed = (*context)->Call(*fail, {Value::Int64(1)}).status();
  EXPECT_EQ(failed.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(failed.message(), "fail failed at lib.add:2");

  EXPECT_EQ((*context)->Call(*inc, {Value::String("x")}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*engine)->CreateContext("cobol").status().code(), absl::StatusCode::kNotFound);
  config::EngineConfig wrong_schema;
  context_options.language_options = &wrong_schema;
  EXPECT_EQ((*engine)->CreateContext("adder", context_options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Adder overrides none of the member methods: their defaults say so.
TEST(LanguageContextTest, MembersDefaultToUnimplemented) {
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine = runtime::Engine::Create({});
  ASSERT_TRUE(engine.ok()) << engine.status();
  const Language& adder = *LanguageRegistry::Find("adder");
  absl::StatusOr<std::unique_ptr<LanguageContext>> context = adder.CreateContext(
      **engine, /*instance=*/nullptr, nullptr, ContextStreams(), /*owns_engine=*/false);
  ASSERT_TRUE(context.ok()) << context.status();
  const morel::Value object = morel::Value::Long(1);
  const absl::Status unimplemented =
      absl::UnimplementedError("this language's objects have no members from the host");
  EXPECT_EQ((*context)->HasMember(object, "x").status(), unimplemented);
  EXPECT_EQ((*context)->ReadMember(object, "x").status(), unimplemented);
  EXPECT_EQ((*context)->WriteMember(object, "x", object), unimplemented);
  EXPECT_EQ((*context)->MemberKeys(object).status(), unimplemented);
}

// Through the embedding API, adder's values are never objects: refused
// before the language is asked.
TEST(EmbeddingTest, MembersOfASecondLanguagesValues) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create();
  ASSERT_TRUE(engine.ok()) << engine.status();
  absl::StatusOr<std::unique_ptr<Context>> context = (*engine)->CreateContext("adder");
  ASSERT_TRUE(context.ok()) << context.status();
  ASSERT_TRUE((*context)->Eval("inc 1\n", "lib.add").ok());
  absl::StatusOr<Value> inc = (*context)->GetFunction("inc");
  ASSERT_TRUE(inc.ok()) << inc.status();
  absl::Status status = (*context)->GetMember(*inc, "x").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_EQ(status.message(), "expected an object, got a function (<adder value>)");
  EXPECT_EQ((*context)->GetMemberKeys(Value::Int64(1)).status().message(),
            "expected an object, got a number (1)");
}

TEST(EmbeddingTest, RejectsABadEngineConfig) {
  config::EngineConfig config;
  config.set_compiler_threads(-5);
  absl::Status status = Engine::Create(config).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
}

// The command line of the generic launcher: language options, --help, the
// exit statuses.
int Launch(std::vector<std::string> args) {
  std::vector<char*> argv;
  static char name[] = "adder";
  argv.push_back(name);
  for (std::string& arg : args) argv.push_back(arg.data());
  return LauncherMain("adder", static_cast<int>(argv.size()), argv.data());
}

TEST(LauncherMainTest, ReadsLanguageOptionsAndPrintsTheirHelp) {
  std::string path = ::testing::TempDir() + "/main.add";
  std::FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fputs("main 41\n", file);
  std::fclose(file);

  ::testing::internal::CaptureStdout();
  EXPECT_EQ(Launch({"--adder.Greeting=hey", "--engine.Compilation=false", path}), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "hey\n41\n");

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Launch({"--adder.MaxDefinitions=0", path}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "adder: option adder.MaxDefinitions: value 0 is out of range (expected between 1 "
            "and 100)\n");

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Launch({"--adder.StrictMode", "--unknown", path}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "adder: unknown option '--unknown' (engine options are --engine.<Name>=<value>, "
            "adder options --adder.<Name>=<value>; see --help)\n");

  // A bare flag sets a boolean only; another option needs its value, as
  // --engine.<Name> does.
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Launch({"--adder.MaxDefinitions", path}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "adder: option adder.MaxDefinitions needs a value: "
            "--adder.MaxDefinitions=<int32>\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Launch({"--adder.Greeting", path}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "adder: option adder.Greeting needs a value: --adder.Greeting=<string>\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Launch({"--adder.Greting", path}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "adder: unknown option adder.Greting; did you mean adder.Greeting?\n");
  // An empty value is a value.
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(Launch({"--adder.Greeting=", path}), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "\n41\n");

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Launch({path + ".missing"}), 2);
  EXPECT_TRUE(absl::StrContains(::testing::internal::GetCapturedStderr(), "cannot read"));

  ::testing::internal::CaptureStdout();
  EXPECT_EQ(Launch({"--help"}), 0);
  std::string help = ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(absl::StartsWith(
      help, "Usage: adder [--engine.<Name>=<value> ...] [--adder.<Name>=<value> ...] "
            "[file.add]\nRuns main(0).\n\nEngine options."))
      << help;
  EXPECT_TRUE(absl::StrContains(help, "--engine.Compilation=<bool>")) << help;
  EXPECT_TRUE(absl::StrContains(help, "--adder.StrictMode=<bool>")) << help;
}

TEST(GuestLocationTest, RoundTripsThroughTheStatusPayload) {
  absl::Status status = absl::AbortedError("Type error at a:b.sl line 3 col 7: ...");
  EXPECT_FALSE(GuestLocationOf(status).has_value());
  SetGuestLocation(status, {"a:b.sl", 3, 7});  // a source name with ':'
  std::optional<GuestLocation> location = GuestLocationOf(status);
  ASSERT_TRUE(location.has_value());
  EXPECT_EQ(*location, (GuestLocation{"a:b.sl", 3, 7}));
}

TEST(ExitStatusTest, RoundTrips) {
  EXPECT_EQ(ExitStatusOf(ExitStatus(3)), 3);
  EXPECT_EQ(ExitStatusOf(absl::CancelledError("x")), std::nullopt);
  EXPECT_EQ(ExitStatusOf(absl::OkStatus()), std::nullopt);
}

}  // namespace
}  // namespace morel::api
