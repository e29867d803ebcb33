#include "backend_aarch64/deopt_exits.h"

namespace morel::aarch64 {

void EmitDeoptStub(Assembler& as, uint32_t deopt_id, codegen::Label common_exit) {
  if (deopt_id > INT32_MAX) {
    as.Fail(absl::InvalidArgumentError("deopt id does not fit in 31 bits"));
    return;
  }
  as.MovImm(kIp0, deopt_id);
  as.B(common_exit);
}

void EmitDeoptCommonExit(Assembler& as, const void* deopt_entry) {
  // x16 carries the deopt id into the entry: the call goes through x17.
  as.MovImm(kIp1, static_cast<int64_t>(reinterpret_cast<uintptr_t>(deopt_entry)));
  as.Emit(Form::kBlr, {kNoGpr, kIp1});
}

absl::StatusOr<codegen::CodeBuffer> BuildDeoptEntry(McEncoder& encoder,
                                                    codegen::DeoptHandler handler) {
  codegen::CodeBuffer buf;
  Assembler as(encoder, buf);
  constexpr int64_t kSaved = 8 * kNumGprs;  // x0..x30 and sp
  as.AddImm(kSp, kSp, -kSaved);
  for (int r = 0; r + 1 < kLr; r += 2) {
    as.Emit(Form::kStp, {static_cast<Gpr>(r), kSp, kNoGpr, static_cast<Gpr>(r + 1), 8 * r});
  }
  as.Store(kSp, 8 * kLr, kLr);
  as.AddImm(kX0, kSp, kSaved);
  as.Store(kSp, 8 * kSp, kX0);
  as.Mov(kX0, kIp0);
  as.Mov(kX1, kSp);
  as.Mov(kX2, kFp);
  as.Mov(kX3, kLr);
  as.CallAbsolute(reinterpret_cast<uint64_t>(handler));
  as.Load(kLr, kSp, 8 * kLr);
  as.AddImm(kSp, kSp, kSaved);
  as.Ret();
  if (!as.status().ok()) return as.status();
  return buf;
}

}  // namespace morel::aarch64
