#include "backend_x86_64/abi.h"

#include <string>

#include "backend_x86_64/regs.h"

namespace morel::x86_64 {
namespace {

using codegen::RegisterInfo;

RegisterInfo Build() {
  RegisterInfo ri;
  ri.target = "x86_64";
  for (int r = 0; r < kNumGprs; ++r) {
    ri.names.emplace_back(AttRegName(static_cast<Gpr>(r), Width::k64));
  }
  // Caller-saved first: short-lived values need no save/restore; values
  // live across calls cannot take them anyway (clobber ranges).
  ri.allocatable[0] = {kRax, kRcx, kRdx, kRsi, kRdi, kR8, kR9,
                       kRbx, kR12, kR13, kR14, kR15};
  for (Gpr r : {kRbx, kRbp, kR12, kR13, kR14, kR15}) ri.callee_saved |= RegisterInfo::Bit(r);
  for (Gpr r : {kRax, kRcx, kRdx, kRsi, kRdi, kR8, kR9, kR10, kR11}) {
    ri.caller_saved |= RegisterInfo::Bit(r);
  }
  ri.argument_regs = {kRdi, kRsi, kRdx, kRcx, kR8, kR9};
  ri.return_regs = {kRax, kRdx};
  ri.scratch = {kR10, kR11};
  ri.stack_pointer = kRsp;
  ri.frame_pointer = kRbp;
  ri.div_clobbers = RegisterInfo::Bit(kRax) | RegisterInfo::Bit(kRdx);
  ri.shift_count = kRcx;
  return ri;
}

}  // namespace

const RegisterInfo& SysVRegisterInfo() {
  static const RegisterInfo* ri = new RegisterInfo(Build());
  return *ri;
}

}  // namespace morel::x86_64
