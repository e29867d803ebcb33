#ifndef MOREL_BACKEND_X86_64_ASSEMBLER_H_
#define MOREL_BACKEND_X86_64_ASSEMBLER_H_

// Assembler: emits forms into a CodeBuffer through McEncoder, with label
// branches (rel32 fixups resolved by CodeBuffer::ResolveLabels) and a few
// idioms (register moves that vanish when source == destination, the
// shortest constant materialization, absolute calls through r11). The first
// error sticks; check status() at the end.

#include <cstdint>

#include "absl/status/status.h"
#include "backend_x86_64/emit.h"
#include "backend_x86_64/isa.h"
#include "engine/codegen/code_buffer.h"

namespace morel::x86_64 {

class Assembler {
 public:
  Assembler(McEncoder& encoder, codegen::CodeBuffer& buffer) : enc_(encoder), buf_(buffer) {}

  void Emit(Form form, const FormOperands& ops);
  void Fail(absl::Status s) {
    if (status_.ok()) status_ = std::move(s);
  }
  const absl::Status& status() const { return status_; }
  uint32_t offset() const { return static_cast<uint32_t>(buf_.size()); }
  codegen::CodeBuffer& buffer() { return buf_; }

  void Mov(Gpr d, Gpr s);
  void MovImm(Gpr d, int64_t imm);
  void Load(Gpr d, Gpr base, int32_t disp) { Emit(Form::kLoad, {d, kNoGpr, base, 0, disp}); }
  void Store(Gpr base, int32_t disp, Gpr s) { Emit(Form::kStore, {kNoGpr, s, base, 0, disp}); }
  void Lea(Gpr d, Gpr base, int32_t disp) { Emit(Form::kLea, {d, kNoGpr, base, 0, disp}); }
  void Push(Gpr r) { Emit(Form::kPush, {r}); }
  void Pop(Gpr r) { Emit(Form::kPop, {r}); }
  void Ret() { Emit(Form::kRet, {}); }
  // cmp a, imm (8- or 32-bit form) or cmp a, b.
  void CmpImm(Gpr a, int64_t imm);
  void Cmp(Gpr a, Gpr b) { Emit(Form::kCmpRR, {a, b}); }
  // Adds imm to d (rsp adjustments and such).
  void AddImm(Gpr d, int64_t imm);

  void Jcc(X86Cond cc, codegen::Label target);
  void Jmp(codegen::Label target);
  // mov r11, address; call r11 (r11 is scratch, never live across).
  void CallAbsolute(uint64_t address);

 private:
  McEncoder& enc_;
  codegen::CodeBuffer& buf_;
  absl::Status status_;
};

}  // namespace morel::x86_64

#endif  // MOREL_BACKEND_X86_64_ASSEMBLER_H_
