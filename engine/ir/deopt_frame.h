#ifndef MOREL_ENGINE_IR_DEOPT_FRAME_H_
#define MOREL_ENGINE_IR_DEOPT_FRAME_H_

// DeoptFrame: one evaluated frame state of a deoptimization, the common
// currency between the tiers. The reference interpreter (interpreter.h)
// reports it, and compiled code's deopt decoding (engine/codegen/compile.h)
// produces the same list, so a runtime rebuilds interpreter frames the same
// way for both. Kept apart from the (testonly) interpreter for that reason.

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/types/span.h"
#include "engine/ir/types.h"

namespace morel::ir {

// A virtual object of a deoptimization (frame_state.h), evaluated: what to
// allocate before the interpreter resumes. Objects are numbered by their
// index in the deoptimization's list; one index is one object, however
// many slots and fields name it.
struct DeoptObject {
  struct Field {
    int32_t offset = 0;
    Type type = Type::kI64;  // the width written
    int64_t bits = 0;        // the value, unless `object` >= 0
    int32_t object = -1;     // another object's index: its address
    bool operator==(const Field&) const = default;
  };
  int64_t size = 0;
  std::vector<Field> fields;
  // The object's condition held (VirtualObject::existing_if): it is not
  // allocated, and its address is `existing`.
  bool is_existing = false;
  int64_t existing = 0;
  bool operator==(const DeoptObject&) const = default;
};

// One frame of a deoptimization: the evaluated frame state.
struct DeoptFrame {
  int64_t call_target_id = 0;
  int64_t resume_point = 0;
  // nullopt-free encoding: illegal locals are {0, 0} with `legal` false.
  struct Slot {
    bool legal = false;
    int64_t payload = 0, tag = 0;
    // >= 0: the payload is the address of this object of the
    // deoptimization's list (MaterializeDeoptObjects fills it in).
    int32_t object = -1;
    bool operator==(const Slot&) const = default;
  };
  std::vector<Slot> locals;
  std::vector<Slot> stack;
  bool operator==(const DeoptFrame&) const = default;
};

// Allocates `objects` (allocate(size) returns zero-filled memory), writes
// their fields, stores object i's address in addresses[i] and in the payload
// of every slot of `frames` that names it. An existing object is not
// allocated: its address is its `existing` value. `addresses` has one entry per
// object; it should be memory the collector scans, since an allocation may
// collect before the frames hold the objects.
void MaterializeDeoptObjects(absl::Span<const DeoptObject> objects,
                             const std::function<void*(int64_t)>& allocate,
                             absl::Span<void*> addresses, std::vector<DeoptFrame>& frames);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_DEOPT_FRAME_H_
