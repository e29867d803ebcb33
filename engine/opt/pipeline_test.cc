#include "engine/opt/pipeline.h"

#include <sstream>

#include "engine/config/engine_config.pb.h"
#include "engine/opt/pipeline_config.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/opt/canonicalize.h"
#include "engine/opt/dce.h"
#include "engine/opt/gvn.h"
#include "engine/opt/standard_passes.h"
#include "gtest/gtest.h"

namespace morel::opt {
namespace {

constexpr char kText[] = R"(func @f(i64) -> (i64) {
block0(v0: i64):
  v1 = iconst.i64 2
  v2 = iconst.i64 3
  v3 = iadd v1, v2
  v4 = iadd v0, v3
  v5 = iadd v0, v3
  v6 = imul v4, v5
  return v6
}
)";

std::unique_ptr<ir::Function> Parse(const char* text = kText) {
  static ir::RuntimeRegistry registry;
  auto f = ir::ParseFunction(text, &registry);
  EXPECT_TRUE(f.ok()) << f.status();
  return std::move(*f);
}

// A pass that breaks the IR (uses a value before its definition).
class BreakingPass : public Pass {
 public:
  absl::string_view name() const override { return "breaker"; }
  absl::StatusOr<bool> Run(ir::Function& f, PassContext&) override {
    // Move the last instruction before the terminator to the front: its
    // operands no longer dominate it.
    ir::Block* entry = f.entry();
    ir::Instruction* last = entry->instructions()[entry->instructions().size() - 2];
    entry->Remove(last);
    entry->InsertBefore(entry->instructions()[0], last);
    return true;
  }
};

class FailingPass : public Pass {
 public:
  absl::string_view name() const override { return "failing"; }
  absl::StatusOr<bool> Run(ir::Function&, PassContext&) override {
    return absl::UnimplementedError("not today");
  }
};

TEST(PipelineTest, OptionsFromEngineConfig) {
  config::EngineConfig config;
  config.set_dump_ir("gvn, dce");
  config.set_verify_ir(true);
  config.set_disable_passes("guard_elim");
  config.set_optimization_fuel(12);
  auto options = PipelineOptionsFromConfig(config, PassRegistry::Standard());
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->dump_ir, (std::vector<std::string>{"gvn", "dce"}));
  EXPECT_TRUE(options->verify_ir);
  EXPECT_EQ(options->disable_passes, (std::vector<std::string>{"guard_elim"}));
  EXPECT_EQ(options->optimization_fuel, 12);
  EXPECT_TRUE(options->ShouldDump("gvn"));
  EXPECT_FALSE(options->ShouldDump("canonicalize"));
  EXPECT_TRUE(options->IsDisabled("guard_elim"));
}

TEST(PipelineTest, DefaultsFromEngineConfig) {
  auto options = PipelineOptionsFromConfig(config::EngineConfig(), PassRegistry::Standard());
  ASSERT_TRUE(options.ok());
  EXPECT_TRUE(options->dump_ir.empty());
  EXPECT_FALSE(options->verify_ir);
  EXPECT_EQ(options->optimization_fuel, -1);
}

TEST(PipelineTest, UnknownPassNamesAreErrorsNamingThem) {
  config::EngineConfig config;
  config.set_disable_passes("gvn,frobnicate");
  auto options = PipelineOptionsFromConfig(config, PassRegistry::Standard());
  EXPECT_EQ(std::string(options.status().message()), "DisablePasses: unknown pass 'frobnicate'");
  config.clear_disable_passes();
  config.set_dump_ir("pe,nope");
  options = PipelineOptionsFromConfig(config, PassRegistry::Standard());
  EXPECT_EQ(std::string(options.status().message()), "DumpIR: unknown pass 'nope' (accepts pass names, 'pe', 'asm', 'all')");
  auto pipeline = BuildPipeline("canonicalize,bogus", {});
  EXPECT_EQ(std::string(pipeline.status().message()),
            "unknown pass 'bogus' (known passes: canonicalize, dce, guard_elim, guard_hoist, gvn, load_elim, "
            "partial_escape, simplify_cfg)");
}

TEST(PipelineTest, DumpsAfterNamedPasses) {
  std::ostringstream dump;
  PipelineOptions options;
  options.dump_ir = {"gvn"};
  options.dump_stream = &dump;
  auto pipeline = BuildPipeline("canonicalize,gvn,dce", options);
  ASSERT_TRUE(pipeline.ok());
  auto f = Parse();
  ASSERT_TRUE((*pipeline)->Run(*f).ok());
  std::string text = dump.str();
  EXPECT_EQ(text.find(";; IR after gvn (changed)\nfunc @f"), 0u) << text;
  EXPECT_EQ(text.find(";; IR after canonicalize"), std::string::npos);
  EXPECT_EQ(text.find(";; IR after dce"), std::string::npos);
}

TEST(PipelineTest, DumpAll) {
  std::ostringstream dump;
  PipelineOptions options;
  options.dump_ir = {"all"};
  options.dump_stream = &dump;
  auto pipeline = BuildPipeline("canonicalize,gvn,dce,dce", options);
  ASSERT_TRUE(pipeline.ok());
  auto f = Parse();
  ASSERT_TRUE((*pipeline)->Run(*f).ok());
  std::string text = dump.str();
  EXPECT_NE(text.find(";; IR after canonicalize (changed)"), std::string::npos);
  EXPECT_NE(text.find(";; IR after gvn (changed)"), std::string::npos);
  EXPECT_NE(text.find(";; IR after dce (changed)"), std::string::npos);
  EXPECT_NE(text.find(";; IR after dce (unchanged)"), std::string::npos);
}

TEST(PipelineTest, DisabledPassesAreSkipped) {
  PipelineOptions options;
  options.disable_passes = {"gvn"};
  auto pipeline = BuildPipeline("canonicalize,gvn,dce", options);
  ASSERT_TRUE(pipeline.ok());
  auto f = Parse();
  ASSERT_TRUE((*pipeline)->Run(*f).ok());
  // Without gvn, the two equal additions stay.
  EXPECT_NE(ir::PrintFunction(*f).find("v5 = iadd v0, v3"), std::string::npos)
      << ir::PrintFunction(*f);
  const auto& stats = (*pipeline)->stats();
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[1].name, "gvn");
  EXPECT_EQ(stats[1].runs, 0);
  EXPECT_EQ(stats[1].skipped, 1);
  EXPECT_EQ(stats[0].runs, 1);
  EXPECT_EQ(stats[0].changed, 1);
  EXPECT_EQ(stats[0].rewrites, 1);  // v3 folded
  EXPECT_NE((*pipeline)->StatsReport().find("(disabled)"), std::string::npos);
}

TEST(PipelineTest, VerifyAfterEachPassNamesTheBrokenPass) {
  PipelineOptions options;
  options.verify_ir = true;
  Pipeline pipeline(options);
  pipeline.AddPass<Canonicalize>();
  pipeline.AddPass<BreakingPass>();
  pipeline.AddPass<DeadCodeElimination>();
  auto f = Parse();
  absl::StatusOr<bool> r = pipeline.Run(*f);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInternal);
  std::string message(r.status().message());
  EXPECT_EQ(message.rfind("IR verification failed after pass 'breaker':\n", 0), 0u) << message;
  EXPECT_NE(message.find("does not dominate this use"), std::string::npos) << message;
  EXPECT_EQ(pipeline.stats()[2].runs, 0);  // stopped before dce
}

TEST(PipelineTest, WithoutVerifyABrokenPassGoesUnnoticed) {
  Pipeline pipeline;
  pipeline.AddPass<BreakingPass>();
  auto f = Parse();
  EXPECT_TRUE(pipeline.Run(*f).ok());
}

TEST(PipelineTest, VerifiesTheInput) {
  PipelineOptions options;
  options.verify_ir = true;
  Pipeline pipeline(options);
  auto f = Parse("func @bad(i32) -> (i64) {\nblock0(v0: i32):\n  return v0\n}\n");
  auto r = pipeline.Run(*f);
  EXPECT_EQ(std::string(r.status().message()),
            "IR verification failed on the input of 'pipeline':\n"
            "block0: return v0: returns (i32) but the function returns (i64)");
}

TEST(PipelineTest, PassErrorsNameThePass) {
  Pipeline pipeline;
  pipeline.AddPass<FailingPass>();
  auto f = Parse();
  auto r = pipeline.Run(*f);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(std::string(r.status().message()), "pass 'failing': not today");
}

TEST(PipelineTest, PipelinesNestAndShareFuel) {
  auto inner = std::make_unique<Pipeline>(PipelineOptions{}, "inner");
  inner->AddPass<Canonicalize>();
  inner->AddPass<GlobalValueNumbering>();
  Pipeline outer;
  outer.AddPass(std::move(inner));
  outer.AddPass<DeadCodeElimination>();
  auto f = Parse();
  auto r = outer.Run(*f);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  EXPECT_EQ(outer.stats()[0].name, "inner");
  // canonicalize: 1 fold; gvn: 1 merge; dce: v1, v2, v5 removed... all
  // charged to the outer pipeline's fuel exactly once.
  EXPECT_EQ(outer.fuel().consumed(), outer.stats()[0].rewrites + outer.stats()[1].rewrites);
  EXPECT_EQ(outer.stats()[0].rewrites, 2);
}

TEST(PipelineTest, DefaultPipelineRunsAndIsIdempotent) {
  PipelineOptions options;
  options.verify_ir = true;
  auto pipeline = BuildDefaultPipeline(options);
  ASSERT_TRUE(pipeline.ok());
  auto f = Parse();
  ASSERT_TRUE((*pipeline)->Run(*f).ok());
  EXPECT_EQ(ir::PrintFunction(*f), R"(func @f(i64) -> (i64) {
block0(v0: i64):
  v3 = iconst.i64 5
  v4 = iadd v0, v3
  v6 = imul v4, v4
  return v6
}
)");
  auto again = (*pipeline)->Run(*f);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

}  // namespace
}  // namespace morel::opt
