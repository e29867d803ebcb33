#include "backend_aarch64/function_emitter.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/codegen/emission_record.h"
#include "backend_aarch64/abi.h"
#include "backend_aarch64/assembler.h"
#include "backend_aarch64/deopt_exits.h"
#include "backend_aarch64/frame.h"
#include "backend_aarch64/target_lowering.h"

namespace morel::aarch64 {
namespace {

using codegen::Cond;
using codegen::Label;
using codegen::MachineInst;
using codegen::MachineOperand;
using codegen::MOp;

class FunctionEmitter {
 public:
  FunctionEmitter(const codegen::MachineFunction& mf, const codegen::CompileOptions& options,
                  McEncoder& encoder)
      : mf_(mf), options_(options), as_(encoder, out_.code),
        record_(mf, out_.code, [this](uint32_t slot) { return frame_.SlotOffset(slot); }) {}

  absl::StatusOr<EmittedFunction> Run() {
    if (!mf_.allocated()) return absl::FailedPreconditionError("allocate registers first");
    if (options_.stack_limit.kind != codegen::StackLimit::Kind::kNone &&
        options_.stack_overflow_handler == nullptr) {
      return absl::InvalidArgumentError("a stack limit needs a stack_overflow_handler");
    }
    frame_ = ComputeFrame(mf_, Aapcs64RegisterInfo());
    for (size_t i = 0; i < mf_.blocks().size(); ++i) block_labels_.push_back(as_.buffer().NewLabel());
    overflow_stub_ = as_.buffer().NewLabel();
    common_exit_ = as_.buffer().NewLabel();
    EmitPrologue(as_, frame_, options_, overflow_stub_);
    for (size_t b = 0; b < mf_.blocks().size(); ++b) {
      as_.buffer().Bind(block_labels_[b]);
      const codegen::MachineBlock& block = mf_.blocks()[b];
      record_.RecordBlockStart(block);
      next_block_ = b + 1;
      for (const MachineInst& inst : block.insts) {
        EmitInst(inst);
        if (!as_.status().ok()) {
          return absl::Status(as_.status().code(),
                              absl::StrCat(mf_.name(), " b", b, " ", codegen::MOpName(inst.op),
                                           ": ", as_.status().message()));
        }
      }
    }
    EmitOutOfLine();
    if (!as_.status().ok()) return as_.status();
    absl::Status s = out_.code.ResolveLabels();
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat(mf_.name(), ": ", s.message()));
    }
    out_.metadata =
        record_.Finish(frame_.frame_size(), std::vector<int>(frame_.saved.begin(), frame_.saved.end()));
    return std::move(out_);
  }

 private:
  Gpr R(const MachineOperand& o) {
    if (!o.is_preg() || o.index >= kNumGprs || o.index == kSp) {
      as_.Fail(absl::InvalidArgumentError("expected an allocated general-purpose register"));
      return kX0;
    }
    return static_cast<Gpr>(o.index);
  }

  // Flags of a - b|imm.
  void Compare(const MachineOperand& a, const MachineOperand& b) {
    if (b.is_imm()) {
      as_.CmpImm(R(a), b.imm);
    } else {
      as_.Cmp(R(a), R(b));
    }
  }

  // A compare of a register with 0 for (in)equality: cbz/cbnz need no flags.
  static bool IsZeroTest(const MachineInst& inst) {
    return inst.uses[1].is_imm() && inst.uses[1].imm == 0 &&
           (inst.cond == Cond::kEq || inst.cond == Cond::kNe);
  }

  // Branches to `target` when (a cond b).
  void BranchIf(const MachineInst& inst, Cond cond, Label target) {
    if (IsZeroTest(inst)) {
      if (cond == Cond::kEq) {
        as_.Cbz(R(inst.uses[0]), target);
      } else {
        as_.Cbnz(R(inst.uses[0]), target);
      }
      return;
    }
    as_.BCond(ToA64Cond(cond), target);
  }

  Label DeoptLabel(const MachineInst& inst) {
    absl::StatusOr<Label> label = record_.DeoptExit(inst);
    if (!label.ok()) {
      as_.Fail(label.status());
      return common_exit_;
    }
    return *label;
  }

  // add/sub (also with flags for the overflow checks) of a register or an
  // add/sub immediate (IsLegalImmediate: 12 bits, optionally shifted by 12,
  // either sign).
  void AddSub(const MachineInst& inst, bool subtract, bool set_flags) {
    const Gpr d = R(inst.defs[0]);
    const Gpr a = R(inst.uses[0]);
    const MachineOperand& b = inst.uses[1];
    if (!b.is_imm()) {
      const Form form = subtract ? (set_flags ? Form::kSubsReg : Form::kSubReg)
                                 : (set_flags ? Form::kAddsReg : Form::kAddReg);
      as_.Emit(form, {d, a, R(b)});
      return;
    }
    int64_t imm = b.imm;
    if (imm < 0 && imm != INT64_MIN) {
      imm = -imm;
      subtract = !subtract;
    }
    if (!IsAddSubImmediate(imm)) {
      as_.Fail(absl::InvalidArgumentError(absl::StrCat("add/sub immediate ", b.imm)));
      return;
    }
    const Form form = subtract ? (set_flags ? Form::kSubsImm : Form::kSubImm)
                               : (set_flags ? Form::kAddsImm : Form::kAddImm);
    const bool high = imm > 4095;
    as_.Emit(form, {d, a, kNoGpr, kNoGpr, high ? imm >> 12 : imm, high ? 12 : 0});
  }

  void Logical(const MachineInst& inst) {
    const Gpr d = R(inst.defs[0]);
    const Gpr a = R(inst.uses[0]);
    const MachineOperand& b = inst.uses[1];
    const bool is_and = inst.op == MOp::kAnd, is_or = inst.op == MOp::kOr;
    if (b.is_imm()) {
      as_.Emit(is_and ? Form::kAndImm : is_or ? Form::kOrrImm : Form::kEorImm,
               {d, a, kNoGpr, kNoGpr, b.imm});
    } else {
      as_.Emit(is_and ? Form::kAndReg : is_or ? Form::kOrrReg : Form::kEorReg, {d, a, R(b)});
    }
  }

  void Shift(const MachineInst& inst) {
    const Gpr d = R(inst.defs[0]);
    const Gpr a = R(inst.uses[0]);
    const MachineOperand& b = inst.uses[1];
    if (!b.is_imm()) {  // the count register, taken mod 64 as the machine IR says
      const Form form = inst.op == MOp::kShl   ? Form::kLslv
                        : inst.op == MOp::kSar ? Form::kAsrv
                                               : Form::kLsrv;
      as_.Emit(form, {d, a, R(b)});
      return;
    }
    const int64_t s = b.imm & 63;
    switch (inst.op) {
      case MOp::kShl:  // lsl #s = ubfm #(64 - s) mod 64, #(63 - s)
        as_.Emit(Form::kUbfm, {d, a, kNoGpr, kNoGpr, (64 - s) & 63, 63 - s});
        break;
      case MOp::kShr: as_.Emit(Form::kUbfm, {d, a, kNoGpr, kNoGpr, s, 63}); break;
      default: as_.Emit(Form::kSbfm, {d, a, kNoGpr, kNoGpr, s, 63}); break;
    }
  }

  void EmitInst(const MachineInst& inst) {
    switch (inst.op) {
      case MOp::kNop: return;
      case MOp::kMov: as_.Mov(R(inst.defs[0]), R(inst.uses[0])); return;
      case MOp::kMovImm: as_.MovImm(R(inst.defs[0]), inst.uses[0].imm); return;
      case MOp::kLoad:
        // x15 for an offset beyond ldr/ldur's reach: never allocated, so
        // free even when base is a spilled operand's scratch register.
        as_.Load(R(inst.defs[0]), R(inst.uses[0]), inst.uses[1].imm, kTemp);
        return;
      case MOp::kStore:
        as_.Store(R(inst.uses[0]), inst.uses[1].imm, R(inst.uses[2]), kTemp);
        return;
      case MOp::kAdd: AddSub(inst, false, false); return;
      case MOp::kSub: AddSub(inst, true, false); return;
      case MOp::kMul:
        if (inst.uses[1].is_imm()) {
          as_.Fail(absl::InvalidArgumentError("mul takes no immediate on AArch64"));
          return;
        }
        as_.Emit(Form::kMadd, {R(inst.defs[0]), R(inst.uses[0]), R(inst.uses[1]), kXzr});
        return;
      case MOp::kAnd: case MOp::kOr: case MOp::kXor: Logical(inst); return;
      case MOp::kAddOvf:
        AddSub(inst, false, true);
        as_.BCond(A64Cond::kVs, DeoptLabel(inst));
        return;
      case MOp::kSubOvf:
        AddSub(inst, true, true);
        as_.BCond(A64Cond::kVs, DeoptLabel(inst));
        return;
      case MOp::kMulOvf: {
        if (inst.uses[1].is_imm()) {
          as_.Fail(absl::InvalidArgumentError("mul takes no immediate on AArch64"));
          return;
        }
        const Gpr d = R(inst.defs[0]), a = R(inst.uses[0]), b = R(inst.uses[1]);
        // The product fits in 64 bits iff its high half is the sign
        // extension of its low half.
        as_.Emit(Form::kSmulh, {kTemp, a, b});
        as_.Emit(Form::kMadd, {d, a, b, kXzr});
        as_.Emit(Form::kSubsReg, {kXzr, kTemp, d, kNoGpr, 0, 63, ShiftType::kAsr});
        as_.BCond(A64Cond::kNe, DeoptLabel(inst));
        return;
      }
      case MOp::kShl: case MOp::kSar: case MOp::kShr: Shift(inst); return;
      case MOp::kDiv:
        as_.Emit(Form::kSdiv, {R(inst.defs[0]), R(inst.uses[0]), R(inst.uses[1])});
        return;
      case MOp::kMulHigh:
        as_.Emit(Form::kSmulh, {R(inst.defs[0]), R(inst.uses[0]), R(inst.uses[1])});
        return;
      case MOp::kRem: {
        const Gpr d = R(inst.defs[0]), a = R(inst.uses[0]), b = R(inst.uses[1]);
        as_.Emit(Form::kSdiv, {kTemp, a, b});
        as_.Emit(Form::kMsub, {d, kTemp, b, a});  // a - (a / b) * b
        return;
      }
      case MOp::kNeg: as_.Emit(Form::kSubReg, {R(inst.defs[0]), kXzr, R(inst.uses[0])}); return;
      case MOp::kNot: as_.Emit(Form::kOrnReg, {R(inst.defs[0]), kXzr, R(inst.uses[0])}); return;
      case MOp::kCmpSet: {
        Compare(inst.uses[0], inst.uses[1]);
        FormOperands cset{R(inst.defs[0]), kXzr, kXzr};
        cset.cc = Invert(ToA64Cond(inst.cond));
        as_.Emit(Form::kCsinc, cset);
        return;
      }
      case MOp::kBranch: {
        if (!IsZeroTest(inst)) Compare(inst.uses[0], inst.uses[1]);
        const uint32_t t = inst.uses[2].index, f = inst.uses[3].index;
        if (f == next_block_) {
          BranchIf(inst, inst.cond, block_labels_[t]);
        } else if (t == next_block_) {
          BranchIf(inst, codegen::NegateCond(inst.cond), block_labels_[f]);
        } else {
          BranchIf(inst, inst.cond, block_labels_[t]);
          as_.B(block_labels_[f]);
        }
        return;
      }
      case MOp::kJump:
        if (inst.uses[0].index != next_block_) as_.B(block_labels_[inst.uses[0].index]);
        return;
      case MOp::kRet: EmitEpilogue(as_, frame_); return;
      case MOp::kCall: case MOp::kCallIndirect: {
        if (inst.op == MOp::kCall) {
          as_.CallAbsolute(static_cast<uint64_t>(inst.uses[0].imm));
        } else {
          as_.Emit(Form::kBlr, {kNoGpr, R(inst.uses[0])});
        }
        if (absl::Status s = record_.RecordCall(inst); !s.ok()) as_.Fail(s);
        return;
      }
      case MOp::kDeopt: as_.B(DeoptLabel(inst)); return;
      case MOp::kDeoptIf:
        if (!IsZeroTest(inst)) Compare(inst.uses[0], inst.uses[1]);
        BranchIf(inst, inst.cond, DeoptLabel(inst));
        return;
      case MOp::kSpill: {
        // After the instruction that defined the value: the scratch
        // registers other than the value's own are free.
        const Gpr value = R(inst.uses[0]);
        as_.Store(kSp, frame_.SlotOffsetFromSp(inst.uses[1].index), value,
                  value == kTemp ? kIp0 : kTemp);
        return;
      }
      case MOp::kReload:
        // An offset beyond ldr's reach goes through the destination itself:
        // x15 may be the scratch register of a third spilled operand.
        as_.Load(R(inst.defs[0]), kSp, frame_.SlotOffsetFromSp(inst.uses[0].index),
                 R(inst.defs[0]));
        return;
      case MOp::kOutgoingArea: as_.Mov(R(inst.defs[0]), kSp); return;
      case MOp::kAlloc: Alloc(inst); return;
      case MOp::kTarget: EmitTarget(inst); return;
    }
  }

  // kAlloc. With a free list at thread pointer + head (the inline fast path,
  // as Boehm's GC_FAST_MALLOC_GRANS):
  //     mrs  x15, tpidr_el0
  //     ldr  d, [x15, #head]        ; the list's first object
  //     cbz  d, slow                ; empty: the runtime refills it
  //     ldr  t, [d]                 ; t = x17 (x16 if d is x17)
  //     str  t, [x15, #head]        ; popped
  //     str  xzr, [d]               ; link cleared; the rest is zero already
  //   done:
  // (an offset beyond ldr's reach is added to x15 first), and out of line
  // `slow: <AllocateCall>; b done`. Without a list, the call inline. The
  // object is always in d or the head and the next one in t or the head,
  // which the conservative collector scans.
  void Alloc(const MachineInst& inst) {
    const Gpr d = R(inst.defs[0]);
    const int64_t bytes = inst.uses[0].imm;
    const uint64_t allocate = static_cast<uint64_t>(inst.uses[1].imm);
    if (inst.uses.size() < 3) {
      AllocateCall(d, bytes, allocate);
      return;
    }
    int64_t head = inst.uses[2].imm;
    const Gpr next = d == kIp1 ? kIp0 : kIp1;
    as_.Emit(Form::kMrs, {kTemp, kNoGpr, kNoGpr, kNoGpr, kTpidrEl0});
    const bool reachable = (head >= 0 && head <= 8 * 4095 && head % 8 == 0) ||
                           (head >= -256 && head <= 255);
    if (!reachable) {
      as_.AddImm(kTemp, kTemp, head, next);
      head = 0;
    }
    as_.Load(d, kTemp, head);
    SlowAlloc slow{as_.buffer().NewLabel(), as_.buffer().NewLabel(), d, bytes, allocate};
    as_.Cbz(d, slow.entry);
    as_.Load(next, d, 0);
    as_.Store(kTemp, head, next);
    as_.Store(d, 0, kXzr);
    as_.buffer().Bind(slow.done);
    slow_allocs_.push_back(slow);
  }

  // d = allocate(bytes), every other register preserved: the allocatable
  // caller-saved registers but d are stored below sp (kept 16-byte
  // aligned), x0 = bytes, the call through x16 (x30 was saved by the
  // prologue), d = x0, the registers reloaded.
  void AllocateCall(Gpr d, int64_t bytes, uint64_t allocate) {
    const codegen::RegisterInfo& ri = Aapcs64RegisterInfo();
    std::vector<Gpr> saved;
    for (codegen::PReg r : ri.allocatable[0]) {
      if ((ri.caller_saved & codegen::RegisterInfo::Bit(r)) != 0 && r != d) {
        saved.push_back(static_cast<Gpr>(r));
      }
    }
    const int64_t area = 16 * static_cast<int64_t>((saved.size() + 1) / 2);
    as_.AddImm(kSp, kSp, -area);
    SaveRestore(saved, /*save=*/true);
    as_.MovImm(kX0, bytes);
    as_.CallAbsolute(allocate);
    record_.RecordRuntimeCall();  // runs no guest code
    as_.Mov(d, kX0);
    SaveRestore(saved, /*save=*/false);
    as_.AddImm(kSp, kSp, area);
  }

  void SaveRestore(const std::vector<Gpr>& regs, bool save) {
    size_t k = 0;
    for (; k + 1 < regs.size(); k += 2) {
      as_.Emit(save ? Form::kStp : Form::kLdp,
               {regs[k], kSp, kNoGpr, regs[k + 1], 8 * static_cast<int64_t>(k)});
    }
    if (k < regs.size()) {
      if (save) {
        as_.Store(kSp, 8 * static_cast<int64_t>(k), regs[k]);
      } else {
        as_.Load(regs[k], kSp, 8 * static_cast<int64_t>(k));
      }
    }
  }

  // kTarget: target_opcode is a TargetOp (target_lowering.h).
  void EmitTarget(const MachineInst& inst) {
    if (inst.target_opcode >= static_cast<uint32_t>(TargetOp::kNumTargetOps)) {
      as_.Fail(absl::InvalidArgumentError("unknown AArch64 target operation"));
      return;
    }
    switch (static_cast<TargetOp>(inst.target_opcode)) {
      case TargetOp::kCmp:
        Compare(inst.uses[0], inst.uses[1]);
        return;
      case TargetOp::kCsel: {
        FormOperands ops{R(inst.defs[0]), R(inst.uses[0]), R(inst.uses[1])};
        ops.cc = ToA64Cond(inst.cond);
        as_.Emit(Form::kCsel, ops);
        return;
      }
      case TargetOp::kMadd: case TargetOp::kMsub:
        as_.Emit(static_cast<TargetOp>(inst.target_opcode) == TargetOp::kMadd ? Form::kMadd
                                                                                : Form::kMsub,
                 {R(inst.defs[0]), R(inst.uses[0]), R(inst.uses[1]), R(inst.uses[2])});
        return;
      case TargetOp::kNumTargetOps:
        break;
    }
  }

  void EmitOutOfLine() {
    for (const SlowAlloc& slow : slow_allocs_) {
      as_.buffer().Bind(slow.entry);
      AllocateCall(slow.d, slow.bytes, slow.allocate);
      as_.B(slow.done);
    }
    if (record_.has_deopt_exits()) {
      if (options_.deopt_entry == nullptr) {
        as_.Fail(absl::InvalidArgumentError("function has deopt exits but no deopt_entry"));
        return;
      }
      absl::Status s = record_.EmitDeoptExits(
          [&](uint32_t id) { EmitDeoptStub(as_, id, common_exit_); });
      if (!s.ok()) as_.Fail(s);
      as_.buffer().Bind(common_exit_);
      EmitDeoptCommonExit(as_, options_.deopt_entry);
      EmitEpilogue(as_, frame_);
    }
    if (options_.stack_limit.kind != codegen::StackLimit::Kind::kNone) {
      as_.buffer().Bind(overflow_stub_);
      EmitStackOverflowStub(as_, options_);
    }
  }

  const codegen::MachineFunction& mf_;
  const codegen::CompileOptions& options_;
  EmittedFunction out_;
  Assembler as_;
  FrameLayout frame_;
  codegen::EmissionRecord record_;
  std::vector<Label> block_labels_;
  Label overflow_stub_, common_exit_;
  // kAlloc's out-of-line calls of the runtime (empty free list).
  struct SlowAlloc {
    Label entry, done;
    Gpr d;
    int64_t bytes;
    uint64_t allocate;
  };
  std::vector<SlowAlloc> slow_allocs_;
  uint32_t next_block_ = 0;
};

}  // namespace

absl::StatusOr<EmittedFunction> EmitFunction(const codegen::MachineFunction& mf,
                                             const codegen::CompileOptions& options,
                                             McEncoder& encoder) {
  return FunctionEmitter(mf, options, encoder).Run();
}

}  // namespace morel::aarch64
