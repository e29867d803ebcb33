// Fuzz target (testing/fuzz): the optimizer on random verified IR. The
// bytes choose the generator's options (objects, loops, reachability, size),
// an optimization-fuel budget and the arguments, then every decision of the
// random IR generator (testing/random_ir.h, the one random_ir_test uses).
// The function must verify (else the generator is wrong); the default
// pipeline, verifying after every pass, must succeed; and the reference
// interpreter must give the optimized function the unoptimized function's
// results (returned values, or the same deoptimization with the same frame
// values and objects) on the input's arguments and a few fixed ones.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"
#include "engine/opt/testing/random_ir.h"
#include "testing/fuzz/byte_reader.h"
#include "testing/fuzz/fuzz_target.h"

namespace {

int64_t loop_counter = 0;
int64_t escape_slot = 0;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morel;
  fuzz::ByteReader in(data, size);
  opt::testing::RandomIrOptions options;
  options.objects = in.Bool();
  if (options.objects) options.escape_slot = &escape_slot;
  if (in.Bool()) options.loop_counter = &loop_counter;
  options.all_blocks_reachable = in.Bool();
  options.max_blocks = static_cast<int>(in.Int(1, 10));
  options.min_blocks = 1;
  options.max_block_steps = static_cast<int>(in.Int(2, 16));
  options.min_block_steps = 1;
  const int64_t fuel = in.Int(-1, 40);
  std::vector<std::vector<int64_t>> inputs = {{0, 0, 0}, {1, 2, 3}, {-1, 5, 1}, {INT64_MIN, -1, 64}};
  inputs.push_back({static_cast<int64_t>(in.Word()), in.Int(-8, 8), in.Int(-70, 70)});
  const absl::string_view rest = in.Rest();
  const auto choices = absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(rest.data()),
                                           rest.size());

  std::unique_ptr<ir::Function> f = opt::testing::RandomFunctionFromBytes(choices, options);
  const std::string original = ir::PrintFunction(*f);
  if (absl::Status verified = ir::Verify(*f); !verified.ok()) {
    fuzz::FuzzFailure("the random IR generator builds verified IR",
                      absl::StrCat(verified.ToString(), "\n", original));
  }
  int64_t* counter = options.loop_counter;
  std::vector<std::string> expected;
  for (const auto& args : inputs) {
    expected.push_back(opt::testing::ExecuteForComparison(*f, args, counter));
  }

  opt::PipelineOptions pipeline_options;
  pipeline_options.verify_ir = true;
  pipeline_options.optimization_fuel = fuel;
  auto pipeline = opt::BuildDefaultPipeline(pipeline_options);
  if (!pipeline.ok()) fuzz::FuzzFailure("the default pipeline builds", pipeline.status().ToString());
  auto changed = (*pipeline)->Run(*f);
  if (!changed.ok()) {
    fuzz::FuzzFailure("every pass keeps the IR verified",
                      absl::StrCat("fuel ", fuel, ": ", changed.status().ToString(),
                                   "\noriginal:\n", original));
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    std::string actual = opt::testing::ExecuteForComparison(*f, inputs[k], counter);
    if (actual != expected[k]) {
      fuzz::FuzzFailure(
          "optimized IR computes what the original computes",
          absl::StrCat("fuel ", fuel, ", arguments (", absl::StrJoin(inputs[k], ", "),
                       "): original ", expected[k], ", optimized ", actual, "\noriginal:\n",
                       original, "optimized:\n", ir::PrintFunction(*f)));
    }
  }
  return 0;
}
