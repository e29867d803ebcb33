#ifndef MOREL_INLINER_TRIVIAL_ONLY_POLICY_H_
#define MOREL_INLINER_TRIVIAL_ONLY_POLICY_H_

// "TrivialOnly" (priority -2, the first tier's default): Truffle's
// TrivialOnlyInliningPolicy. Each direct child of the root that is trivial
// and accepted by InlineOnly is expanded, and inlined if that left it
// Expanded. No budgets; nothing deeper than the root's children is touched.
//
// Like Truffle's, it has no AfterExpand hook: trivial callees are not
// expanded eagerly, so a trivial callee's own trivial calls stay Cutoff.

#include "inliner/inlining_policy.h"

namespace morel::inliner {

class TrivialOnlyInliningPolicy : public InliningPolicy {
 public:
  explicit TrivialOnlyInliningPolicy(const InliningOptions& options) : options_(options) {}
  void Run(CallTree& tree) override;

 private:
  InliningOptions options_;
};

}  // namespace morel::inliner

#endif  // MOREL_INLINER_TRIVIAL_ONLY_POLICY_H_
