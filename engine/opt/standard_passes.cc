#include "engine/opt/standard_passes.h"

#include "base/check.h"
#include "engine/opt/canonicalize.h"
#include "engine/opt/dce.h"
#include "engine/opt/escape_analysis.h"
#include "engine/opt/guard_elimination.h"
#include "engine/opt/guard_hoisting.h"
#include "engine/opt/gvn.h"
#include "engine/opt/load_elimination.h"
#include "engine/opt/simplify_cfg.h"

namespace morel::opt {

void RegisterStandardPasses(PassRegistry& registry) {
  // keep sorted
  MOREL_CHECK(registry.Register<Canonicalize>().ok());
  MOREL_CHECK(registry.Register<DeadCodeElimination>().ok());
  MOREL_CHECK(registry.Register<GuardElimination>().ok());
  MOREL_CHECK(registry.Register<GuardHoisting>().ok());
  MOREL_CHECK(registry.Register<GlobalValueNumbering>().ok());
  MOREL_CHECK(registry.Register<LoadElimination>().ok());
  MOREL_CHECK(registry.Register<PartialEscapeAnalysis>().ok());
  MOREL_CHECK(registry.Register<SimplifyCfg>().ok());
}

absl::StatusOr<std::unique_ptr<Pipeline>> BuildDefaultPipeline(PipelineOptions options) {
  return BuildPipeline(kDefaultPassList, std::move(options));
}

}  // namespace morel::opt
