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

#include <cstdint>
#include <vector>

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

// A guest Value as two SSA values: payload (i64) and tag (i64). Both null:
// `illegal` (an unassigned or dead local).
struct ValuePair {
  Value* payload = nullptr;
  Value* tag = nullptr;

  bool is_illegal() const { return payload == nullptr && tag == nullptr; }
  static ValuePair Illegal() { return ValuePair{}; }
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
  // (not its parent).
  template <typename F>
  void ForEachValue(F&& f) {
    for (ValuePair& p : locals) {
      if (p.is_illegal()) continue;
      f(p.payload);
      f(p.tag);
    }
    for (ValuePair& p : stack) {
      f(p.payload);
      f(p.tag);
    }
  }
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_FRAME_STATE_H_
