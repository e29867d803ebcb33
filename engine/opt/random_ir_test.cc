// Randomized test: builds random valid IR (testing/random_ir.h), runs the
// default pipeline with verification at many fuel levels, and checks with
// the reference interpreter that optimized and unoptimized IR compute the
// same results (return values, or the same deoptimization with the same
// frame values).

#include <memory>
#include <string>
#include <vector>

#include "engine/ir/interpreter.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"
#include "engine/opt/testing/random_ir.h"
#include "gtest/gtest.h"

namespace morel::opt {
namespace {

using testing::RandomFunction;

std::string Execute(const ir::Function& f, const std::vector<int64_t>& args) {
  auto r = ir::Interpret(f, args);
  if (!r.ok()) return "error: " + std::string(r.status().message());
  return ir::DebugString(*r);
}

TEST(RandomIrTest, OptimizedIrVerifiesAndComputesTheSameResults) {
  const std::vector<std::vector<int64_t>> inputs = {
      {0, 0, 0}, {1, 2, 3}, {-1, 5, 1}, {INT64_MAX, 1, -7}, {INT64_MIN, -1, 64}, {42, 42, 1}};
  int changed = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    std::unique_ptr<ir::Function> f = RandomFunction(seed);
    ASSERT_TRUE(ir::Verify(*f).ok()) << "seed " << seed << ": generator bug\n"
                                     << ir::Verify(*f) << "\n" << ir::PrintFunction(*f);
    std::vector<std::string> expected;
    for (const auto& in : inputs) expected.push_back(Execute(*f, in));
    const std::string original = ir::PrintFunction(*f);
    // Unlimited fuel, and a few partial budgets (every prefix of the rewrite
    // sequence must be correct too).
    for (int64_t fuel : {-1, 0, 1, 2, 3, 5, 8, 13}) {
      ir::RuntimeRegistry registry;
      std::unique_ptr<ir::Function> g = RandomFunction(seed);
      PipelineOptions options;
      options.verify_ir = true;
      options.optimization_fuel = fuel;
      auto pipeline = BuildDefaultPipeline(options);
      ASSERT_TRUE(pipeline.ok());
      auto r = (*pipeline)->Run(*g);
      ASSERT_TRUE(r.ok()) << "seed " << seed << " fuel " << fuel << ": " << r.status() << "\n"
                          << original;
      if (fuel == -1 && *r) ++changed;
      for (size_t k = 0; k < inputs.size(); ++k) {
        ASSERT_EQ(Execute(*g, inputs[k]), expected[k])
            << "seed " << seed << " fuel " << fuel << " input " << k << "\noriginal:\n"
            << original << "optimized:\n" << ir::PrintFunction(*g);
      }
    }
  }
  EXPECT_GT(changed, 250);  // the generator gives the passes work to do
}

}  // namespace
}  // namespace morel::opt
