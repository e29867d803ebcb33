#include "engine/opt/standard_passes.h"

#include "engine/ir/check.h"
#include "engine/opt/canonicalize.h"
#include "engine/opt/dce.h"
#include "engine/opt/guard_elimination.h"
#include "engine/opt/gvn.h"

namespace morel::opt {

void RegisterStandardPasses(PassRegistry& registry) {
  // keep sorted
  MOREL_CHECK(registry.Register<Canonicalize>().ok());
  MOREL_CHECK(registry.Register<DeadCodeElimination>().ok());
  MOREL_CHECK(registry.Register<GuardElimination>().ok());
  MOREL_CHECK(registry.Register<GlobalValueNumbering>().ok());
}

absl::StatusOr<std::unique_ptr<Pipeline>> BuildDefaultPipeline(PipelineOptions options) {
  return BuildPipeline(kDefaultPassList, std::move(options));
}

}  // namespace morel::opt
