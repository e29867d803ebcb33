#include "backend_x86_64/frame.h"

#include "backend_x86_64/abi.h"

namespace morel::x86_64 {

using codegen::MachineOperand;
using codegen::StackLimit;

FrameLayout ComputeFrame(const codegen::MachineFunction& mf, const codegen::RegisterInfo& ri) {
  uint64_t written = 0;
  for (const codegen::MachineBlock& b : mf.blocks()) {
    for (const codegen::MachineInst& inst : b.insts) {
      for (const MachineOperand& d : inst.defs) {
        if (d.is_preg()) written |= codegen::RegisterInfo::Bit(d.index);
      }
    }
  }
  FrameLayout f;
  for (Gpr r : {kRbx, kR12, kR13, kR14, kR15}) {
    if ((written & codegen::RegisterInfo::Bit(r)) != 0 && ri.IsCalleeSaved(r)) f.saved.push_back(r);
  }
  f.num_slots = mf.num_stack_slots();
  f.outgoing_words = mf.outgoing_area_words();
  uint32_t words = static_cast<uint32_t>(f.saved.size()) + f.num_slots + f.outgoing_words;
  words += words % 2;  // rsp after push rbp is 16-aligned; keep it so
  f.below_rbp = 8 * words;
  return f;
}

void EmitPrologue(Assembler& as, const FrameLayout& frame, const codegen::CompileOptions& options,
                  codegen::Label overflow_stub) {
  as.Push(kRbp);
  as.Mov(kRbp, kRsp);
  const StackLimit& limit = options.stack_limit;
  if (limit.kind != StackLimit::Kind::kNone) {
    as.Lea(kR11, kRbp, -static_cast<int32_t>(frame.below_rbp));
    if (limit.kind == StackLimit::Kind::kAbsolute) {
      as.MovImm(kR10, static_cast<int64_t>(reinterpret_cast<uintptr_t>(limit.address)));
      as.Emit(Form::kCmpRM, {kR11, kNoGpr, kR10, 0, 0});
    } else if (limit.kind == StackLimit::Kind::kThreadLocal) {
      FormOperands cmp{kR11};
      cmp.disp = limit.offset;
      as.Emit(Form::kCmpRFs, cmp);
    } else {
      const auto& args = SysVRegisterInfo().argument_regs;
      if (limit.arg < 0 || limit.arg >= static_cast<int>(args.size())) {
        as.Fail(absl::InvalidArgumentError("stack limit argument out of range"));
        return;
      }
      as.Emit(Form::kCmpRM, {kR11, kNoGpr, static_cast<Gpr>(args[limit.arg]), 0, limit.offset});
    }
    as.Jcc(X86Cond::kB, overflow_stub);
  }
  for (Gpr r : frame.saved) as.Push(r);
  const int32_t rest = static_cast<int32_t>(frame.below_rbp - 8 * frame.saved.size());
  if (rest > 0) as.AddImm(kRsp, -rest);
}

void EmitEpilogue(Assembler& as, const FrameLayout& frame) {
  if (frame.saved.empty()) {
    as.Mov(kRsp, kRbp);
  } else {
    as.Lea(kRsp, kRbp, -8 * static_cast<int32_t>(frame.saved.size()));
    for (auto it = frame.saved.rbegin(); it != frame.saved.rend(); ++it) as.Pop(*it);
  }
  as.Pop(kRbp);
  as.Ret();
}

void EmitStackOverflowStub(Assembler& as, const codegen::CompileOptions& options) {
  as.CallAbsolute(reinterpret_cast<uint64_t>(options.stack_overflow_handler));
  as.Pop(kRbp);
  as.Ret();
}

}  // namespace morel::x86_64
