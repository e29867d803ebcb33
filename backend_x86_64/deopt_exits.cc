#include "backend_x86_64/deopt_exits.h"

namespace morel::x86_64 {

void EmitDeoptStub(Assembler& as, uint32_t deopt_id, codegen::Label common_exit) {
  if (deopt_id > INT32_MAX) {
    as.Fail(absl::InvalidArgumentError("deopt id does not fit in 31 bits"));
    return;
  }
  as.Emit(Form::kPushI32, {kNoGpr, kNoGpr, kNoGpr, static_cast<int64_t>(deopt_id)});
  as.Jmp(common_exit);
}

void EmitDeoptCommonExit(Assembler& as, const void* deopt_entry) {
  as.CallAbsolute(reinterpret_cast<uint64_t>(deopt_entry));
}

absl::StatusOr<codegen::CodeBuffer> BuildDeoptEntry(McEncoder& encoder,
                                                    codegen::DeoptHandler handler) {
  codegen::CodeBuffer buf;
  Assembler as(encoder, buf);
  for (int r = kNumGprs - 1; r >= 0; --r) as.Push(static_cast<Gpr>(r));
  constexpr int32_t kSaved = 8 * kNumGprs;
  as.Load(kRdi, kRsp, kSaved + 8);
  as.Mov(kRsi, kRsp);
  as.Mov(kRdx, kRbp);
  as.Load(kRcx, kRsp, kSaved);
  as.MovImm(kRax, static_cast<int64_t>(reinterpret_cast<uintptr_t>(handler)));
  as.Emit(Form::kCallR, {kRax});
  as.AddImm(kRsp, kSaved);
  as.Ret();
  if (!as.status().ok()) return as.status();
  return buf;
}

}  // namespace morel::x86_64
