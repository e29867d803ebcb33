#include "inliner/inlining_policy.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "inliner/default_policy.h"
#include "inliner/no_inlining_policy.h"
#include "inliner/trivial_only_policy.h"

namespace morel::inliner {
namespace {

template <typename Policy>
std::unique_ptr<InliningPolicy> Create(const InliningOptions& options) {
  return std::make_unique<Policy>(options);
}

}  // namespace

bool AcceptForInline(absl::string_view name, absl::string_view inline_only) {
  if (inline_only.empty()) return true;
  std::vector<absl::string_view> items = absl::StrSplit(inline_only, ',');
  // Java's String.split drops trailing empty strings.
  while (items.size() > 1 && items.back().empty()) items.pop_back();
  std::vector<absl::string_view> includes;
  std::vector<absl::string_view> excludes;
  for (absl::string_view item : items) {
    if (absl::ConsumePrefix(&item, "~")) {
      excludes.push_back(item);
    } else {
      includes.push_back(item);
    }
  }
  auto in_name = [name](absl::string_view fragment) { return absl::StrContains(name, fragment); };
  return (includes.empty() || absl::c_any_of(includes, in_name)) &&
         absl::c_none_of(excludes, in_name);
}

const std::vector<InliningPolicyProvider>& PolicyProviders() {
  static const auto* const kProviders = new std::vector<InliningPolicyProvider>{
      {"Default", 0, &Create<DefaultInliningPolicy>},
      {"None", -1, &Create<NoInliningPolicy>},
      {"TrivialOnly", -2, &Create<TrivialOnlyInliningPolicy>},
  };
  return *kProviders;
}

std::vector<std::string> PolicyNames() {
  std::vector<std::string> names;
  for (const InliningPolicyProvider& provider : PolicyProviders()) {
    names.emplace_back(provider.name);
  }
  return names;
}

absl::StatusOr<std::unique_ptr<InliningPolicy>> CreatePolicy(absl::string_view name,
                                                             bool first_tier,
                                                             const InliningOptions& options) {
  const std::vector<InliningPolicyProvider>& providers = PolicyProviders();
  if (name.empty()) {
    return (first_tier ? providers.back() : providers.front()).create(options);
  }
  for (const InliningPolicyProvider& provider : providers) {
    if (provider.name == name) return provider.create(options);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("No inlining policy provider with provided name: ", name,
                   " (accepted: ", absl::StrJoin(PolicyNames(), ", "), ")"));
}

void RunInliningPhase(CallTree& tree, InliningPolicy& policy, const InliningOptions& options) {
  tree.set_policy(&policy);
  if (options.inlining) policy.Run(tree);
}

}  // namespace morel::inliner
