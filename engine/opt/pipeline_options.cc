#include "engine/opt/pipeline_options.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/ascii.h"
#include "engine/opt/pass_registry.h"

namespace morel::opt {
namespace {

bool Contains(const std::vector<std::string>& list, absl::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

bool PipelineOptions::ShouldDump(absl::string_view pass) const {
  return Contains(dump_ir, "all") || Contains(dump_ir, pass);
}

bool PipelineOptions::IsDisabled(absl::string_view pass) const {
  return Contains(disable_passes, pass);
}

absl::Status PipelineOptions::Validate(const PassRegistry& registry) const {
  for (const std::string& name : dump_ir) {
    if (name == "all" || name == "pe" || name == "asm" || registry.Contains(name)) continue;
    return absl::InvalidArgumentError(
        absl::StrCat("DumpIR: unknown pass '", name, "' (accepts pass names, 'pe', 'asm', 'all')"));
  }
  for (const std::string& name : disable_passes) {
    if (registry.Contains(name)) continue;
    return absl::InvalidArgumentError(
        absl::StrCat("DisablePasses: unknown pass '", name, "'"));
  }
  if (optimization_fuel < -1) {
    return absl::InvalidArgumentError("OptimizationFuel must be >= -1");
  }
  return absl::OkStatus();
}

std::vector<std::string> SplitPassList(absl::string_view list) {
  std::vector<std::string> names;
  for (absl::string_view piece : absl::StrSplit(list, ',')) {
    piece = absl::StripAsciiWhitespace(piece);
    if (!piece.empty()) names.emplace_back(piece);
  }
  return names;
}

}  // namespace morel::opt
