#include "backend_x86_64/function_emitter.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/codegen/emission_record.h"
#include "backend_x86_64/abi.h"
#include "backend_x86_64/assembler.h"
#include "backend_x86_64/deopt_exits.h"
#include "backend_x86_64/frame.h"

namespace morel::x86_64 {
namespace {

using codegen::Cond;
using codegen::Label;
using codegen::MachineInst;
using codegen::MachineOperand;
using codegen::MOp;

struct BinaryForms {
  Form rr, ri8, ri32;
  bool commutative;
};

BinaryForms FormsFor(MOp op) {
  switch (op) {
    case MOp::kAdd: case MOp::kAddOvf: return {Form::kAddRR, Form::kAddRI8, Form::kAddRI32, true};
    case MOp::kSub: case MOp::kSubOvf: return {Form::kSubRR, Form::kSubRI8, Form::kSubRI32, false};
    case MOp::kMul: case MOp::kMulOvf:
      return {Form::kImulRR, Form::kImulRRI8, Form::kImulRRI32, true};
    case MOp::kAnd: return {Form::kAndRR, Form::kAndRI8, Form::kAndRI32, true};
    case MOp::kOr: return {Form::kOrRR, Form::kOrRI8, Form::kOrRI32, true};
    case MOp::kXor: return {Form::kXorRR, Form::kXorRI8, Form::kXorRI32, true};
    default: return {Form::kNumForms, Form::kNumForms, Form::kNumForms, false};
  }
}

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
    frame_ = ComputeFrame(mf_, SysVRegisterInfo());
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
    if (!s.ok()) return s;
    out_.metadata =
        record_.Finish(frame_.frame_size(), std::vector<int>(frame_.saved.begin(), frame_.saved.end()));
    return std::move(out_);
  }

 private:
  Gpr R(const MachineOperand& o) {
    if (!o.is_preg() || o.index >= kNumGprs) {
      as_.Fail(absl::InvalidArgumentError("expected an allocated general-purpose register"));
      return kRax;
    }
    return static_cast<Gpr>(o.index);
  }

  // cmp a, b|imm.
  void Compare(const MachineOperand& a, const MachineOperand& b) {
    if (b.is_imm()) {
      as_.CmpImm(R(a), b.imm);
    } else {
      as_.Cmp(R(a), R(b));
    }
  }

  Label DeoptLabel(const MachineInst& inst) {
    absl::StatusOr<Label> label = record_.DeoptExit(inst);
    if (!label.ok()) {
      as_.Fail(label.status());
      return common_exit_;
    }
    return *label;
  }

  void Binary(const MachineInst& inst) {
    const BinaryForms f = FormsFor(inst.op);
    const Gpr d = R(inst.defs[0]);
    const Gpr a = R(inst.uses[0]);
    const MachineOperand& b = inst.uses[1];
    const bool is_mul = f.rr == Form::kImulRR;
    if (b.is_imm()) {
      if (!FitsInt32(b.imm)) {
        as_.Fail(absl::InvalidArgumentError("immediate does not fit in 32 bits"));
        return;
      }
      if (is_mul) {
        as_.Emit(FitsInt8(b.imm) ? f.ri8 : f.ri32, {d, a, kNoGpr, b.imm});
      } else {
        as_.Mov(d, a);
        as_.Emit(FitsInt8(b.imm) ? f.ri8 : f.ri32, {d, kNoGpr, kNoGpr, b.imm});
      }
      return;
    }
    const Gpr rb = R(b);
    if (d == a) {
      as_.Emit(f.rr, {d, rb});
    } else if (d == rb && f.commutative) {
      as_.Emit(f.rr, {d, a});
    } else if (d == rb && inst.op == MOp::kSub) {
      as_.Emit(Form::kNeg, {d});
      as_.Emit(Form::kAddRR, {d, a});
    } else if (d == rb) {  // kSubOvf: the flags must come from a - b
      if (a == kR11 || rb == kR11) {
        as_.Fail(absl::InternalError("r11 is needed as a temporary but holds an operand"));
        return;
      }
      as_.Mov(kR11, a);
      as_.Emit(f.rr, {kR11, rb});
      as_.Mov(d, kR11);  // mov leaves the flags alone
    } else {
      as_.Mov(d, a);
      as_.Emit(f.rr, {d, rb});
    }
  }

  void Shift(const MachineInst& inst) {
    const Gpr d = R(inst.defs[0]);
    const Gpr a = R(inst.uses[0]);
    const MachineOperand& b = inst.uses[1];
    Form ri = inst.op == MOp::kShl ? Form::kShlRI : inst.op == MOp::kSar ? Form::kSarRI : Form::kShrRI;
    Form cl = inst.op == MOp::kShl ? Form::kShlCL : inst.op == MOp::kSar ? Form::kSarCL : Form::kShrCL;
    if (b.is_imm()) {
      as_.Mov(d, a);
      as_.Emit(ri, {d, kNoGpr, kNoGpr, b.imm & 63});
      return;
    }
    if (R(b) != kRcx) {
      as_.Fail(absl::InvalidArgumentError("shift count must be in rcx"));
      return;
    }
    if (d == kRcx) {
      as_.Mov(kR11, a);
      as_.Emit(cl, {kR11});
      as_.Mov(kRcx, kR11);
    } else {
      as_.Mov(d, a);
      as_.Emit(cl, {d});
    }
  }

  // div, rem and mulh: through rdx:rax.
  void Divide(const MachineInst& inst) {
    const Gpr d = R(inst.defs[0]), a = R(inst.uses[0]), b = R(inst.uses[1]);
    if (b == kRax || b == kRdx || d == kRax || d == kRdx) {
      as_.Fail(absl::InvalidArgumentError("div operands must avoid rax/rdx (div_clobbers)"));
      return;
    }
    as_.Mov(kRax, a);
    if (inst.op == MOp::kMulHigh) {
      as_.Emit(Form::kImulR, {b});
    } else {
      as_.Emit(Form::kCqo, {});
      as_.Emit(Form::kIdiv, {b});
    }
    as_.Mov(d, inst.op == MOp::kDiv ? kRax : kRdx);
  }

  void EmitInst(const MachineInst& inst) {
    switch (inst.op) {
      case MOp::kNop: return;
      case MOp::kMov: as_.Mov(R(inst.defs[0]), R(inst.uses[0])); return;
      case MOp::kMovImm: as_.MovImm(R(inst.defs[0]), inst.uses[0].imm); return;
      case MOp::kLoad:
        as_.Load(R(inst.defs[0]), R(inst.uses[0]), static_cast<int32_t>(inst.uses[1].imm));
        return;
      case MOp::kStore:
        as_.Store(R(inst.uses[0]), static_cast<int32_t>(inst.uses[1].imm), R(inst.uses[2]));
        return;
      case MOp::kAdd: case MOp::kSub: case MOp::kMul: case MOp::kAnd: case MOp::kOr:
      case MOp::kXor:
        Binary(inst);
        return;
      case MOp::kAddOvf: case MOp::kSubOvf: case MOp::kMulOvf: {
        Binary(inst);
        as_.Jcc(X86Cond::kO, DeoptLabel(inst));
        return;
      }
      case MOp::kShl: case MOp::kSar: case MOp::kShr: Shift(inst); return;
      case MOp::kDiv: case MOp::kRem: case MOp::kMulHigh: Divide(inst); return;
      case MOp::kNeg: case MOp::kNot:
        as_.Mov(R(inst.defs[0]), R(inst.uses[0]));
        as_.Emit(inst.op == MOp::kNeg ? Form::kNeg : Form::kNot, {R(inst.defs[0])});
        return;
      case MOp::kCmpSet: {
        const Gpr d = R(inst.defs[0]);
        Compare(inst.uses[0], inst.uses[1]);
        FormOperands set{d};
        set.cc = ToX86Cond(inst.cond);
        as_.Emit(Form::kSetcc, set);
        as_.Emit(Form::kMovzxR32R8, {d, d});
        return;
      }
      case MOp::kBranch: {
        Compare(inst.uses[0], inst.uses[1]);
        const uint32_t t = inst.uses[2].index, f = inst.uses[3].index;
        if (f == next_block_) {
          as_.Jcc(ToX86Cond(inst.cond), block_labels_[t]);
        } else if (t == next_block_) {
          as_.Jcc(ToX86Cond(codegen::NegateCond(inst.cond)), block_labels_[f]);
        } else {
          as_.Jcc(ToX86Cond(inst.cond), block_labels_[t]);
          as_.Jmp(block_labels_[f]);
        }
        return;
      }
      case MOp::kJump:
        if (inst.uses[0].index != next_block_) as_.Jmp(block_labels_[inst.uses[0].index]);
        return;
      case MOp::kRet: EmitEpilogue(as_, frame_); return;
      case MOp::kCall: case MOp::kCallIndirect: {
        if (inst.op == MOp::kCall) {
          as_.CallAbsolute(static_cast<uint64_t>(inst.uses[0].imm));
        } else {
          as_.Emit(Form::kCallR, {R(inst.uses[0])});
        }
        if (absl::Status s = record_.RecordCall(inst); !s.ok()) as_.Fail(s);
        return;
      }
      case MOp::kDeopt: as_.Jmp(DeoptLabel(inst)); return;
      case MOp::kDeoptIf:
        Compare(inst.uses[0], inst.uses[1]);
        as_.Jcc(ToX86Cond(inst.cond), DeoptLabel(inst));
        return;
      case MOp::kSpill:
        as_.Store(kRbp, frame_.SlotOffset(inst.uses[1].index), R(inst.uses[0]));
        return;
      case MOp::kReload:
        as_.Load(R(inst.defs[0]), kRbp, frame_.SlotOffset(inst.uses[0].index));
        return;
      case MOp::kOutgoingArea: as_.Mov(R(inst.defs[0]), kRsp); return;
      case MOp::kAlloc: Alloc(inst); return;
      case MOp::kTarget: EmitTarget(inst); return;
    }
  }

  // kAlloc. With a free list at %fs:head (the inline fast path, as Boehm's
  // GC_FAST_MALLOC_GRANS):
  //     movq %fs:head, d
  //     testq d, d
  //     je slow                 ; empty: the runtime refills it
  //     movq (d), t             ; t = r11 (r10 if d is r11: a spilled def)
  //     movq t, %fs:head        ; pop
  //     movq $0, (d)            ; clear the link (the rest is zero already)
  //   done:
  // and out of line `slow: <AllocateCall>; jmp done`. Without one, the call
  // inline. Every moment the object is in d or the head and the next one in
  // t or the head, which the conservative collector scans (a collection may
  // stop this thread anywhere).
  void Alloc(const MachineInst& inst) {
    const Gpr d = R(inst.defs[0]);
    const int64_t bytes = inst.uses[0].imm;
    const uint64_t allocate = static_cast<uint64_t>(inst.uses[1].imm);
    if (inst.uses.size() < 3) {
      AllocateCall(d, bytes, allocate);
      return;
    }
    if (!FitsInt32(inst.uses[2].imm)) {
      as_.Fail(absl::InvalidArgumentError("free-list offset does not fit in 32 bits"));
      return;
    }
    const int32_t head = static_cast<int32_t>(inst.uses[2].imm);
    const Gpr next = d == kR11 ? kR10 : kR11;
    FormOperands load{d};
    load.disp = head;
    as_.Emit(Form::kLoadFs, load);
    as_.Emit(Form::kTestRR, {d, d});
    SlowAlloc slow{as_.buffer().NewLabel(), as_.buffer().NewLabel(), d, bytes, allocate};
    as_.Jcc(X86Cond::kE, slow.entry);
    as_.Load(next, d, 0);
    FormOperands store;
    store.src = next;
    store.disp = head;
    as_.Emit(Form::kStoreFs, store);
    as_.Emit(Form::kStoreI32, {kNoGpr, kNoGpr, d, 0, 0});
    as_.buffer().Bind(slow.done);
    slow_allocs_.push_back(slow);
  }

  // d = allocate(bytes), every other register preserved: the allocatable
  // caller-saved registers but d are pushed (r10/r11 are scratch, never live
  // across an instruction; callee-saved ones the callee keeps), with rsp
  // kept 16-byte aligned for the call.
  void AllocateCall(Gpr d, int64_t bytes, uint64_t allocate) {
    const codegen::RegisterInfo& ri = SysVRegisterInfo();
    std::vector<Gpr> saved;
    for (codegen::PReg r : ri.allocatable[0]) {
      if ((ri.caller_saved & codegen::RegisterInfo::Bit(r)) != 0 && r != d) {
        saved.push_back(static_cast<Gpr>(r));
      }
    }
    const bool pad = saved.size() % 2 != 0;
    for (Gpr r : saved) as_.Push(r);
    if (pad) as_.AddImm(kRsp, -8);
    as_.MovImm(kRdi, bytes);
    as_.CallAbsolute(allocate);
    record_.RecordRuntimeCall();  // runs no guest code
    as_.Mov(d, kRax);
    if (pad) as_.AddImm(kRsp, 8);
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) as_.Pop(*it);
  }

  // kTarget: target_opcode is a Form; defs[0] -> dst, register uses -> (dst
  // if tied, then) src, first immediate -> imm, cond -> cc.
  void EmitTarget(const MachineInst& inst) {
    if (inst.target_opcode >= static_cast<uint32_t>(Form::kNumForms)) {
      as_.Fail(absl::InvalidArgumentError("unknown x86 form"));
      return;
    }
    const Form form = static_cast<Form>(inst.target_opcode);
    const Layout layout = GetForm(form).layout;
    FormOperands ops;
    ops.cc = ToX86Cond(inst.cond);
    std::vector<Gpr> regs;
    for (const MachineOperand& u : inst.uses) {
      if (u.is_preg()) regs.push_back(R(u));
      if (u.is_imm()) ops.imm = u.imm;
    }
    if (!inst.defs.empty()) ops.dst = R(inst.defs[0]);
    size_t next = 0;
    const bool tied = layout == Layout::kRTied || layout == Layout::kRRTied ||
                      layout == Layout::kRITied || layout == Layout::kRRTiedCond;
    if (tied) {
      if (regs.empty() || regs[0] != ops.dst) {
        as_.Fail(absl::InvalidArgumentError("tied form: first use must be the destination"));
        return;
      }
      next = 1;
    }
    if (ops.dst == kNoGpr && next < regs.size()) ops.dst = regs[next++];
    if (next < regs.size()) ops.src = regs[next++];
    as_.Emit(form, ops);
  }

  void EmitOutOfLine() {
    for (const SlowAlloc& slow : slow_allocs_) {
      as_.buffer().Bind(slow.entry);
      AllocateCall(slow.d, slow.bytes, slow.allocate);
      as_.Jmp(slow.done);
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

}  // namespace morel::x86_64
