#include "backend_x86_64/assembler.h"

namespace morel::x86_64 {

void Assembler::Emit(Form form, const FormOperands& ops) {
  if (!status_.ok()) return;
  absl::Status s = enc_.Encode(form, ops, buf_);
  if (!s.ok()) Fail(std::move(s));
}

void Assembler::Mov(Gpr d, Gpr s) {
  if (d != s) Emit(Form::kMovRR, {d, s});
}

void Assembler::MovImm(Gpr d, int64_t imm) {
  Emit(FitsInt32(imm) ? Form::kMovRI32 : Form::kMovRI64, {d, kNoGpr, kNoGpr, imm});
}

void Assembler::CmpImm(Gpr a, int64_t imm) {
  if (!FitsInt32(imm)) {
    Fail(absl::InvalidArgumentError("compare immediate does not fit in 32 bits"));
    return;
  }
  Emit(FitsInt8(imm) ? Form::kCmpRI8 : Form::kCmpRI32, {a, kNoGpr, kNoGpr, imm});
}

void Assembler::AddImm(Gpr d, int64_t imm) {
  Emit(FitsInt8(imm) ? Form::kAddRI8 : Form::kAddRI32, {d, kNoGpr, kNoGpr, imm});
}

void Assembler::Jcc(X86Cond cc, codegen::Label target) {
  FormOperands ops;
  ops.cc = cc;
  Emit(Form::kJcc, ops);
  buf_.AddLabelFixup(codegen::FixupKind::kRel32, offset() - 4, target);
}

void Assembler::Jmp(codegen::Label target) {
  Emit(Form::kJmp, {});
  buf_.AddLabelFixup(codegen::FixupKind::kRel32, offset() - 4, target);
}

void Assembler::CallAbsolute(uint64_t address) {
  Emit(Form::kMovRI64, {kR11, kNoGpr, kNoGpr, static_cast<int64_t>(address)});
  Emit(Form::kCallR, {kR11});
}

}  // namespace morel::x86_64
