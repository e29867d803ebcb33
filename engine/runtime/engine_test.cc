// Engine as the NodeRuntime of test-language programs: call-target
// ownership and polymorphism events per node class.

#include "engine/runtime/engine.h"
#include "engine/runtime/native_tier.h"

#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"
#include "testing/test_language/builders.h"

namespace morel::runtime {
namespace {

using test_language::Add;
using test_language::Arg;
using test_language::ClassifyNode;
using test_language::Const;
using test_language::DefineFunction;
using test_language::FunctionValue;
using test_language::Invoke;
using test_language::MakeString;
using test_language::QuietAdd;

std::unique_ptr<Engine> NewEngine(config::EngineConfig config = {}) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(std::move(config));
  EXPECT_TRUE(engine.ok()) << engine.status();
  return *std::move(engine);
}

TEST(EngineTest, OwnsTheCallTargetsItCreates) {
  std::unique_ptr<Engine> engine = NewEngine();
  EXPECT_TRUE(engine->call_targets().empty());
  CallTarget* f = DefineFunction(*engine, "f", Const(1));
  CallTarget* g = DefineFunction(*engine, "g", Add(Arg(0), Const(1)));
  EXPECT_EQ(engine->call_targets(), (std::vector<CallTarget*>{f, g}));
  EXPECT_EQ(f->runtime(), engine.get());
  EXPECT_EQ(g->Call({Value::Long(1)}), Value::Long(2));
  EXPECT_EQ(engine->polymorphic_report_count(), 0);
}

// --engine.Backend for another architecture is refused at engine start,
// naming the host, instead of leaving every program in the interpreter.
TEST(EngineTest, RefusesABackendForAnotherArchitecture) {
  const std::string host = HostArchitecture();
  config::EngineConfig foreign;
  foreign.set_backend(host == "x86_64" ? config::EngineConfig::aarch64
                                       : config::EngineConfig::x86_64);
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(foreign);
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(engine.status().message(), "option engine.Backend"))
      << engine.status();
  EXPECT_TRUE(absl::StrContains(engine.status().message(), absl::StrCat(host, " host")))
      << engine.status();
  config::EngineConfig own;
  own.set_backend(host == "x86_64" ? config::EngineConfig::x86_64
                                   : config::EngineConfig::aarch64);
  EXPECT_TRUE(Engine::Create(own).ok());
}

TEST(EngineTest, CountsPolymorphicEventsPerNodeClass) {
  std::unique_ptr<Engine> engine = NewEngine();
  CallTarget* add = DefineFunction(*engine, "add", Add(Arg(0), Arg(1)));
  CallTarget* quiet = DefineFunction(*engine, "quiet", QuietAdd(Arg(0), Arg(1)));
  CallTarget* classify =
      DefineFunction(*engine, "classify", std::make_unique<ClassifyNode>(Arg(0)));
  CallTarget* callees[3];
  for (int i = 0; i < 3; ++i) callees[i] = DefineFunction(*engine, "callee", Const(i));
  CallTarget* invoke = DefineFunction(*engine, "invoke", Invoke(Arg(0)));

  for (CallTarget* target : {add, quiet}) {
    target->Call({Value::Long(1), Value::Long(2)});
    target->Call({Value::Double(1), Value::Long(2)});        // AddNode: 1
    target->Call({MakeString("s"), Value::Long(2)});          // AddNode: 2
  }
  classify->Call({Value::Long(1)});
  classify->Call({Value::Long(1000)});
  classify->Call({Value::Boolean(true)});                     // megamorphic: 1
  for (CallTarget* callee : callees) invoke->Call({FunctionValue(callee)});  // 2

  std::map<std::string, int> expected = {
      {"AddNode", 2}, {"ClassifyNode", 1}, {"InvokeNode", 2}};
  EXPECT_EQ(engine->PolymorphicReportsByNodeClass(), expected);
  EXPECT_EQ(engine->polymorphic_report_count(), 5);
}

TEST(EngineTest, DestroysCallTargetsThatCallEachOther) {
  std::unique_ptr<Engine> engine = NewEngine();
  CallTarget* caller = DefineFunction(*engine, "caller", Invoke(Arg(0), Arg(1)));
  CallTarget* callee = DefineFunction(*engine, "callee", test_language::CallDirect(caller, Arg(0), Const(0)));
  // callee(f) calls caller(f, 0), which calls f(0): an older target holds a
  // call node to a newer one and the other way round.
  CallTarget* leaf = DefineFunction(*engine, "leaf", Arg(0));
  EXPECT_EQ(callee->Call({FunctionValue(leaf)}), Value::Long(0));
  EXPECT_EQ(caller->call_count(), 1);
  engine.reset();  // under ASan: no use after free
}

TEST(EngineTest, GuestStackOverflowIsAnError) {
  std::unique_ptr<Engine> engine = NewEngine();
  CallTarget* f = DefineFunction(*engine, "f", Invoke(Arg(0), Arg(0)));
  EXPECT_THROW(f->Call({FunctionValue(f)}), StackOverflowError);
}

// Compiled immediately on the calling thread. (Test-language roots do not
// support partial evaluation: their compilations fail; deopt_action_test
// counts successful compilations and deopts.)
config::EngineConfig CompileImmediately() {
  config::EngineConfig config;
  config.set_compile_immediately(true);
  config.set_background_compilation(false);
  config.set_backend(config::EngineConfig::ir_interpreter);
  return config;
}

TEST(EngineTest, CountsCompilerFailuresAndExecutedTargets) {
  std::unique_ptr<Engine> engine = NewEngine(CompileImmediately());
  CallTarget* f = DefineFunction(*engine, "f", Add(Arg(0), Const(1)));
  DefineFunction(*engine, "never_called", Const(0));
  EXPECT_EQ(f->Call({Value::Long(1)}), Value::Long(2));
  EXPECT_EQ(f->Call({Value::Long(2)}), Value::Long(3));
  CompilationStatistics statistics = engine->compilation_statistics();
  EXPECT_EQ(statistics.successful, 0);
  EXPECT_EQ(statistics.failed, 1);  // permanent: attempted once
  EXPECT_EQ(statistics.recompilation_limits, 0);
  EXPECT_EQ(statistics.executed_targets, 1);
  EXPECT_EQ(statistics.due_targets, 1);
}

TEST(EngineTest, DueTargetsCountWhetherOrNotCompilationIsOn) {
  config::EngineConfig config = CompileImmediately();
  config.set_compilation(false);
  std::unique_ptr<Engine> engine = NewEngine(config);
  CallTarget* f = DefineFunction(*engine, "f", Const(1));
  f->Call({});
  CompilationStatistics statistics = engine->compilation_statistics();
  EXPECT_EQ(statistics.successful, 0);
  EXPECT_EQ(statistics.due_targets, 1);
}

TEST(EngineTest, DueTargetsReachedTheFirstThreshold) {
  config::EngineConfig config;
  config.set_multi_tier(false);
  config.set_single_tier_compilation_threshold(3);
  config.set_min_invoke_threshold(1);
  config.set_compilation(false);
  std::unique_ptr<Engine> engine = NewEngine(config);
  CallTarget* hot = DefineFunction(*engine, "hot", Const(1));
  CallTarget* cold = DefineFunction(*engine, "cold", Const(1));
  for (int i = 0; i < 3; ++i) hot->Call({});
  cold->Call({});
  CompilationStatistics statistics = engine->compilation_statistics();
  EXPECT_EQ(statistics.executed_targets, 2);
  EXPECT_EQ(statistics.due_targets, 1);
}

TEST(EngineTest, RecompilationLimitsAreNotCompilerFailures) {
  config::EngineConfig config = CompileImmediately();
  config.set_maximum_compilations(0);
  std::unique_ptr<Engine> engine = NewEngine(config);
  CallTarget* f = DefineFunction(*engine, "f", Const(1));
  EXPECT_EQ(f->Call({}), Value::Long(1));
  CompilationStatistics statistics = engine->compilation_statistics();
  EXPECT_EQ(statistics.successful, 0);
  EXPECT_EQ(statistics.failed, 0);
  EXPECT_EQ(statistics.recompilation_limits, 1);
}

TEST(EngineTest, WritesTheStatisticsFileWhenItCloses) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/compilation_statistics";
  config::EngineConfig config = CompileImmediately();
  config.set_compilation_statistics_file(path);
  std::unique_ptr<Engine> engine = NewEngine(config);
  DefineFunction(*engine, "f", Const(1))->Call({});
  engine->Close();
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text,
            "successful 0\nfailed 1\nrecompilation_limits 0\ndeopts 0\ninvalidations 0\n"
            "executed_targets 1\ndue_targets 1\nbackground_compilation 0\ndeopt_every_n 0\n");
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// PrintHeapStatistics: one line when the engine closes, with what the
// collector measured (the allocation and collections made here show).
TEST(EngineTest, PrintsHeapStatisticsWhenItCloses) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/heap_statistics.log";
  config::EngineConfig config;
  config.set_print_heap_statistics(true);
  config.set_log(path);
  std::unique_ptr<Engine> engine = NewEngine(config);
  heap::Statistics before = heap::GetStatistics();
  for (int i = 0; i < 4000; ++i) MakeString(std::string(1000, 'x'));
  heap::Collect();
  engine->Close();
  std::string text = ReadFile(path);
  std::smatch match;
  ASSERT_TRUE(std::regex_match(
      text, match,
      std::regex("\\[engine\\] heap allocated_bytes=([0-9]+) collections=([0-9]+) "
                 "gc_ms=([0-9.]+) total_ms=([0-9.]+) gc_percent=[0-9.]+ heap_bytes=[0-9]+ "
                 "free_bytes=[0-9]+ markers=[0-9]+ incremental=[01]\n")))
      << text;
  EXPECT_GE(std::stoull(match[1]), before.allocated_bytes + 4000 * 1000);
  EXPECT_GE(std::stoull(match[2]), before.collections + 1);
  EXPECT_GT(std::stod(match[3]), before.gc_nanoseconds / 1e6);
  EXPECT_GT(std::stod(match[4]), before.elapsed_nanoseconds / 1e6);
  engine.reset();  // closed already: nothing more is logged
  EXPECT_EQ(ReadFile(path), text);
}

TEST(EngineTest, PrintsNoHeapStatisticsByDefault) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/no_heap_statistics.log";
  config::EngineConfig config;
  config.set_log(path);
  NewEngine(config)->Close();
  EXPECT_EQ(ReadFile(path), "");
}

}  // namespace
}  // namespace morel::runtime
