#ifndef MOREL_ENGINE_IR_FRAME_STATE_H_
#define MOREL_ENGINE_IR_FRAME_STATE_H_

// FrameState: what the interpreter needs to resume a call target at a point
// of its execution, modelled on V8 Maglev's DeoptFrame. Guards, safepoints
// and deopts reference an eager frame state (resume before the failing
// operation); calls that can invalidate their caller reference a lazy one
// (resume after the call returns, with the call's result). Inlined frames
// chain through `parent` (the caller's frame state).
//
// A frame state is a function-level entity, not an instruction: it has no
// position, and the verifier checks that every value it (and its parents)
// references dominates every instruction that uses it. Text form:
//
//   fs1 = eager interpreter target 3 resume 17 locals [v0:v1, illegal] stack [v4:v5] parent fs0
//
// A slot's payload may be a virtual object instead of a value (`vo2:v5`):
// an allocation that escape analysis removed (engine/opt/escape_analysis.h).
// Deoptimizing there allocates it, with the field values it had at that
// point, before the interpreter resumes; every slot (of every frame of the
// chain) that names the same virtual object gets the same new object.
// Virtual objects are function-level entities like frame states:
//
//   vo2 = object 64 [0: ptr v7, 8: i64 v8, 16: ptr vo3]
//
// Fields not listed are zero, as in the memory `alloc` returns. An object
// may name, after its fields, a value that stands for it instead where a
// condition holds:
//
//   vo2 = object 64 [0: i64 v7] existing v9 if v8
//
// where v8 is nonzero when the state is evaluated, nothing is allocated and
// every slot and field naming vo2 gets v9 (escape analysis: a loop's
// previous record, which on the loop's first iteration is whatever the local
// held on entry, e.g. the interpreter's object in OSR code).
//
// A slot whose tag is kUnassignedTag when the frame state is evaluated is
// an unassigned local, whatever its payload: the runtime does not read the
// payload (it may be an object a deoptimization allocated and drops).
// Escape analysis relies on it for locals that loops assign a new record.

#include <cstdint>
#include <vector>

#include "engine/ir/types.h"

namespace morel::ir {

class Value;

enum class FrameKind : uint8_t {
  kInterpreter,  // an interpreted frame of a call target
};

enum class DeoptKind : uint8_t {
  kEager,  // resume before the operation (guards, deopt, safepoints)
  kLazy,   // resume after a call returns (calls)
};

// What a deoptimization does to the code it leaves (Graal's
// DeoptimizationAction), a property of the `guard`/`deopt` that takes it:
//   kInvalidate  the code is dropped and the call target re-profiles
//                (InvalidateReprofile: a failed speculation, a rewrite,
//                Truffle's transferToInterpreterAndInvalidate()). The default.
//   kKeepCode    only this activation continues in the interpreter; the
//                code stays installed and the deopt does not count toward
//                deopt-cycle detection (None: Truffle's
//                transferToInterpreter()). Text form: `, keep_code` after
//                the reason.
enum class DeoptAction : uint8_t {
  kInvalidate,
  kKeepCode,
};

struct VirtualObject;

// The tag of an unassigned slot (nodes/value.h's kIllegalTag; the runtime
// checks that they agree).
inline constexpr int64_t kUnassignedTag = 0;

// A guest Value as two SSA values: payload (i64) and tag (i64). Both null:
// `illegal` (an unassigned or dead local). `object` instead of `payload`:
// the payload is the address of a virtual object, allocated on deopt.
struct ValuePair {
  Value* payload = nullptr;
  Value* tag = nullptr;
  VirtualObject* object = nullptr;

  bool is_illegal() const { return payload == nullptr && tag == nullptr && object == nullptr; }
  static ValuePair Illegal() { return ValuePair{}; }
};

// An allocation (`alloc`) that escape analysis removed, as deoptimization
// must recreate it: `size` bytes, zero except for `fields`.
struct VirtualObject {
  struct Field {
    int32_t offset = 0;
    Type type = Type::kI64;  // the width stored: i32, i64, f64 or ptr
    // Exactly one: the field's value, or another virtual object's address
    // (a ptr or i64 field).
    Value* value = nullptr;
    VirtualObject* object = nullptr;
  };
  uint32_t id = 0;  // printed as vo<id>; set by the Function
  int64_t size = 0;
  std::vector<Field> fields;  // by increasing offset, not overlapping
  // Both or neither (i64): where `existing_if` is nonzero, the object is
  // `existing`'s value and is not allocated.
  Value* existing_if = nullptr;
  Value* existing = nullptr;
};

struct FrameState {
  uint32_t id = 0;  // printed as fs<id>; set by the Function
  FrameKind kind = FrameKind::kInterpreter;
  DeoptKind deopt_kind = DeoptKind::kEager;
  // The call target the frame belongs to (an id the PE assigns).
  int64_t call_target_id = 0;
  // Where the interpreter resumes: opaque to the IR (the PE encodes a node
  // id and the progress within the node).
  int64_t resume_point = 0;
  // Frame slots, in slot order; entries may be illegal.
  std::vector<ValuePair> locals;
  // Already-computed expression values the resumed node needs, innermost
  // last; never illegal.
  std::vector<ValuePair> stack;
  // The caller's frame state for an inlined frame, else nullptr.
  FrameState* parent = nullptr;

  // Calls f(Value*&) for every value referenced by this frame state only
  // (not its parent), including the fields of the virtual objects it
  // references (each object once).
  template <typename F>
  void ForEachValue(F&& f) {
    std::vector<VirtualObject*> objects;
    ForEachValue(f, &objects);
  }
  // Calls f(Value*&) for every value a virtual object holds, directly or
  // through the objects its fields name (each object once).
  template <typename F>
  static void ForEachValueOf(VirtualObject* object, F&& f) {
    std::vector<VirtualObject*> seen;
    VisitObject(object, f, seen);
  }
  // Whether a slot names a virtual object (objects are reachable only
  // through slots).
  bool NamesVirtualObjects() const {
    for (const std::vector<ValuePair>* slots : {&locals, &stack}) {
      for (const ValuePair& p : *slots) {
        if (p.object != nullptr) return true;
      }
    }
    return false;
  }
  // The virtual objects this frame state references, directly or through
  // other objects' fields; each once, in a stable order.
  std::vector<VirtualObject*> VirtualObjects() {
    std::vector<VirtualObject*> objects;
    ForEachValue([](Value*&) {}, &objects);
    return objects;
  }

 private:
  template <typename F>
  void ForEachValue(F&& f, std::vector<VirtualObject*>* objects) {
    for (ValuePair& p : locals) {
      if (p.is_illegal()) continue;
      VisitPair(p, f, *objects);
    }
    for (ValuePair& p : stack) VisitPair(p, f, *objects);
  }
  template <typename F>
  static void VisitPair(ValuePair& p, F& f, std::vector<VirtualObject*>& objects) {
    if (p.object != nullptr) {
      VisitObject(p.object, f, objects);
    } else {
      f(p.payload);
    }
    f(p.tag);
  }
  template <typename F>
  static void VisitObject(VirtualObject* object, F& f, std::vector<VirtualObject*>& seen) {
    for (VirtualObject* s : seen) {
      if (s == object) return;
    }
    seen.push_back(object);
    for (VirtualObject::Field& field : object->fields) {
      if (field.object != nullptr) {
        VisitObject(field.object, f, seen);
      } else {
        f(field.value);
      }
    }
    if (object->existing_if != nullptr) {
      f(object->existing_if);
      f(object->existing);
    }
  }
};

// Numbers the virtual objects of one deoptimization as every tier reports
// them (ir::DeoptObject indices): on first use, walking the frames
// innermost first, locals then stack, an object before the objects its
// fields name. `Object` is a tier's evaluated form, with `size` and
// `fields`; Number's `make_field(field, object)` makes one of its fields
// (`object`: the index of the object the field names, else -1), in field
// order, then `make_existing(evaluated, object)` fills in an object's
// existing value (VirtualObject::existing_if), if it has one, so value
// numbering that follows the walk stays in step.
template <typename Object>
class VirtualObjectNumbering {
 public:
  explicit VirtualObjectNumbering(std::vector<Object>* objects) : objects_(objects) {}

  template <typename MakeField, typename MakeExisting>
  int32_t Number(const VirtualObject* object, MakeField&& make_field,
                 MakeExisting&& make_existing) {
    for (size_t i = 0; i < numbered_.size(); ++i) {
      if (numbered_[i] == object) return static_cast<int32_t>(i);
    }
    const int32_t index = static_cast<int32_t>(numbered_.size());
    numbered_.push_back(object);
    objects_->emplace_back();
    (*objects_)[index].size = object->size;
    for (const VirtualObject::Field& field : object->fields) {
      const int32_t named =
          field.object != nullptr ? Number(field.object, make_field, make_existing) : -1;
      (*objects_)[index].fields.push_back(make_field(field, named));
    }
    if (object->existing_if != nullptr) make_existing((*objects_)[index], *object);
    return index;
  }

 private:
  std::vector<Object>* objects_;
  std::vector<const VirtualObject*> numbered_;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_FRAME_STATE_H_
