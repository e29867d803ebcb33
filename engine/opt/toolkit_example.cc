// The IR toolkit used alone: //engine/ir and //engine/opt with nothing else of
// the engine. Parses a function from text, runs the default pipeline with a
// verifier after every pass, prints the result and runs the function before
// and after in the reference interpreter. Exits non-zero if the optimizer did
// not shrink the function or changed what it computes.

#include <cstdint>
#include <iostream>
#include <memory>
#include <vector>

#include "engine/ir/interpreter.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/opt/pipeline.h"
#include "engine/opt/standard_passes.h"

namespace {

// (a + b) * 7 computed twice, once through a dead branch on a constant.
constexpr char kProgram[] = R"(
func @twice(i64, i64) -> (i64) {
block0(v0: i64, v1: i64):
  v2 = iadd v0, v1
  v3 = iconst.i64 7
  v4 = imul v2, v3
  v5 = iconst.i1 1
  br v5, block1, block2
block1:
  v6 = iadd v1, v0
  v7 = imul v6, v3
  jump block3(v7)
block2:
  v8 = iconst.i64 0
  jump block3(v8)
block3(v9: i64):
  return v9
}
)";

}  // namespace

int main() {
  namespace ir = morel::ir;
  namespace opt = morel::opt;

  ir::RuntimeRegistry registry;
  absl::StatusOr<std::vector<std::unique_ptr<ir::Function>>> functions =
      ir::ParseFunctions(kProgram, &registry);
  if (!functions.ok()) {
    std::cerr << "parse: " << functions.status() << "\n";
    return 1;
  }
  ir::Function& function = *functions->front();
  const std::vector<int64_t> args = {5, 6};
  absl::StatusOr<ir::ExecutionResult> before = ir::Interpret(function, args);
  const int size_before = function.InstructionCount();

  opt::PipelineOptions options;
  options.verify_ir = true;  // the verifier after every pass
  absl::StatusOr<std::unique_ptr<opt::Pipeline>> pipeline =
      opt::BuildPipeline(opt::kDefaultPassList, options);
  if (!pipeline.ok()) {
    std::cerr << "pipeline: " << pipeline.status() << "\n";
    return 1;
  }
  if (absl::Status status = (*pipeline)->Run(function).status(); !status.ok()) {
    std::cerr << "optimize: " << status << "\n";
    return 1;
  }
  std::cout << ir::PrintFunction(function);

  absl::StatusOr<ir::ExecutionResult> after = ir::Interpret(function, args);
  const int size_after = function.InstructionCount();
  std::cout << "instructions: " << size_before << " -> " << size_after << "\n";
  if (!before.ok() || !after.ok() || before->values != std::vector<int64_t>{77} ||
      after->values != before->values) {
    std::cerr << "results differ: "
              << (before.ok() ? ir::DebugString(*before) : before.status().ToString()) << " vs "
              << (after.ok() ? ir::DebugString(*after) : after.status().ToString()) << "\n";
    return 1;
  }
  if (size_after >= size_before) {
    std::cerr << "the pipeline did not shrink the function\n";
    return 1;
  }
  return 0;
}
