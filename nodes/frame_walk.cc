#include "nodes/frame_walk.h"

#include "nodes/root_node.h"

namespace morel {
namespace {

thread_local CompiledSegment* innermost_segment = nullptr;

FrameInstance InstanceOf(const Frame& frame) {
  return FrameInstance{frame.root(), &frame.descriptor(),
                       absl::Span<const Value>(frame.slot_storage(),
                                               static_cast<size_t>(frame.descriptor().size())),
                       &frame};
}

// Whether `frame` is `start` or one of its callers (null: the bottom).
bool IsOnChain(const Frame* start, const Frame* frame) {
  if (frame == nullptr) return true;
  for (const Frame* f = start; f != nullptr; f = f->caller()) {
    if (f == frame) return true;
  }
  return false;
}

}  // namespace

CompiledSegment::CompiledSegment() : below_(Frame::Current()), previous_(innermost_segment) {
  innermost_segment = this;
}

CompiledSegment::~CompiledSegment() { innermost_segment = previous_; }

const CompiledSegment* CompiledSegment::Innermost() { return innermost_segment; }

bool WalkFrames(const Frame* start, const FrameVisitor& visit) {
  // Segments newer than `start` (pushed while one of its callees, or start
  // itself for segments above it, was current) are above the walk: skip
  // those whose `below` is not on start's chain or is start's callee.
  // A segment pushed while frame B was current lies between B and every
  // frame whose caller is B created after it; segments are LIFO, so walking
  // frames outward and emitting, before each frame B, the segments at the
  // head of the list whose below() is B keeps the stack order.
  const CompiledSegment* segment = CompiledSegment::Innermost();
  // Drop segments that belong above `start`: their below() is a frame
  // created after start, i.e. not on start's caller chain. A segment whose
  // below() is `start` itself is newer than start unless start is the
  // innermost frame (then it is start's callee, also above the walk).
  while (segment != nullptr && segment->below() != nullptr &&
         (segment->below() == start || !IsOnChain(start, segment->below()))) {
    segment = segment->previous();
  }
  for (const Frame* frame = start; frame != nullptr; frame = frame->caller()) {
    if (!visit(InstanceOf(*frame))) return false;
    const Frame* caller = frame->caller();
    while (segment != nullptr && segment->below() == caller) {
      if (!segment->ForEachFrame(visit)) return false;
      segment = segment->previous();
    }
  }
  // Compiled code that no interpreter frame called (an embedder entering
  // compiled code directly).
  if (start == nullptr) {
    for (; segment != nullptr && segment->below() == nullptr; segment = segment->previous()) {
      if (!segment->ForEachFrame(visit)) return false;
    }
  }
  return true;
}

}  // namespace morel
