#include "engine/codegen/testing/mir_interpreter.h"

#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/codegen/register_allocator.h"

namespace morel::codegen::testing {
namespace {

using Fn = uint64_t (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

bool Compare(Cond c, uint64_t a, uint64_t b) {
  const int64_t sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
  switch (c) {
    case Cond::kEq: return a == b;
    case Cond::kNe: return a != b;
    case Cond::kLt: return sa < sb;
    case Cond::kLe: return sa <= sb;
    case Cond::kGt: return sa > sb;
    case Cond::kGe: return sa >= sb;
    case Cond::kULt: return a < b;
    case Cond::kULe: return a <= b;
    case Cond::kUGt: return a > b;
    case Cond::kUGe: return a >= b;
  }
  return false;
}

class Machine {
 public:
  Machine(const MachineFunction& mf, const RegisterInfo& ri)
      : mf_(mf), ri_(ri), outgoing_area_(mf.outgoing_area_words()) {}

  uint64_t Read(const MachineOperand& o) {
    switch (o.kind) {
      case MachineOperand::Kind::kVReg: return vregs_[o.index];
      case MachineOperand::Kind::kPReg: return pregs_[o.index];
      case MachineOperand::Kind::kStackSlot: return slots_[o.index];
      default: return static_cast<uint64_t>(o.imm);
    }
  }
  void Write(const MachineOperand& o, uint64_t v) {
    if (o.is_vreg()) vregs_[o.index] = v;
    if (o.is_preg()) pregs_[o.index] = v;
    if (o.kind == MachineOperand::Kind::kStackSlot) slots_[o.index] = v;
  }

  absl::StatusOr<MirResult> Run(const std::vector<uint64_t>& args, int64_t max_steps) {
    for (size_t i = 0; i < args.size(); ++i) pregs_[ri_.argument_regs[i]] = args[i];
    uint32_t block = 0;
    size_t pc = 0;
    MirResult result;
    for (int64_t step = 0; step < max_steps; ++step) {
      const MachineInst& inst = mf_.block(block).insts[pc++];
      const auto& u = inst.uses;
      auto deopt = [&]() {
        const DeoptState& st = mf_.deopt_states()[inst.deopt];
        result.deopt_id = st.id;
        for (const MachineOperand& v : st.values) result.deopt_values.push_back(Read(v));
        return result;
      };
      uint64_t a = u.size() > 0 ? Read(u[0]) : 0;
      uint64_t b = u.size() > 1 ? Read(u[1]) : 0;
      uint64_t out = 0;
      switch (inst.op) {
        case MOp::kNop: continue;
        case MOp::kMov: case MOp::kMovImm: out = a; break;
        case MOp::kLoad: out = *reinterpret_cast<const uint64_t*>(a + b); break;
        case MOp::kStore: *reinterpret_cast<uint64_t*>(a + b) = Read(u[2]); continue;
        case MOp::kAdd: out = a + b; break;
        case MOp::kSub: out = a - b; break;
        case MOp::kMul: out = a * b; break;
        case MOp::kAnd: out = a & b; break;
        case MOp::kOr: out = a | b; break;
        case MOp::kXor: out = a ^ b; break;
        case MOp::kShl: out = a << (b & 63); break;
        case MOp::kSar: out = static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63)); break;
        case MOp::kShr: out = a >> (b & 63); break;
        case MOp::kAddOvf: case MOp::kSubOvf: case MOp::kMulOvf: {
          int64_t r;
          bool ovf = inst.op == MOp::kAddOvf   ? __builtin_add_overflow(int64_t(a), int64_t(b), &r)
                     : inst.op == MOp::kSubOvf ? __builtin_sub_overflow(int64_t(a), int64_t(b), &r)
                                               : __builtin_mul_overflow(int64_t(a), int64_t(b), &r);
          if (ovf) return deopt();
          out = static_cast<uint64_t>(r);
          break;
        }
        case MOp::kDiv: case MOp::kRem:
          if (b == 0) return absl::InvalidArgumentError("division by zero");
          out = inst.op == MOp::kDiv ? uint64_t(int64_t(a) / int64_t(b))
                                     : uint64_t(int64_t(a) % int64_t(b));
          break;
        case MOp::kMulHigh:
          out = static_cast<uint64_t>(
              (static_cast<__int128>(int64_t(a)) * static_cast<__int128>(int64_t(b))) >> 64);
          break;
        case MOp::kNeg: out = -a; break;
        case MOp::kNot: out = ~a; break;
        case MOp::kCmpSet: out = Compare(inst.cond, a, b) ? 1 : 0; break;
        case MOp::kBranch:
          block = Compare(inst.cond, a, b) ? u[2].index : u[3].index;
          pc = 0;
          continue;
        case MOp::kJump: block = u[0].index; pc = 0; continue;
        case MOp::kRet:
          for (const MachineOperand& r : u) result.returned.push_back(Read(r));
          return result;
        case MOp::kCall: case MOp::kCallIndirect: {
          uint64_t x[6] = {};
          for (size_t i = 0; i < 6 && i < ri_.argument_regs.size(); ++i) {
            x[i] = pregs_[ri_.argument_regs[i]];
          }
          Fn fn = reinterpret_cast<Fn>(a);
          uint64_t r = fn(x[0], x[1], x[2], x[3], x[4], x[5]);
          Clobber(EffectiveClobbers(inst, ri_));
          pregs_[ri_.return_regs[0]] = r;
          continue;
        }
        case MOp::kDeopt: return deopt();
        case MOp::kDeoptIf:
          if (Compare(inst.cond, a, b)) return deopt();
          continue;
        case MOp::kSpill: Write(u[1], a); continue;
        case MOp::kReload: out = a; break;
        case MOp::kOutgoingArea: out = reinterpret_cast<uint64_t>(outgoing_area_.data()); break;
        case MOp::kAlloc: {
          // Always the runtime's allocator (no thread pointer here); it
          // clobbers nothing, like the backends' code.
          auto allocate = reinterpret_cast<void* (*)(int64_t)>(b);
          out = reinterpret_cast<uint64_t>(allocate(static_cast<int64_t>(a)));
          break;
        }
        case MOp::kTarget:
          return absl::UnimplementedError("target opcodes are not interpreted");
      }
      Clobber(EffectiveClobbers(inst, ri_));
      if (!inst.defs.empty()) Write(inst.defs[0], out);
    }
    return absl::DeadlineExceededError("step limit");
  }

 private:
  void Clobber(uint64_t mask) {
    for (int r = 0; r < 64; ++r) {
      if ((mask >> r) & 1) pregs_[r] = 0xdead0000u + r;
    }
  }

  const MachineFunction& mf_;
  const RegisterInfo& ri_;
  std::map<uint32_t, uint64_t> vregs_;
  uint64_t pregs_[64] = {};
  std::map<uint32_t, uint64_t> slots_;
  std::vector<uint64_t> outgoing_area_;  // real memory: callees read it
};

}  // namespace

absl::StatusOr<MirResult> RunMir(const MachineFunction& mf, const RegisterInfo& ri,
                                 const std::vector<uint64_t>& args, int64_t max_steps) {
  return Machine(mf, ri).Run(args, max_steps);
}

}  // namespace morel::codegen::testing
