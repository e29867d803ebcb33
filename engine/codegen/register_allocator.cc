#include "engine/codegen/register_allocator.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/codegen/liveness.h"

namespace morel::codegen {
namespace {

bool IsShift(MOp op) { return op == MOp::kShl || op == MOp::kSar || op == MOp::kShr; }

// Moves register shift counts into the target's count register.
void LegalizeShiftCounts(MachineFunction& mf, const RegisterInfo& ri) {
  if (ri.shift_count == kNoPReg) return;
  for (MachineBlock& b : mf.blocks()) {
    std::vector<MachineInst> out;
    out.reserve(b.insts.size());
    for (MachineInst& inst : b.insts) {
      if (IsShift(inst.op) && inst.uses.size() == 2 && inst.uses[1].is_vreg()) {
        MachineOperand count = MachineOperand::Phys(ri.shift_count);
        out.push_back(mi::Mov(count, inst.uses[1]));
        inst.uses[1] = count;
      }
      out.push_back(std::move(inst));
    }
    b.insts = std::move(out);
  }
}

class LinearScan {
 public:
  LinearScan(MachineFunction& mf, const RegisterInfo& ri, const AllocationOptions& o)
      : mf_(mf), ri_(ri), options_(o) {}

  absl::StatusOr<AllocationResult> Run() {
    LegalizeShiftCounts(mf_, ri_);
    mf_.ComputeSuccessors();
    absl::Status valid = CheckDeoptStates();
    if (!valid.ok()) return valid;
    absl::StatusOr<Liveness> lv = ComputeLiveness(mf_);
    if (!lv.ok()) return lv.status();
    BuildIntervals(*lv, ComputeLoopDepths(mf_));
    BuildFixedRanges(*lv);
    IndexFixedRanges();
    Scan();
    absl::Status s = Rewrite();
    if (!s.ok()) return s;
    mf_.set_allocated(true);
    for (const LiveInterval& it : intervals_) {
      if (it.start <= it.end) result_.intervals.push_back(it);
    }
    return std::move(result_);
  }

 private:
  void Extend(uint32_t v, int pos) {
    LiveInterval& it = intervals_[v];
    if (it.start > it.end) {
      it.start = it.end = pos;
    } else {
      it.start = std::min(it.start, pos);
      it.end = std::max(it.end, pos);
    }
  }

  // Spill cost of one use or def: 10^(loop depth), depth capped.
  static constexpr int kMaxWeightedDepth = 3;
  // Added to an interval's length (in instructions) before dividing: keeps
  // a short interval's density from outweighing a long one's many uses.
  // (LLVM uses 25; on the SL benchmarks 64 executed ~1% fewer JIT
  // instructions than 16, and as few as pure use counts.)
  static constexpr double kLengthBias = 64;

  void BuildIntervals(const Liveness& lv, const std::vector<int>& loop_depth) {
    intervals_.resize(mf_.num_vregs());
    for (uint32_t v = 0; v < intervals_.size(); ++v) intervals_[v].vreg = v;
    std::vector<double> cost(intervals_.size(), 0);
    int pos = 0;
    for (const MachineBlock& b : mf_.blocks()) {
      lv.live_in[b.id].ForEach([&](uint32_t v) { Extend(v, lv.block_start[b.id]); });
      lv.live_out[b.id].ForEach([&](uint32_t v) { Extend(v, lv.block_end[b.id]); });
      double freq = 1;
      for (int d = std::min(loop_depth[b.id], kMaxWeightedDepth); d > 0; --d) freq *= 10;
      for (const MachineInst& inst : b.insts) {
        for (const MachineOperand& u : inst.uses) {
          if (!u.is_vreg()) continue;
          Extend(u.index, pos);
          cost[u.index] += freq;
        }
        if (inst.deopt >= 0) {
          // An exit taken after the instruction's defs (overflow checks)
          // needs its state intact at the def position too.
          const int at = inst.defs.empty() ? pos : pos + 1;
          for (const MachineOperand& v : mf_.deopt_states()[inst.deopt].values) {
            if (v.is_vreg()) Extend(v.index, at);
          }
        }
        for (const MachineOperand& d : inst.defs) {
          if (!d.is_vreg()) continue;
          Extend(d.index, pos + 1);
          cost[d.index] += freq;
        }
        pos += 2;
      }
    }
    // Deopt-state reads cost nothing when spilled (they read the slot), so
    // they lengthen the interval but add no weight.
    for (LiveInterval& it : intervals_) {
      if (it.start > it.end) continue;
      const double instructions = (it.end - it.start) / 2 + 1;
      it.weight = cost[it.vreg] / (instructions + kLengthBias);
    }
  }

  void BuildFixedRanges(const Liveness& lv) {
    int pos = 0;
    for (const MachineBlock& b : mf_.blocks()) {
      int open[64];
      std::fill(std::begin(open), std::end(open), -1);
      for (const MachineInst& inst : b.insts) {
        for (const MachineOperand& u : inst.uses) {
          if (!u.is_preg()) continue;
          int s = open[u.index] >= 0 ? open[u.index] : lv.block_start[b.id];
          AddFixed(static_cast<PReg>(u.index), s, pos);
        }
        uint64_t clobbers = EffectiveClobbers(inst, ri_);
        for (int r = 0; r < 64; ++r) {
          if ((clobbers >> r) & 1) AddFixed(static_cast<PReg>(r), pos, pos + 1);
        }
        for (const MachineOperand& d : inst.defs) {
          if (!d.is_preg()) continue;
          open[d.index] = pos + 1;
          AddFixed(static_cast<PReg>(d.index), pos + 1, pos + 1);
        }
        pos += 2;
      }
    }
  }

  // The state of a deopt exit describes the frame before the instruction:
  // its defs must not be part of it.
  absl::Status CheckDeoptStates() const {
    for (const MachineBlock& b : mf_.blocks()) {
      for (const MachineInst& inst : b.insts) {
        if (inst.deopt < 0) continue;
        if (inst.deopt >= static_cast<int32_t>(mf_.deopt_states().size())) {
          return absl::InvalidArgumentError("deopt state index out of range");
        }
        for (const MachineOperand& d : inst.defs) {
          for (const MachineOperand& v : mf_.deopt_states()[inst.deopt].values) {
            if (d.is_vreg() && v.is_vreg() && d.index == v.index) {
              return absl::InvalidArgumentError(absl::StrCat(
                  mf_.name(), ": v", d.index, " is defined by ", MOpName(inst.op),
                  " and part of its own deopt state"));
            }
          }
        }
      }
    }
    return absl::OkStatus();
  }

  void AddFixed(PReg r, int s, int e) {
    result_.fixed.push_back({r, s, e});
    fixed_by_reg_[r].ranges.push_back({s, e});
  }

  // Per register: the fixed ranges sorted by end, and for each index the
  // smallest start from there on. A range [fs, fe] overlaps [s, e] iff
  // fe >= s and fs <= e; the ranges with fe >= s are a suffix (binary
  // search), and some start in it is <= e iff its smallest one is. So a
  // query is O(log n), not O(n): a function with a call every few
  // instructions has fixed ranges on every caller-saved register per call,
  // and a linear scan per query made allocation quadratic in the calls.
  struct FixedIndex {
    std::vector<std::pair<int, int>> ranges;  // (start, end), sorted by end
    std::vector<int> suffix_min_start;
  };

  void IndexFixedRanges() {
    for (FixedIndex& index : fixed_by_reg_) {
      auto& ranges = index.ranges;
      // BuildFixedRanges adds them in nearly sorted order: usually a no-op.
      if (!std::is_sorted(ranges.begin(), ranges.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })) {
        std::stable_sort(ranges.begin(), ranges.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
      }
      index.suffix_min_start.resize(ranges.size());
      int min_start = INT_MAX;
      for (size_t i = ranges.size(); i-- > 0;) {
        min_start = std::min(min_start, ranges[i].first);
        index.suffix_min_start[i] = min_start;
      }
    }
  }

  bool FixedConflict(PReg r, int s, int e) const {
    const FixedIndex& index = fixed_by_reg_[r];
    auto first = std::lower_bound(index.ranges.begin(), index.ranges.end(), s,
                                  [](const std::pair<int, int>& range, int pos) {
                                    return range.second < pos;
                                  });
    if (first == index.ranges.end()) return false;
    return index.suffix_min_start[first - index.ranges.begin()] <= e;
  }

  // A slot for an interval [start, end]. A spilled interval lives in its
  // slot for its whole life, and a victim spilled late started long before
  // the current position: reuse only a slot whose last holder ended before
  // `start` (not merely before the scan position).
  // Both sets are min-heaps by end, so if any free slot qualifies the top
  // does, and expiring holders pops only those that end: O(log n) each.
  int32_t TakeSlot(int start, int end) {
    int32_t slot = -1;
    if (!free_slots_.empty() && free_slots_.top().first < start) {
      slot = free_slots_.top().second;
      free_slots_.pop();
    }
    if (slot < 0) slot = static_cast<int32_t>(mf_.NewStackSlot());
    slot_holders_.push({end, slot});
    return slot;
  }

  void Spill(LiveInterval& it) {
    it.preg = kNoPReg;
    it.spill_slot = TakeSlot(it.start, it.end);
    ++result_.num_spilled;
  }

  void Scan() {
    std::vector<LiveInterval*> order;
    for (LiveInterval& it : intervals_) {
      if (it.start <= it.end) order.push_back(&it);
    }
    std::stable_sort(order.begin(), order.end(), [](const LiveInterval* a, const LiveInterval* b) {
      return a->start < b->start;
    });
    std::vector<LiveInterval*> active;
    for (LiveInterval* cur : order) {
      // Expire intervals (and spill slots) that end before cur starts.
      std::erase_if(active, [&](LiveInterval* a) { return a->end < cur->start; });
      while (!slot_holders_.empty() && slot_holders_.top().first < cur->start) {
        free_slots_.push(slot_holders_.top());  // (end of its last holder, slot)
        slot_holders_.pop();
      }
      if (options_.spill_everything) {
        Spill(*cur);
        continue;
      }
      const RegClass cls = mf_.vreg_class(cur->vreg);
      uint64_t busy = 0;
      for (const LiveInterval* a : active) busy |= RegisterInfo::Bit(a->preg);
      PReg chosen = kNoPReg;
      for (PReg r : ri_.allocatable[static_cast<int>(cls)]) {
        if ((busy & RegisterInfo::Bit(r)) == 0 && !FixedConflict(r, cur->start, cur->end)) {
          chosen = r;
          break;
        }
      }
      if (chosen != kNoPReg) {
        cur->preg = chosen;
        active.push_back(cur);
        continue;
      }
      // No free register: spill the lightest interval (lowest weight; on a
      // tie, the one that ends last) among cur and the active intervals
      // whose register cur could use.
      LiveInterval* victim = nullptr;
      for (LiveInterval* a : active) {
        if (mf_.vreg_class(a->vreg) != cls || FixedConflict(a->preg, cur->start, cur->end)) {
          continue;
        }
        if (victim == nullptr || Lighter(*a, *victim)) victim = a;
      }
      if (victim != nullptr && Lighter(*victim, *cur)) {
        cur->preg = victim->preg;
        Spill(*victim);
        std::erase(active, victim);
        active.push_back(cur);
      } else {
        Spill(*cur);
      }
    }
  }

  // Whether `a` is the better one to spill: lower weight, then ends later.
  static bool Lighter(const LiveInterval& a, const LiveInterval& b) {
    if (a.weight != b.weight) return a.weight < b.weight;
    return a.end > b.end;
  }

  absl::Status Rewrite() {
    // Deopt states: any location (register or slot), no reloads.
    for (DeoptState& st : mf_.deopt_states()) {
      for (MachineOperand& v : st.values) {
        if (!v.is_vreg()) continue;
        const LiveInterval& it = intervals_[v.index];
        uint32_t vreg = v.index;
        v = it.preg != kNoPReg ? MachineOperand::Phys(it.preg) : MachineOperand::Slot(it.spill_slot);
        v.vreg = vreg;
      }
    }
    for (MachineBlock& b : mf_.blocks()) {
      std::vector<MachineInst> out;
      out.reserve(b.insts.size());
      for (MachineInst& inst : b.insts) {
        if (RewriteSpilledMove(inst, out)) continue;
        std::vector<std::pair<uint32_t, PReg>> in_scratch;  // vreg -> scratch
        size_t next = 0;
        PReg use0_scratch = kNoPReg;
        for (size_t i = 0; i < inst.uses.size(); ++i) {
          MachineOperand& u = inst.uses[i];
          if (!u.is_vreg()) continue;
          const uint32_t v = u.index;
          const LiveInterval& it = intervals_[v];
          if (it.preg != kNoPReg) {
            u = MachineOperand::Phys(it.preg, u.reg_class);
            u.vreg = v;
            continue;
          }
          PReg s = kNoPReg;
          for (const auto& [sv, sr] : in_scratch) {
            if (sv == v) s = sr;
          }
          if (s == kNoPReg) {
            if (next >= ri_.scratch.size()) return TooManySpills(inst);
            s = ri_.scratch[next++];
            in_scratch.push_back({v, s});
            MachineInst reload{MOp::kReload, Cond::kEq, {MachineOperand::Phys(s)},
                               {MachineOperand::Slot(it.spill_slot)}};
            reload.defs[0].vreg = v;
            reload.uses[0].vreg = v;
            out.push_back(std::move(reload));
            ++result_.reloads;
          }
          if (i == 0) use0_scratch = s;
          u = MachineOperand::Phys(s, u.reg_class);
          u.vreg = v;
        }
        std::vector<MachineInst> stores;
        for (MachineOperand& d : inst.defs) {
          if (!d.is_vreg()) continue;
          const uint32_t v = d.index;
          const LiveInterval& it = intervals_[v];
          if (it.preg != kNoPReg) {
            d = MachineOperand::Phys(it.preg, d.reg_class);
            d.vreg = v;
            continue;
          }
          PReg s = use0_scratch;
          if (s == kNoPReg) {
            if (next >= ri_.scratch.size()) return TooManySpills(inst);
            s = ri_.scratch[next++];
          }
          d = MachineOperand::Phys(s, d.reg_class);
          d.vreg = v;
          MachineInst store{MOp::kSpill, Cond::kEq, {},
                            {MachineOperand::Phys(s), MachineOperand::Slot(it.spill_slot)}};
          store.uses[0].vreg = v;
          store.uses[1].vreg = v;
          stores.push_back(std::move(store));
          ++result_.stores;
        }
        const bool terminator = IsTerminator(inst.op);
        out.push_back(std::move(inst));
        if (!stores.empty() && terminator) {
          return absl::InvalidArgumentError("a terminator defines a vreg");
        }
        for (MachineInst& s : stores) out.push_back(std::move(s));
      }
      b.insts = std::move(out);
    }
    return absl::OkStatus();
  }

  // A register copy with exactly one side spilled becomes one spill of the
  // source register into the def's slot, or one reload of the source's slot
  // into the def's register, instead of going through a scratch register
  // (mov + spill, reload + mov). The vreg annotations name what each
  // location holds afterwards (allocation_verifier.h: a copy).
  bool RewriteSpilledMove(const MachineInst& inst, std::vector<MachineInst>& out) {
    if (inst.op != MOp::kMov || inst.deopt >= 0 || inst.defs.size() != 1 ||
        inst.uses.size() != 1 || !inst.defs[0].is_vreg() || !inst.uses[0].is_vreg()) {
      return false;
    }
    const uint32_t dv = inst.defs[0].index;
    const uint32_t uv = inst.uses[0].index;
    const LiveInterval& d = intervals_[dv];
    const LiveInterval& u = intervals_[uv];
    if (d.preg == kNoPReg && u.preg != kNoPReg) {
      MachineInst store{MOp::kSpill, Cond::kEq, {},
                        {MachineOperand::Phys(u.preg), MachineOperand::Slot(d.spill_slot)}};
      store.uses[0].vreg = uv;
      store.uses[1].vreg = dv;
      out.push_back(std::move(store));
      ++result_.stores;
      return true;
    }
    if (d.preg != kNoPReg && u.preg == kNoPReg) {
      MachineInst reload{MOp::kReload, Cond::kEq, {MachineOperand::Phys(d.preg)},
                         {MachineOperand::Slot(u.spill_slot)}};
      reload.defs[0].vreg = dv;
      reload.uses[0].vreg = uv;
      out.push_back(std::move(reload));
      ++result_.reloads;
      return true;
    }
    return false;
  }

  absl::Status TooManySpills(const MachineInst& inst) const {
    return absl::ResourceExhaustedError(absl::StrCat(
        mf_.name(), ": ", MOpName(inst.op), " needs more spilled register operands than the ",
        ri_.scratch.size(), " scratch registers of ", ri_.target));
  }

  MachineFunction& mf_;
  const RegisterInfo& ri_;
  const AllocationOptions& options_;
  std::vector<LiveInterval> intervals_;
  FixedIndex fixed_by_reg_[64];
  using SlotHeap = std::priority_queue<std::pair<int, int32_t>,
                                       std::vector<std::pair<int, int32_t>>, std::greater<>>;
  SlotHeap slot_holders_;  // (end, slot)
  SlotHeap free_slots_;    // (end of last holder, slot)
  AllocationResult result_;
};

}  // namespace

uint64_t EffectiveClobbers(const MachineInst& inst, const RegisterInfo& ri) {
  uint64_t c = inst.clobbers;
  if (inst.op == MOp::kCall || inst.op == MOp::kCallIndirect) c |= ri.caller_saved;
  if (inst.op == MOp::kDiv || inst.op == MOp::kRem || inst.op == MOp::kMulHigh) {
    c |= ri.div_clobbers;
  }
  return c;
}

absl::StatusOr<AllocationResult> AllocateRegisters(MachineFunction& mf, const RegisterInfo& ri,
                                                   const AllocationOptions& options) {
  if (mf.allocated()) return absl::FailedPreconditionError(mf.name() + " is already allocated");
  if (ri.scratch.size() < 2) return absl::InvalidArgumentError("RegisterInfo needs 2 scratch regs");
  return LinearScan(mf, ri, options).Run();
}

}  // namespace morel::codegen
