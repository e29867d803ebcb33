#include "engine/codegen/emission_record.h"

#include <utility>

namespace morel::codegen {

EmissionRecord::EmissionRecord(const MachineFunction& mf, CodeBuffer& code,
                               std::function<int32_t(uint32_t)> slot_offset)
    : mf_(mf), code_(code), slot_offset_(std::move(slot_offset)) {}

absl::StatusOr<Label> EmissionRecord::DeoptExit(const MachineInst& inst) {
  if (inst.deopt < 0 || inst.deopt >= static_cast<int>(mf_.deopt_states().size())) {
    return absl::InvalidArgumentError("instruction needs a deopt state");
  }
  auto it = exit_labels_.find(inst.deopt);
  if (it != exit_labels_.end()) return it->second;
  Label label = code_.NewLabel();
  exit_labels_[inst.deopt] = label;
  first_branch_[inst.deopt] = static_cast<uint32_t>(code_.size());
  exit_order_.push_back(inst.deopt);
  return label;
}

absl::StatusOr<ValueLocation> EmissionRecord::Location(const MachineOperand& v) const {
  using K = ValueLocation::Kind;
  if (v.is_preg()) return ValueLocation{K::kRegister, static_cast<int64_t>(v.index)};
  if (v.kind == MachineOperand::Kind::kStackSlot) {
    return ValueLocation{K::kFrameSlot, slot_offset_(v.index)};
  }
  if (v.is_imm()) return ValueLocation{K::kConstant, v.imm};
  return absl::InvalidArgumentError("deopt value must be allocated or constant");
}

absl::Status EmissionRecord::EmitDeoptExits(const std::function<void(uint32_t id)>& emit_stub) {
  for (int32_t state : exit_order_) {
    const DeoptState& st = mf_.deopt_states()[state];
    code_.Bind(exit_labels_.at(state));
    DeoptPoint point;
    point.id = st.id;
    point.pc_offset = first_branch_.at(state);
    point.exit_offset = static_cast<uint32_t>(code_.size());
    for (const MachineOperand& v : st.values) {
      absl::StatusOr<ValueLocation> loc = Location(v);
      if (!loc.ok()) return loc.status();
      point.values.push_back(*loc);
    }
    metadata_.deopt_points.push_back(std::move(point));
    emit_stub(st.id);
  }
  return absl::OkStatus();
}

absl::Status EmissionRecord::RecordCall(const MachineInst& inst) {
  const uint32_t return_offset = static_cast<uint32_t>(code_.size());
  CallSite site{return_offset, -1};
  if (inst.deopt >= 0) {
    // A lazy deopt point: its values are where they are at the return
    // address (callee-saved registers or frame slots); no exit stub.
    const DeoptState& st = mf_.deopt_states()[inst.deopt];
    site.deopt_id = static_cast<int32_t>(st.id);
    DeoptPoint point;
    point.id = st.id;
    point.pc_offset = return_offset;
    point.exit_offset = 0;
    for (const MachineOperand& v : st.values) {
      absl::StatusOr<ValueLocation> loc = Location(v);
      if (!loc.ok()) return loc.status();
      point.values.push_back(*loc);
    }
    metadata_.deopt_points.push_back(std::move(point));
  }
  metadata_.call_sites.push_back(site);
  return absl::OkStatus();
}

void EmissionRecord::RecordRuntimeCall() {
  metadata_.call_sites.push_back({static_cast<uint32_t>(code_.size()), -1});
}

void EmissionRecord::RecordBlockStart(const MachineBlock& block) {
  if (block.osr_entry >= 0) {
    metadata_.osr_entries.push_back(
        {static_cast<uint32_t>(block.osr_entry), static_cast<uint32_t>(code_.size())});
  }
}

CodeMetadata EmissionRecord::Finish(uint32_t frame_size, std::vector<int> saved_registers) {
  metadata_.code_size = static_cast<uint32_t>(code_.size());
  metadata_.frame_size = frame_size;
  metadata_.saved_registers = std::move(saved_registers);
  return std::move(metadata_);
}

}  // namespace morel::codegen
