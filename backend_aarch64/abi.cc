#include "backend_aarch64/abi.h"

#include <string>

#include "backend_aarch64/regs.h"

namespace morel::aarch64 {
namespace {

using codegen::RegisterInfo;

RegisterInfo Build() {
  RegisterInfo ri;
  ri.target = "aarch64";
  for (int r = 0; r < kNumGprs; ++r) ri.names.emplace_back(AsmRegName(static_cast<Gpr>(r)));
  // Caller-saved first (short-lived values need no save/restore). Not
  // allocatable: x16, x17, x15 (scratch: spill reloads of up to three
  // operands -- madd/msub have three --, call targets; x15 is the emitter's
  // temporary in every instruction with at most two spilled operands), x18
  // (the platform register), x29 (frame pointer), x30 (link register), sp.
  for (int r = kX0; r <= kX14; ++r) ri.allocatable[0].push_back(static_cast<codegen::PReg>(r));
  for (int r = kX19; r <= kX28; ++r) ri.allocatable[0].push_back(static_cast<codegen::PReg>(r));
  for (int r = kX19; r <= kFp; ++r) ri.callee_saved |= RegisterInfo::Bit(r);
  for (int r = kX0; r <= kX17; ++r) ri.caller_saved |= RegisterInfo::Bit(r);
  ri.caller_saved |= RegisterInfo::Bit(kLr);  // blr writes it
  ri.argument_regs = {kX0, kX1, kX2, kX3, kX4, kX5, kX6, kX7};
  ri.return_regs = {kX0, kX1};
  ri.scratch = {kIp0, kIp1, kTemp};
  ri.stack_pointer = kSp;
  ri.frame_pointer = kFp;
  // sdiv does not trap and writes only its destination; shifts take any
  // count register.
  ri.div_clobbers = 0;
  ri.shift_count = codegen::kNoPReg;
  return ri;
}

}  // namespace

const RegisterInfo& Aapcs64RegisterInfo() {
  static const RegisterInfo* ri = new RegisterInfo(Build());
  return *ri;
}

}  // namespace morel::aarch64
