#ifndef MOREL_ENGINE_CODEGEN_DEOPT_MAP_H_
#define MOREL_ENGINE_CODEGEN_DEOPT_MAP_H_

// DeoptMap: lowering's side table that gives meaning to the values of each
// deopt point (deopt_metadata.h says only *where* value k lives; this says
// *what* value k is). Keyed by deopt id (the DeoptState id lowering assigns:
// 0, 1, 2, ... in emission order, one per guard, deopt, overflow check,
// call with a lazy frame state, and `unreachable`).
//
// For each id: why the exit exists (Cause), eager or lazy, the IR reason
// text and deopt action (whether the code stays installed), and the chain
// of frames, innermost first then the parents (inlined callers), exactly
// as the IR's FrameState chain. Each frame has its
// call_target_id, resume_point, and per local/stack entry either `illegal`
// or the indices of its payload and tag among the deopt point's values.
// A slot may name a virtual object instead of a payload value (escape
// analysis removed the allocation; ir::VirtualObject): the entry lists the
// objects its frames name, numbered as the IR interpreter numbers them
// (first use, walking the frames innermost first, locals then stack, an
// object's fields depth-first), each with its size and fields, whose values
// are deopt values too (or other objects).
//
// After installation, Resolve() copies each point's ValueLocations from the
// backend's CodeMetadata, and Decode() reads them from a deopt handler's
// (saved_regs, frame_pointer) to produce the ir::DeoptFrame list the IR
// reference interpreter reports for the same state.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/ir/deopt_frame.h"
#include "engine/ir/frame_state.h"

namespace morel::codegen {

struct DeoptSlotDesc {
  bool legal = false;
  int32_t payload = -1;  // index into the point's values (-1 if `object`)
  int32_t tag = -1;
  int32_t object = -1;   // >= 0: the payload is this object of the entry
  bool operator==(const DeoptSlotDesc&) const = default;
};

// A virtual object of a deopt point: what the runtime allocates before it
// resumes (ir::DeoptObject once evaluated).
struct DeoptObjectDesc {
  struct Field {
    int32_t offset = 0;
    ir::Type type = ir::Type::kI64;  // the width written
    int32_t value = -1;   // index into the point's values, unless `object`
    int32_t object = -1;  // >= 0: another object of the entry (its address)
    bool operator==(const Field&) const = default;
  };
  int64_t size = 0;
  std::vector<Field> fields;
  // Indices into the point's values (ir::VirtualObject::existing_if and
  // existing), or -1 for an object that is always allocated.
  int32_t existing_if = -1;
  int32_t existing = -1;
  bool operator==(const DeoptObjectDesc&) const = default;
};

struct DeoptFrameDesc {
  int64_t call_target_id = 0;
  int64_t resume_point = 0;
  ir::DeoptKind kind = ir::DeoptKind::kEager;
  std::vector<DeoptSlotDesc> locals;
  std::vector<DeoptSlotDesc> stack;
  bool operator==(const DeoptFrameDesc&) const = default;
};

struct DeoptEntry {
  enum class Cause : uint8_t {
    kGuard,        // `guard` (a kDeoptIf, possibly a fused compare)
    kOverflow,     // `guard` fused with iadd/isub/imul into add.ovf & co.
    kDeopt,        // the `deopt` terminator
    kCall,         // lazy frame state of call_runtime/call_target (no exit
                   // stub: the point's pc is the call's return address)
    kUnreachable,  // `unreachable` reached: no frames; Decode fails
    kSafepoint,    // `safepoint` polled a set safepoint word (keeps the code)
  };
  uint32_t id = 0;
  Cause cause = Cause::kGuard;
  ir::DeoptKind kind = ir::DeoptKind::kEager;
  std::string reason;
  ir::DeoptAction action = ir::DeoptAction::kInvalidate;  // the guard's/deopt's
  std::vector<DeoptFrameDesc> frames;  // innermost first
  std::vector<DeoptObjectDesc> objects;  // the virtual objects `frames` name
  uint32_t num_values = 0;             // size of the DeoptState
  // After Resolve(): where each value lives at the exit (size num_values).
  std::vector<ValueLocation> locations;
};

absl::string_view CauseName(DeoptEntry::Cause cause);

struct DecodedDeopt {
  uint32_t id = 0;
  DeoptEntry::Cause cause = DeoptEntry::Cause::kGuard;
  ir::DeoptKind kind = ir::DeoptKind::kEager;
  std::string reason;
  ir::DeoptAction action = ir::DeoptAction::kInvalidate;
  std::vector<ir::DeoptFrame> frames;  // innermost first, then parents
  // The virtual objects the frames name (ir::DeoptFrame::Slot::object), not
  // yet allocated: ir::MaterializeDeoptObjects. Exactly ir::Interpret's
  // ExecutionResult::objects for the same state.
  std::vector<ir::DeoptObject> objects;
};

class DeoptMap {
 public:
  // Appends an entry; its id must be entries().size().
  void Add(DeoptEntry entry) { entries_.push_back(std::move(entry)); }
  const std::vector<DeoptEntry>& entries() const { return entries_; }
  // nullptr if unknown.
  const DeoptEntry* Find(uint32_t id) const;

  // Copies the value locations of every entry from `metadata` (matching
  // deopt ids). Fails if a point is missing or has the wrong value count.
  absl::Status Resolve(const CodeMetadata& metadata);
  bool resolved() const { return resolved_; }

  // Evaluates entry `id` from a deopt handler's arguments.
  absl::StatusOr<DecodedDeopt> Decode(uint64_t id, const uint64_t* saved_regs,
                                      const uint8_t* frame_pointer) const;

  // One line per entry (after Resolve, with locations), for dumps and tests:
  //   #3 guard eager "overflow": [target 1 resume 4 locals (0:1, illegal) stack ()]
  //   (`"reason" keep_code:` for a deopt that keeps the code)
  //   where 0:1 are value indices (and @loc after Resolve); a slot naming
  //   a virtual object prints `o0:1`, and the objects follow the frames:
  //   ` o0 = object 16 [0: i64 2, 8: ptr o1]`.
  std::string DebugString() const;

 private:
  std::vector<DeoptEntry> entries_;
  bool resolved_ = false;
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_DEOPT_MAP_H_
