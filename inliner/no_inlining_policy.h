#ifndef MOREL_INLINER_NO_INLINING_POLICY_H_
#define MOREL_INLINER_NO_INLINING_POLICY_H_

// "None" (priority -1): Truffle's NoInliningPolicy. Expands nothing, inlines
// nothing, has no AfterExpand hook: the root's calls all stay Cutoff.

#include "inliner/inlining_policy.h"

namespace morel::inliner {

class NoInliningPolicy : public InliningPolicy {
 public:
  explicit NoInliningPolicy(const InliningOptions& /*options*/) {}
  void Run(CallTree& tree) override {}
};

}  // namespace morel::inliner

#endif  // MOREL_INLINER_NO_INLINING_POLICY_H_
