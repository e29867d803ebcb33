#include "engine/codegen/allocation_verifier.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace morel::codegen {
namespace {

constexpr uint32_t kNothing = kNoVReg;       // location holds no known vreg
constexpr uint32_t kConflict = kNoVReg - 1;  // different vregs on different paths

using State = std::vector<uint32_t>;  // location -> vreg; pregs 0..63, slots 64+

class Checker {
 public:
  Checker(const MachineFunction& mf, const RegisterInfo& ri) : mf_(mf), ri_(ri) {}

  absl::Status Run() {
    if (!mf_.allocated()) return absl::FailedPreconditionError("function is not allocated");
    for (PReg r : ri_.allocatable[0]) allocatable_ |= RegisterInfo::Bit(r);
    for (PReg r : ri_.allocatable[1]) allocatable_ |= RegisterInfo::Bit(r);
    for (PReg r : ri_.scratch) allocatable_ |= RegisterInfo::Bit(r);
    const size_t nb = mf_.blocks().size();
    const size_t nloc = 64 + mf_.num_stack_slots();
    std::vector<State> in(nb);
    std::vector<bool> reached(nb, false);
    in[0].assign(nloc, kNothing);
    reached[0] = true;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 0; b < nb; ++b) {
        if (!reached[b]) continue;
        State s = in[b];
        absl::Status st = Transfer(mf_.blocks()[b], s, /*check=*/false);
        if (!st.ok()) return st;
        for (uint32_t succ : mf_.blocks()[b].successors) {
          if (!reached[succ]) {
            reached[succ] = true;
            in[succ] = s;
            changed = true;
            continue;
          }
          for (size_t l = 0; l < nloc; ++l) {
            if (in[succ][l] != s[l] && in[succ][l] != kConflict) {
              in[succ][l] = kConflict;
              changed = true;
            }
          }
        }
      }
    }
    for (size_t b = 0; b < nb; ++b) {
      if (!reached[b]) continue;
      State s = in[b];
      absl::Status st = Transfer(mf_.blocks()[b], s, /*check=*/true);
      if (!st.ok()) return st;
    }
    return absl::OkStatus();
  }

 private:
  absl::StatusOr<size_t> Location(const MachineOperand& o) const {
    if (o.is_preg()) return static_cast<size_t>(o.index);
    if (o.kind == MachineOperand::Kind::kStackSlot) return 64 + static_cast<size_t>(o.index);
    return absl::InternalError("not a location");
  }

  absl::Status CheckUse(const MachineBlock& b, size_t i, const MachineOperand& o, const State& s,
                        bool check) const {
    if (o.is_vreg()) {
      return absl::InternalError(absl::StrCat("b", b.id, "[", i, "]: v", o.index, " unallocated"));
    }
    if (!check || o.vreg == kNoVReg) return absl::OkStatus();
    absl::StatusOr<size_t> loc = Location(o);
    if (!loc.ok()) return absl::OkStatus();
    if (o.is_preg() && (allocatable_ & RegisterInfo::Bit(o.index)) == 0) {
      return absl::InternalError(absl::StrCat("b", b.id, "[", i, "]: v", o.vreg,
                                              " lives in non-allocatable p", o.index));
    }
    if (s[*loc] != o.vreg) {
      std::string holds = s[*loc] == kNothing    ? "nothing"
                          : s[*loc] == kConflict ? "different vregs on different paths"
                                                 : absl::StrCat("v", s[*loc]);
      return absl::InternalError(absl::StrCat(mf_.name(), " b", b.id, "[", i, "] ",
                                              MOpName(b.insts[i].op), ": use of v", o.vreg,
                                              " finds ", holds, " in its location"));
    }
    return absl::OkStatus();
  }

  absl::Status CheckDeopt(const MachineBlock& b, size_t i, const State& s, bool check) const {
    for (const MachineOperand& v : mf_.deopt_states()[b.insts[i].deopt].values) {
      absl::Status st = CheckUse(b, i, v, s, check);
      if (!st.ok()) return st;
    }
    return absl::OkStatus();
  }

  absl::Status Transfer(const MachineBlock& b, State& s, bool check) const {
    for (size_t i = 0; i < b.insts.size(); ++i) {
      const MachineInst& inst = b.insts[i];
      for (size_t k = 0; k < inst.uses.size(); ++k) {
        if (inst.op == MOp::kSpill && k == 1) continue;  // the slot being written
        absl::Status st = CheckUse(b, i, inst.uses[k], s, check);
        if (!st.ok()) return st;
      }
      // Deopt values are read where the exit is taken: before the
      // instruction, or after its defs if it has any (overflow checks).
      if (inst.deopt >= 0 && inst.defs.empty()) {
        absl::Status st = CheckDeopt(b, i, s, check);
        if (!st.ok()) return st;
      }
      uint64_t clobbers = EffectiveClobbers(inst, ri_);
      for (int r = 0; r < 64; ++r) {
        if ((clobbers >> r) & 1) s[r] = kNothing;
      }
      if (inst.op == MOp::kSpill) {
        // The slot now holds uses[1]'s vreg: the stored one, or the def of
        // a copy stored straight from its source's register.
        s[64 + inst.uses[1].index] =
            inst.uses[1].vreg != kNoVReg ? inst.uses[1].vreg : inst.uses[0].vreg;
        continue;
      }
      for (const MachineOperand& d : inst.defs) {
        if (d.is_vreg()) return absl::InternalError("unallocated def");
        absl::StatusOr<size_t> loc = Location(d);
        if (loc.ok()) s[*loc] = d.vreg;  // kNoVReg (== kNothing) for plain pregs
      }
      if (inst.deopt >= 0 && !inst.defs.empty()) {
        absl::Status st = CheckDeopt(b, i, s, check);
        if (!st.ok()) return st;
      }
    }
    return absl::OkStatus();
  }

  const MachineFunction& mf_;
  const RegisterInfo& ri_;
  uint64_t allocatable_ = 0;
};

}  // namespace

absl::Status VerifyAllocation(const MachineFunction& mf, const RegisterInfo& ri) {
  return Checker(mf, ri).Run();
}

absl::Status VerifyIntervals(const AllocationResult& result) {
  const auto& iv = result.intervals;
  for (size_t i = 0; i < iv.size(); ++i) {
    if (iv[i].preg == kNoPReg) {
      if (iv[i].spill_slot < 0) return absl::InternalError(absl::StrCat("v", iv[i].vreg, " lost"));
      continue;
    }
    for (size_t j = i + 1; j < iv.size(); ++j) {
      if (iv[j].preg == iv[i].preg && iv[i].start <= iv[j].end && iv[j].start <= iv[i].end) {
        return absl::InternalError(absl::StrCat("v", iv[i].vreg, " and v", iv[j].vreg,
                                                " overlap and share p", iv[i].preg));
      }
    }
    for (const FixedRange& f : result.fixed) {
      if (f.preg == iv[i].preg && iv[i].start <= f.end && f.start <= iv[i].end) {
        return absl::InternalError(absl::StrCat("v", iv[i].vreg, " overlaps a fixed range of p",
                                                f.preg, " at ", f.start));
      }
    }
  }
  // Spill slots: overlapping spilled intervals must not share a slot.
  for (size_t i = 0; i < iv.size(); ++i) {
    for (size_t j = i + 1; j < iv.size(); ++j) {
      if (iv[i].preg == kNoPReg && iv[j].preg == kNoPReg &&
          iv[i].spill_slot == iv[j].spill_slot && iv[i].start <= iv[j].end &&
          iv[j].start <= iv[i].end) {
        return absl::InternalError(absl::StrCat("v", iv[i].vreg, " and v", iv[j].vreg,
                                                " share spill slot ", iv[i].spill_slot));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace morel::codegen
