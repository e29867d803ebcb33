#ifndef MOREL_ENGINE_IR_DEOPT_FRAME_H_
#define MOREL_ENGINE_IR_DEOPT_FRAME_H_

// DeoptFrame: one evaluated frame state of a deoptimization, the common
// currency between the tiers. The reference interpreter (interpreter.h)
// reports it, and compiled code's deopt decoding (engine/codegen/compile.h)
// produces the same list, so a runtime rebuilds interpreter frames the same
// way for both. Kept apart from the (testonly) interpreter for that reason.

#include <cstdint>
#include <vector>

namespace morel::ir {

// One frame of a deoptimization: the evaluated frame state.
struct DeoptFrame {
  int64_t call_target_id = 0;
  int64_t resume_point = 0;
  // nullopt-free encoding: illegal locals are {0, 0} with `legal` false.
  struct Slot {
    bool legal = false;
    int64_t payload = 0, tag = 0;
    bool operator==(const Slot&) const = default;
  };
  std::vector<Slot> locals;
  std::vector<Slot> stack;
  bool operator==(const DeoptFrame&) const = default;
};

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_DEOPT_FRAME_H_
