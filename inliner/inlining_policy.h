#ifndef MOREL_INLINER_INLINING_POLICY_H_
#define MOREL_INLINER_INLINING_POLICY_H_

// Inlining policies, their providers and the phase driver (Truffle's
// InliningPolicy, InliningPolicyProvider and AgnosticInliningPhase;
// truffle_reference §2.1, §2.4, §2.6).
//
// Providers, by descending priority (Truffle's):
//   "Default"      0   expand -> analyse -> inline (default_policy.h)
//   "None"        -1   decides nothing
//   "TrivialOnly" -2   inlines the root's trivial callees (trivial_only_policy.h)
// The first tier's default ("") is the lowest priority policy (TrivialOnly),
// the last tier's the highest (Default). TODO: Truffle 2026 adds "Agnostic"
// (priority 1, truffle_reference §2.5), which would become the last tier's
// default; it is not implemented here.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "inliner/call_tree.h"

namespace morel::inliner {

// The compiler options of truffle_reference §2.6, filled by the engine from
// its configuration.
struct InliningOptions {
  bool inlining = true;           // Inlining
  int expansion_budget = 12000;   // InliningExpansionBudget
  int inlining_budget = 12000;    // InliningInliningBudget
  int recursion_depth = 2;        // InliningRecursionDepth
  int max_depth = 15;             // DefaultInliningPolicy.MAX_DEPTH (a constant in Truffle)
  // InlineOnly: comma-separated name fragments; "~fragment" excludes. Empty
  // accepts everything (Truffle's null).
  std::string inline_only;
};

class InliningPolicy {
 public:
  virtual ~InliningPolicy() = default;

  // Decides: expands and inlines nodes of `tree`.
  virtual void Run(CallTree& tree) = 0;

  // Called by the tree after it expanded `node` (and after building the root)
  // with `node`'s children in place.
  virtual void AfterExpand(CallTree& tree, CallNode& node) {}

  // Whether trace lines carry this policy's "call diff" property (Truffle's
  // putProperties hook; only the Default policy has one).
  virtual bool TracesCallDiff() const { return false; }
};

// InliningPolicy.acceptForInline: whether a callee named `name` may be
// inlined under InlineOnly. The name must contain one of the include
// fragments (if any) and none of the "~" exclude fragments.
bool AcceptForInline(absl::string_view name, absl::string_view inline_only);

struct InliningPolicyProvider {
  absl::string_view name;
  int priority;
  std::unique_ptr<InliningPolicy> (*create)(const InliningOptions& options);
};

// The built-in providers by descending priority: Default, None, TrivialOnly.
const std::vector<InliningPolicyProvider>& PolicyProviders();

// Their names, in the same order.
std::vector<std::string> PolicyNames();

// InliningPolicy (last tier) / FirstTierInliningPolicy (first tier): `name`,
// or for "" the lowest priority policy in the first tier and the highest in
// the last tier. An unknown name is InvalidArgument naming the accepted ones.
absl::StatusOr<std::unique_ptr<InliningPolicy>> CreatePolicy(absl::string_view name,
                                                             bool first_tier,
                                                             const InliningOptions& options);

// AgnosticInliningPhase.run's decision step: binds `policy` to `tree` (later
// expansions and the trace use it), then, if options.inlining, runs it.
// Dumps ("Before Inline" / "After Inline"), dequeuing, the opt-done counts,
// finalization and the trace are the engine's, through the tree's methods.
void RunInliningPhase(CallTree& tree, InliningPolicy& policy, const InliningOptions& options);

}  // namespace morel::inliner

#endif  // MOREL_INLINER_INLINING_POLICY_H_
