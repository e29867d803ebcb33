#ifndef MOREL_OSR_OSR_ENTRY_TAGS_H_
#define MOREL_OSR_OSR_ENTRY_TAGS_H_

// OsrEntryTags: the value tags of an activation's frame slots when an OSR
// compilation was requested (Truffle's entry tags, recorded by
// BytecodeOSRMetadata.updateFrameSlots). Each OSR root (OsrRootNode,
// BytecodeOsrRootNode) keeps the tags of its latest request; the partial
// evaluator speculates that the slots hold values of those tags when the
// code is entered, so the tags are constants in the loop (engine/pe:
// PartialEvaluator::SpeculateOsrEntryTags). An entry with other tags
// deoptimizes at once, invalidating the code; the next request records the
// tags of that frame.
//
// Thread-safe: the policy records on the interpreter's thread before it
// requests the compilation; the compiler reads on its own.

#include <mutex>
#include <vector>

#include "nodes/frame.h"
#include "nodes/value.h"

namespace morel::osr {

class OsrEntryTags {
 public:
  // Records the tags of `frame`'s descriptor slots.
  void Record(const Frame& frame);
  // The tags of the latest Record, one per slot (empty before the first).
  std::vector<ValueTag> Get() const;

 private:
  mutable std::mutex mutex_;
  std::vector<ValueTag> tags_;  // guarded by mutex_
};

}  // namespace morel::osr

#endif  // MOREL_OSR_OSR_ENTRY_TAGS_H_
