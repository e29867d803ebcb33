// The engine delegates splitting to splitting::SplittingStrategy: budget on
// CreateCallTarget, marking on polymorphic reports, splits it owns, forced
// splits, and the summary when it closes.

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "testing/test_language/builders.h"

namespace morel::runtime {
namespace {

using namespace test_language;  // NOLINT: the test language's builders

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

std::unique_ptr<Engine> NewEngine(config::EngineConfig config) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(std::move(config));
  EXPECT_TRUE(engine.ok()) << engine.status();
  return *std::move(engine);
}

TEST(EngineSplittingTest, SplitsAPolymorphicTargetAndOwnsTheCopy) {
  std::unique_ptr<Engine> engine = NewEngine(config::EngineConfig());
  CallTarget* f = DefineFunction(
      *engine, "f", std::make_unique<TurnsPolymorphicOnZeroNode>(Arg(0)), nullptr,
      RootOptions{true, -1});
  // Budget: (int)(1.5 * 3) per loaded target.
  EXPECT_EQ(engine->splitting().split_limit(), 4);
  for (int i = 0; i < 3; ++i) DefineFunction(*engine, "pad", Const(i));
  auto a = DirectCallNode::Create(f);
  auto b = DirectCallNode::Create(f);
  a->Call({Value::Long(1)});
  a->Call({Value::Long(1)});
  b->Call({Value::Long(0)});
  EXPECT_TRUE(f->needs_split());
  EXPECT_EQ(engine->PolymorphicReportsByNodeClass()["TurnsPolymorphicOnZeroNode"], 1);
  a->Call({Value::Long(1)});
  ASSERT_TRUE(a->IsCallTargetCloned());
  CallTarget* split = a->current_call_target();
  EXPECT_EQ(engine->call_targets().back(), split);
  EXPECT_EQ(split->runtime(), engine.get());
  EXPECT_EQ(split->source_call_target(), f);
  // Split copies do not grow the budget.
  EXPECT_EQ(engine->splitting().split_limit(), 4 + 3 * 3);  // pads: 2 nodes each
  EXPECT_EQ(engine->splitting().split_count(), 3);
}

TEST(EngineSplittingTest, ForcedSplitThroughTheEngine) {
  std::unique_ptr<Engine> engine = NewEngine(config::EngineConfig());
  CallTarget* f = DefineFunction(*engine, "f", Const(1), nullptr, RootOptions{true, -1});
  auto call = DirectCallNode::Create(f);
  EXPECT_TRUE(call->CloneCallTarget());
  EXPECT_EQ(call->Call({}), Value::Long(1));
  EXPECT_EQ(engine->splitting().statistics().forced_split_count, 1);
}

TEST(EngineSplittingTest, LatencyModeDisablesSplitting) {
  config::EngineConfig config;
  config.set_mode(config::EngineConfig::latency);
  std::unique_ptr<Engine> engine = NewEngine(config);
  CallTarget* f = DefineFunction(*engine, "f", Const(1), nullptr, RootOptions{true, -1});
  auto call = DirectCallNode::Create(f);
  EXPECT_FALSE(call->CloneCallTarget());
  EXPECT_EQ(engine->splitting().split_limit(), 0);
}

TEST(EngineSplittingTest, SummaryPrintedOnceWhenTheEngineCloses) {
  std::string log = TempPath("engine_summary.log");
  config::EngineConfig config;
  config.set_trace_splitting_summary(true);
  config.set_log(log);
  std::unique_ptr<Engine> engine = NewEngine(config);
  DefineFunction(*engine, "f", Const(1));
  engine->Close();
  std::string text = ReadFile(log);
  EXPECT_EQ(text.rfind("[engine] Splitting Statistics\n", 0), 0u) << text;
  engine.reset();
  EXPECT_EQ(ReadFile(log), text);  // not again from the destructor
}

}  // namespace
}  // namespace morel::runtime
