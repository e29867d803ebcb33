#ifndef MOREL_ENGINE_CODEGEN_DEOPT_METADATA_H_
#define MOREL_ENGINE_CODEGEN_DEOPT_METADATA_H_

// Metadata a backend returns with installed code, for the runtime:
//   * deopt points: pc offset of the guard -> deopt id, and where each value
//     of the deopt state lives (register, frame slot, constant) when the exit
//     is taken, so the runtime can rebuild the interpreter frame;
//   * call sites (return-address offsets; safepoints), with the deopt id
//     whose state describes the frame while the callee runs (lazy deopt);
//   * OSR entries (block marked MachineBlock::osr_entry -> pc offset).
// The value order of a deopt point is the order of DeoptState::values; what
// each entry means (which local, payload or tag) is the lowering pass's
// side table, keyed by deopt id.
//
// EncodeDeoptPoints/DecodeDeoptPoints give a compact byte form (LEB128
// varints; a register location is one byte) for keeping many points.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace morel::codegen {

struct ValueLocation {
  enum class Kind : uint8_t {
    kRegister = 0,   // value: the target's PReg number (saved_regs[value])
    kFrameSlot = 1,  // value: byte offset from the frame pointer
    kConstant = 2,   // value: the constant
  };
  Kind kind = Kind::kConstant;
  int64_t value = 0;

  friend bool operator==(const ValueLocation& a, const ValueLocation& b) {
    return a.kind == b.kind && a.value == b.value;
  }
};

struct DeoptPoint {
  uint32_t id = 0;
  // Eager points: the guarding instruction (jcc/jmp) and its exit stub.
  // Lazy points (a call's deopt state): pc_offset is the call's return
  // address and exit_offset is 0 (no stub; the values are where they are
  // when the call returns: callee-saved registers, frame slots, constants).
  uint32_t pc_offset = 0;
  uint32_t exit_offset = 0;
  std::vector<ValueLocation> values;

  friend bool operator==(const DeoptPoint& a, const DeoptPoint& b) {
    return a.id == b.id && a.pc_offset == b.pc_offset && a.exit_offset == b.exit_offset &&
           a.values == b.values;
  }
};

struct CallSite {
  uint32_t return_offset = 0;  // offset of the return address
  int32_t deopt_id = -1;       // frame state during the call, if any
};

struct OsrEntry {
  uint32_t id = 0;
  uint32_t pc_offset = 0;
};

struct CodeMetadata {
  uint32_t code_size = 0;
  uint32_t frame_size = 0;  // bytes below the return address
  // The callee-saved registers the prologue saves (target PReg numbers), in
  // order: the k-th one is at [frame pointer - 8 * (k + 1)]. A stack walk
  // recovers its caller's values of these registers from there.
  std::vector<int> saved_registers;
  std::vector<DeoptPoint> deopt_points;
  std::vector<CallSite> call_sites;
  std::vector<OsrEntry> osr_entries;

  const DeoptPoint* FindDeopt(uint32_t id) const;
};

std::vector<uint8_t> EncodeDeoptPoints(absl::Span<const DeoptPoint> points);
absl::StatusOr<std::vector<DeoptPoint>> DecodeDeoptPoints(absl::Span<const uint8_t> bytes);

// Reads a value at deopt time: `saved_regs` indexed by PReg, `frame_pointer`
// as passed to the deopt handler.
uint64_t ReadDeoptValue(const ValueLocation& loc, const uint64_t* saved_regs,
                        const uint8_t* frame_pointer);

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_DEOPT_METADATA_H_
