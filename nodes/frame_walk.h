#ifndef MOREL_NODES_FRAME_WALK_H_
#define MOREL_NODES_FRAME_WALK_H_

// Stack walks that see every guest activation of the thread, interpreted or
// compiled (Truffle's FrameInstance iteration; SL's stacktrace()).
//
// Interpreted activations have a `Frame` linked to its caller. Compiled
// activations have none: their locals live in machine frames. Where
// compiled code calls back into the runtime in a way that may run guest code
// (engine/runtime/compiled_frames.h), the engine pushes a `CompiledSegment`
// for the run of compiled frames above that point; the walk merges the
// segments with the Frame chain. A segment sits between the interpreter
// frame that was current when it was pushed (`below()`, whose activation is
// the segment's outermost caller) and that frame's later callees.
//
// nodes/ knows no compiled code: a segment decodes its own frames
// (`ForEachFrame`), the engine implements that.

#include <functional>

#include "absl/types/span.h"
#include "nodes/frame.h"
#include "nodes/value.h"

namespace morel {

class RootNode;

// One activation as a walk sees it. The slots are the activation's locals
// (descriptor().size() values; illegal = never assigned), valid during the
// visit only. Read-only: a compiled activation's locals cannot be written
// back (TODO(#6): write-back through deoptimization). Instead, compiled code
// transfers to the interpreter (keeping the code) before a direct call to a
// root that writes its caller's frame (RootNode::WritesCallerFrame,
// PeContext::CallDirect; SL's indirect calls do the same), so such a root
// writes an interpreter frame.
struct FrameInstance {
  RootNode* root = nullptr;
  const FrameDescriptor* descriptor = nullptr;
  absl::Span<const Value> slots;
  // The interpreter's frame, or null for a compiled activation.
  const Frame* frame = nullptr;

  bool IsInitialized(int slot) const {
    return slot < static_cast<int>(slots.size()) && !slots[slot].IsIllegal();
  }
};

// Visits one activation; returns false to stop the walk.
using FrameVisitor = std::function<bool(const FrameInstance&)>;

class CompiledSegment {
 public:
  // Pushes the segment on this thread (below the current interpreter frame).
  CompiledSegment();
  // Pops it. Segments are strictly nested (RAII on the native stack).
  virtual ~CompiledSegment();
  CompiledSegment(const CompiledSegment&) = delete;
  CompiledSegment& operator=(const CompiledSegment&) = delete;

  // Visits the segment's activations, innermost first; returns false if the
  // visitor stopped the walk.
  virtual bool ForEachFrame(const FrameVisitor& visit) const = 0;

  Frame* below() const { return below_; }
  const CompiledSegment* previous() const { return previous_; }
  // The innermost segment of this thread, or null.
  static const CompiledSegment* Innermost();

 private:
  Frame* below_;
  CompiledSegment* previous_;
};

// Visits every activation of this thread, innermost first, starting with
// `start` (an interpreter frame of this thread, normally Frame::Current();
// segments newer than it are not visited) and its callers. Returns false if
// the visitor stopped the walk.
bool WalkFrames(const Frame* start, const FrameVisitor& visit);

}  // namespace morel

#endif  // MOREL_NODES_FRAME_WALK_H_
