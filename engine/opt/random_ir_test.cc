// Randomized test: builds random valid IR (testing/random_ir.h), runs the
// default pipeline with verification at many fuel levels, and checks with
// the reference interpreter that optimized and unoptimized IR compute the
// same results (return values, or the same deoptimization with the same
// frame values).

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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

using Executor = std::string (*)(const ir::Function&, const std::vector<int64_t>&);

// Runs the default pipeline (verifying after every pass) on the function of
// `seed` at unlimited fuel and at each budget in `fuels` (every prefix of
// the rewrite sequence must be correct too), and checks that `execute`
// gives the unoptimized function's results on every input. `unlimited`
// sees the original and the fully optimized function.
void CheckSeed(uint32_t seed, const testing::RandomIrOptions& options,
               std::initializer_list<int64_t> fuels,
               const std::vector<std::vector<int64_t>>& inputs, Executor execute,
               const std::function<void(const ir::Function&, const ir::Function&, bool)>& unlimited) {
  std::unique_ptr<ir::Function> f = RandomFunction(seed, options);
  ASSERT_TRUE(ir::Verify(*f).ok()) << "seed " << seed << ": generator bug\n"
                                   << ir::Verify(*f) << "\n" << ir::PrintFunction(*f);
  std::vector<std::string> expected;
  for (const auto& in : inputs) expected.push_back(execute(*f, in));
  const std::string original = ir::PrintFunction(*f);
  std::vector<int64_t> budgets = {-1};
  budgets.insert(budgets.end(), fuels.begin(), fuels.end());
  for (int64_t fuel : budgets) {
    std::unique_ptr<ir::Function> g = RandomFunction(seed, options);
    PipelineOptions pipeline_options;
    pipeline_options.verify_ir = true;
    pipeline_options.optimization_fuel = fuel;
    auto pipeline = BuildDefaultPipeline(pipeline_options);
    ASSERT_TRUE(pipeline.ok());
    auto r = (*pipeline)->Run(*g);
    ASSERT_TRUE(r.ok()) << "seed " << seed << " fuel " << fuel << ": " << r.status() << "\n"
                        << original;
    if (fuel == -1) unlimited(*f, *g, *r);
    for (size_t k = 0; k < inputs.size(); ++k) {
      ASSERT_EQ(execute(*g, inputs[k]), expected[k])
          << "seed " << seed << " fuel " << fuel << " input " << k << "\noriginal:\n"
          << original << "optimized:\n" << ir::PrintFunction(*g);
    }
  }
}

TEST(RandomIrTest, OptimizedIrVerifiesAndComputesTheSameResults) {
  const std::vector<std::vector<int64_t>> inputs = {
      {0, 0, 0}, {1, 2, 3}, {-1, 5, 1}, {INT64_MAX, 1, -7}, {INT64_MIN, -1, 64}, {42, 42, 1}};
  int changed = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    ASSERT_NO_FATAL_FAILURE(CheckSeed(seed, {}, {0, 1, 2, 3, 5, 8, 13}, inputs, Execute,
                                      [&](const ir::Function&, const ir::Function&, bool r) {
                                        changed += r;
                                      }));
  }
  EXPECT_GT(changed, 250);  // the generator gives the passes work to do
}

int64_t loop_counter = 0;

std::string ExecuteWithObjects(const ir::Function& f, const std::vector<int64_t>& args) {
  return testing::ExecuteForComparison(f, args, &loop_counter);
}

// With objects and loops: escape analysis (in the default pipeline) removes
// allocations, puts virtual objects in frame states and materializes them
// where they escape; every run must see the same values, and deoptimization
// the same objects (contents and identity).
TEST(RandomIrTest, ObjectsSurviveEscapeAnalysisUnchanged) {
  static int64_t escape_slot = 0;
  testing::RandomIrOptions options;
  options.objects = true;
  options.escape_slot = &escape_slot;
  options.loop_counter = &loop_counter;
  const std::vector<std::vector<int64_t>> inputs = {
      {0, 0, 0}, {1, 2, 3}, {-1, 5, 1}, {12345, 0, 7}, {42, 42, 1}};
  auto allocs = [](const ir::Function& f) {
    int n = 0;
    for (const ir::Block* b : f.blocks()) {
      for (const ir::Instruction* i : b->instructions()) n += i->opcode() == ir::Opcode::kAlloc;
    }
    return n;
  };
  int virtualized = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    ASSERT_NO_FATAL_FAILURE(
        CheckSeed(seed, options, {0, 1, 2, 3, 5, 8}, inputs, ExecuteWithObjects,
                  [&](const ir::Function& f, const ir::Function& g, bool) {
                    virtualized += allocs(g) < allocs(f);
                  }));
  }
  EXPECT_GT(virtualized, 100);  // escape analysis had work to do
}

}  // namespace
}  // namespace morel::opt
