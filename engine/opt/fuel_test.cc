#include "engine/opt/fuel.h"

#include <string>
#include <vector>

#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"
#include "gtest/gtest.h"

namespace morel::opt {
namespace {

TEST(FuelTest, CountsAndRefuses) {
  Fuel unlimited;
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(unlimited.Consume());
  EXPECT_EQ(unlimited.consumed(), 5);
  EXPECT_FALSE(unlimited.exhausted());

  Fuel two(2);
  EXPECT_TRUE(two.Consume());
  EXPECT_TRUE(two.Consume());
  EXPECT_FALSE(two.exhausted());
  EXPECT_FALSE(two.Consume());
  EXPECT_TRUE(two.exhausted());
  EXPECT_EQ(two.consumed(), 2);

  Fuel none(0);
  EXPECT_FALSE(none.Consume());
}

constexpr char kProgram[] = R"(func @f(i64, i1) -> (i64) {
  fs0 = eager interpreter target 1 resume 0 locals [v0:v0] stack []
block0(v0: i64, v1: i1):
  v2 = iconst.i64 1
  v3 = iconst.i64 2
  v4 = iadd v2, v3
  v5 = iadd v0, v4
  v6 = iadd v0, v4
  v7 = imul v5, v6
  guard v1, fs0, "a"
  guard v1, fs0, "b"
  v8 = iconst.i1 1
  br v8, block1, block2
block1:
  return v7
block2:
  v9 = iadd v7, v2
  return v9
}
)";

// Runs the default pipeline with `fuel`; returns the printed result and
// the number of rewrites made.
std::pair<std::string, int64_t> RunWithFuel(int64_t fuel) {
  ir::RuntimeRegistry registry;
  auto f = ir::ParseFunction(kProgram, &registry);
  EXPECT_TRUE(f.ok());
  PipelineOptions options;
  options.verify_ir = true;
  options.optimization_fuel = fuel;
  auto pipeline = BuildDefaultPipeline(options);
  EXPECT_TRUE(pipeline.ok());
  auto r = (*pipeline)->Run(**f);
  EXPECT_TRUE(r.ok()) << r.status();
  return {ir::PrintFunction(**f), (*pipeline)->fuel().consumed()};
}

// Every fuel level yields valid IR (the pipeline verifies), makes exactly
// min(fuel, total) rewrites, and each extra unit changes the output by one
// rewrite, so a miscompile bisects to a single rewrite.
TEST(FuelTest, EachUnitIsExactlyOneRewrite) {
  auto [unlimited_text, total] = RunWithFuel(-1);
  ASSERT_GT(total, 5);
  std::string previous;
  for (int64_t fuel = 0; fuel <= total; ++fuel) {
    auto [text, used] = RunWithFuel(fuel);
    EXPECT_EQ(used, fuel);
    if (fuel > 0) {
      EXPECT_NE(text, previous) << "fuel " << fuel << " changed nothing";
    }
    previous = text;
  }
  EXPECT_EQ(previous, unlimited_text);
  auto [over, used] = RunWithFuel(total + 10);
  EXPECT_EQ(used, total);
  EXPECT_EQ(over, unlimited_text);
}

TEST(FuelTest, ZeroFuelChangesNothing) {
  auto [text, used] = RunWithFuel(0);
  EXPECT_EQ(used, 0);
  EXPECT_EQ(text, kProgram);
}

TEST(FuelTest, SharedFuelSpansPipelines) {
  auto shared = std::make_shared<Fuel>(3);
  ir::RuntimeRegistry registry;
  for (int i = 0; i < 2; ++i) {
    auto f = ir::ParseFunction(kProgram, &registry);
    ASSERT_TRUE(f.ok());
    auto pipeline = BuildDefaultPipeline({});
    ASSERT_TRUE(pipeline.ok());
    (*pipeline)->set_fuel(shared);
    ASSERT_TRUE((*pipeline)->Run(**f).ok());
    if (i == 1) {
      EXPECT_EQ(ir::PrintFunction(**f), kProgram);  // nothing left
    }
  }
  EXPECT_EQ(shared->consumed(), 3);
  EXPECT_TRUE(shared->exhausted());
}

}  // namespace
}  // namespace morel::opt
