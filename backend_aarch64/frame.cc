#include "backend_aarch64/frame.h"

#include "backend_aarch64/abi.h"

namespace morel::aarch64 {

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
  for (int r = kX19; r <= kX28; ++r) {
    if ((written & codegen::RegisterInfo::Bit(r)) != 0 && ri.IsCalleeSaved(r)) {
      f.saved.push_back(static_cast<Gpr>(r));
    }
  }
  f.num_slots = mf.num_stack_slots();
  f.outgoing_words = mf.outgoing_area_words();
  uint32_t words = static_cast<uint32_t>(f.saved.size()) + f.num_slots + f.outgoing_words;
  words += words % 2;  // sp stays 16-byte aligned
  f.below_fp = 8 * words;
  return f;
}

namespace {

// Stores (or loads) the saved registers at [x29 - 8(k + 1)], in pairs.
void SavedRegisters(Assembler& as, const FrameLayout& frame, bool store) {
  const size_t n = frame.saved.size();
  size_t k = 0;
  for (; k + 1 < n; k += 2) {
    // [x29 - 8(k + 2)] holds saved[k + 1], the word above it saved[k].
    as.Emit(store ? Form::kStp : Form::kLdp,
            {frame.saved[k + 1], kFp, kNoGpr, frame.saved[k], -8 * static_cast<int64_t>(k + 2)});
  }
  if (k < n) {
    as.Emit(store ? Form::kStur : Form::kLdur,
            {frame.saved[k], kFp, kNoGpr, kNoGpr, -8 * static_cast<int64_t>(k + 1)});
  }
}

}  // namespace

void EmitPrologue(Assembler& as, const FrameLayout& frame, const codegen::CompileOptions& options,
                  codegen::Label overflow_stub) {
  as.Emit(Form::kStpPre, {kFp, kSp, kNoGpr, kLr, -16});
  as.Mov(kFp, kSp);
  const StackLimit& limit = options.stack_limit;
  if (limit.kind != StackLimit::Kind::kNone) {
    // x16 = the body's sp; x17 = the limit. Only scratch registers and x15:
    // the argument registers stay untouched for the overflow handler.
    as.AddImm(kIp0, kSp, -static_cast<int64_t>(frame.below_fp), kIp1);
    if (limit.kind == StackLimit::Kind::kAbsolute) {
      as.MovImm(kIp1, static_cast<int64_t>(reinterpret_cast<uintptr_t>(limit.address)));
      as.Load(kIp1, kIp1, 0);
    } else if (limit.kind == StackLimit::Kind::kThreadLocal) {
      as.Emit(Form::kMrs, {kIp1, kNoGpr, kNoGpr, kNoGpr, kTpidrEl0});
      as.Load(kIp1, kIp1, limit.offset, kTemp);
    } else {
      const auto& args = Aapcs64RegisterInfo().argument_regs;
      if (limit.arg < 0 || limit.arg >= static_cast<int>(args.size())) {
        as.Fail(absl::InvalidArgumentError("stack limit argument out of range"));
        return;
      }
      as.Load(kIp1, static_cast<Gpr>(args[limit.arg]), limit.offset, kTemp);
    }
    as.Cmp(kIp0, kIp1);
    as.BCond(A64Cond::kLo, overflow_stub);
  }
  if (frame.below_fp > 0) as.AddImm(kSp, kSp, -static_cast<int64_t>(frame.below_fp), kTemp);
  SavedRegisters(as, frame, /*store=*/true);
}

void EmitEpilogue(Assembler& as, const FrameLayout& frame) {
  SavedRegisters(as, frame, /*store=*/false);
  as.Mov(kSp, kFp);
  as.Emit(Form::kLdpPost, {kFp, kSp, kNoGpr, kLr, 16});
  as.Ret();
}

void EmitStackOverflowStub(Assembler& as, const codegen::CompileOptions& options) {
  as.CallAbsolute(reinterpret_cast<uint64_t>(options.stack_overflow_handler));
  as.Emit(Form::kLdpPost, {kFp, kSp, kNoGpr, kLr, 16});
  as.Ret();
}

}  // namespace morel::aarch64
