#include "nodes/resume.h"

#include "base/check.h"
#include "nodes/node.h"

namespace morel {

Outcome ResumeActivation(Frame& frame, absl::Span<const ResumeEntry> path) {
  MOREL_CHECK_MSG(!path.empty(), "ResumeActivation with an empty path");
  const ResumeEntry& innermost = path.back();
  Outcome outcome =
      innermost.node->Resume(frame, innermost.next_child, innermost.done);
  for (size_t i = path.size() - 1; i-- > 0;) {
    const ResumeEntry& entry = path[i];
    heap::TracedVector<Outcome> done = entry.done;
    done.push_back(outcome);
    outcome = entry.node->Resume(frame, entry.next_child + 1, done);
  }
  return outcome;
}

}  // namespace morel
