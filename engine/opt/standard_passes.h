#ifndef MOREL_ENGINE_OPT_STANDARD_PASSES_H_
#define MOREL_ENGINE_OPT_STANDARD_PASSES_H_

// The standard passes and the default optimization pipeline.

#include <memory>

#include "absl/status/statusor.h"
#include "engine/opt/pass_registry.h"
#include "engine/opt/pipeline.h"

namespace morel::opt {

// Registers canonicalize, dce, guard_elim, guard_hoist, gvn, load_elim,
// partial_escape and simplify_cfg.
void RegisterStandardPasses(PassRegistry& registry);

// The pass list of the default pipeline, for BuildPipeline.
inline constexpr char kDefaultPassList[] =
    "canonicalize,guard_hoist,guard_elim,simplify_cfg,partial_escape,canonicalize,gvn,load_elim,gvn,canonicalize,"
    "guard_elim,simplify_cfg,dce";

// BuildPipeline(kDefaultPassList, options).
absl::StatusOr<std::unique_ptr<Pipeline>> BuildDefaultPipeline(PipelineOptions options);

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_STANDARD_PASSES_H_
