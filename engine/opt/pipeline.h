#ifndef MOREL_ENGINE_OPT_PIPELINE_H_
#define MOREL_ENGINE_OPT_PIPELINE_H_

// Pipeline: runs passes in order, honoring PipelineOptions:
//   - DisablePasses: a disabled pass is skipped (and listed in stats);
//   - VerifyIR: the verifier runs on the input and after every pass; a
//     failure is an Internal error naming the pass;
//   - DumpIR: after the named passes the IR is printed to the dump stream,
//     headed ";; IR after <pass> (changed|unchanged)";
//   - OptimizationFuel: one Fuel shared by all passes (and, with
//     set_fuel, by several pipelines);
//   - timing: wall time per pass in stats().
// A Pipeline is itself a Pass, so pipelines nest.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/opt/fuel.h"
#include "engine/opt/pass.h"
#include "engine/opt/pass_registry.h"
#include "engine/opt/pipeline_options.h"

namespace morel::opt {

struct PassStats {
  std::string name;
  int runs = 0;
  int changed = 0;       // runs that changed the function
  int skipped = 0;       // runs skipped because the pass is disabled
  int64_t rewrites = 0;  // fuel units consumed
  std::chrono::nanoseconds time{0};
};

class Pipeline : public Pass {
 public:
  explicit Pipeline(PipelineOptions options = {}, std::string name = "pipeline");

  absl::string_view name() const override { return name_; }

  // Returns a reference to the added pass.
  template <typename T, typename... Args>
  T& AddPass(Args&&... args) {
    auto pass = std::make_unique<T>(std::forward<Args>(args)...);
    T& ref = *pass;
    passes_.push_back(std::move(pass));
    return ref;
  }
  void AddPass(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }

  // Runs with this pipeline's own fuel.
  absl::StatusOr<bool> Run(ir::Function& function);
  // Runs with the fuel of `ctx` (for nesting).
  absl::StatusOr<bool> Run(ir::Function& function, PassContext& ctx) override;

  // Replaces the pipeline's fuel (e.g. one process-wide budget).
  void set_fuel(std::shared_ptr<Fuel> fuel) { fuel_ = std::move(fuel); }
  Fuel& fuel() { return *fuel_; }

  const PipelineOptions& options() const { return options_; }
  // One entry per pass position, in order.
  const std::vector<PassStats>& stats() const { return stats_; }
  // A table of stats() for humans.
  std::string StatsReport() const;
  std::vector<std::string> pass_names() const;

 private:
  PipelineOptions options_;
  std::string name_;
  std::shared_ptr<Fuel> fuel_;
  std::vector<std::unique_ptr<Pass>> passes_;
  std::vector<PassStats> stats_;
};

// A pipeline of the registry's passes named in `pass_list` ("a,b,c"), with
// `options` (validated against the registry).
absl::StatusOr<std::unique_ptr<Pipeline>> BuildPipeline(
    absl::string_view pass_list, PipelineOptions options,
    const PassRegistry& registry = PassRegistry::Standard());

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_PIPELINE_H_
