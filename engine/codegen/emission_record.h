#ifndef MOREL_ENGINE_CODEGEN_EMISSION_RECORD_H_
#define MOREL_ENGINE_CODEGEN_EMISSION_RECORD_H_

// What every backend's function emitter records besides its bytes, kept in
// one place so the backends cannot drift apart: the exit label of each
// deopt state (one per state, made at its first use, with the pc of that
// first branch), the call sites of calls and the lazy deopt points of
// calls with a deopt state, the OSR entries, where each deopt-state value
// lives (a register, a frame slot relative to the frame pointer, or a
// constant), and the function's sizes. The emitter emits the instructions;
// positions are the CodeBuffer's current end when it calls in.

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/codegen/code_buffer.h"
#include "engine/codegen/deopt_metadata.h"
#include "engine/codegen/machine_function.h"

namespace morel::codegen {

class EmissionRecord {
 public:
  // `slot_offset(s)`: the byte offset of stack slot s from the frame
  // pointer (CodeMetadata's frame-slot locations).
  EmissionRecord(const MachineFunction& mf, CodeBuffer& code,
                 std::function<int32_t(uint32_t)> slot_offset);

  // The exit label of `inst`'s deopt state, made when the state is first
  // used (the branch to it being emitted at the buffer's end). InvalidArgument
  // if `inst` has no deopt state.
  absl::StatusOr<Label> DeoptExit(const MachineInst& inst);
  bool has_deopt_exits() const { return !exit_order_.empty(); }
  // Binds each deopt exit's label, in first-use order, and calls
  // `emit_stub(deopt id)` there, recording the point (the first branch's
  // pc, the stub's offset, the state's value locations).
  absl::Status EmitDeoptExits(const std::function<void(uint32_t id)>& emit_stub);

  // A call (kCall/kCallIndirect) whose return address is the buffer's end: a
  // CallSite, and for a call with a deopt state a lazy DeoptPoint at the
  // return address (exit_offset 0) with the state's values where they are
  // while the callee runs.
  absl::Status RecordCall(const MachineInst& inst);
  // A call of the runtime that runs no guest code (no state).
  void RecordRuntimeCall();
  // The start of `block` is the buffer's end: its OSR entry, if it has one.
  void RecordBlockStart(const MachineBlock& block);

  // The metadata with the sizes and the callee-saved registers the
  // prologue saved (k-th at frame pointer - 8(k + 1)).
  CodeMetadata Finish(uint32_t frame_size, std::vector<int> saved_registers);

 private:
  absl::StatusOr<ValueLocation> Location(const MachineOperand& v) const;

  const MachineFunction& mf_;
  CodeBuffer& code_;
  std::function<int32_t(uint32_t)> slot_offset_;
  CodeMetadata metadata_;
  std::map<int32_t, Label> exit_labels_;   // by deopt state index
  std::map<int32_t, uint32_t> first_branch_;
  std::vector<int32_t> exit_order_;
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_EMISSION_RECORD_H_
