#include "engine/opt/pipeline.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"

namespace morel::opt {

Pipeline::Pipeline(PipelineOptions options, std::string name)
    : options_(std::move(options)),
      name_(std::move(name)),
      fuel_(std::make_shared<Fuel>(options_.optimization_fuel)) {}

absl::StatusOr<bool> Pipeline::Run(ir::Function& function) {
  PassContext ctx(fuel_.get());
  return Run(function, ctx);
}

absl::StatusOr<bool> Pipeline::Run(ir::Function& function, PassContext& ctx) {
  std::ostream& dump = options_.dump_stream != nullptr ? *options_.dump_stream : std::cerr;
  if (stats_.size() != passes_.size()) {
    stats_.clear();
    for (const auto& pass : passes_) stats_.push_back(PassStats{std::string(pass->name())});
  }
  if (options_.verify_ir) {
    if (absl::Status s = ir::Verify(function); !s.ok()) {
      return absl::InternalError(absl::StrCat("IR verification failed on the input of '",
                                              name_, "':\n", s.message()));
    }
  }
  bool changed = false;
  for (size_t i = 0; i < passes_.size(); ++i) {
    Pass& pass = *passes_[i];
    PassStats& stats = stats_[i];
    if (options_.IsDisabled(pass.name())) {
      ++stats.skipped;
      continue;
    }
    PassContext pass_ctx(ctx.fuel());
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<bool> result = pass.Run(function, pass_ctx);
    stats.time += std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now() - start);
    ++stats.runs;
    stats.rewrites += pass_ctx.rewrites();
    ctx.RecordRewrites(pass_ctx.rewrites());  // already paid from the shared fuel
    if (!result.ok()) {
      return absl::Status(result.status().code(),
                          absl::StrCat("pass '", pass.name(), "': ", result.status().message()));
    }
    if (*result) ++stats.changed;
    changed |= *result;
    if (options_.ShouldDump(pass.name())) {
      dump << ";; IR after " << pass.name() << (*result ? " (changed)" : " (unchanged)")
           << "\n"
           << ir::PrintFunction(function);
    }
    if (options_.verify_ir) {
      if (absl::Status s = ir::Verify(function); !s.ok()) {
        return absl::InternalError(absl::StrCat("IR verification failed after pass '",
                                                pass.name(), "':\n", s.message()));
      }
    }
  }
  return changed;
}

std::string Pipeline::StatsReport() const {
  std::string s = absl::StrFormat("%-20s %5s %8s %9s %12s\n", "pass", "runs", "changed",
                                  "rewrites", "time (us)");
  for (const PassStats& st : stats_) {
    absl::StrAppendFormat(&s, "%-20s %5d %8d %9d %12.1f%s\n", st.name, st.runs, st.changed,
                          st.rewrites, st.time.count() / 1000.0,
                          st.skipped > 0 ? "  (disabled)" : "");
  }
  return s;
}

std::vector<std::string> Pipeline::pass_names() const {
  std::vector<std::string> names;
  for (const auto& p : passes_) names.emplace_back(p->name());
  return names;
}

absl::StatusOr<std::unique_ptr<Pipeline>> BuildPipeline(absl::string_view pass_list,
                                                        PipelineOptions options,
                                                        const PassRegistry& registry) {
  if (absl::Status s = options.Validate(registry); !s.ok()) return s;
  auto pipeline = std::make_unique<Pipeline>(std::move(options));
  for (const std::string& name : SplitPassList(pass_list)) {
    absl::StatusOr<std::unique_ptr<Pass>> pass = registry.Create(name);
    if (!pass.ok()) return pass.status();
    pipeline->AddPass(std::move(*pass));
  }
  return pipeline;
}

}  // namespace morel::opt
