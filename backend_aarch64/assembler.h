#ifndef MOREL_BACKEND_AARCH64_ASSEMBLER_H_
#define MOREL_BACKEND_AARCH64_ASSEMBLER_H_

// Assembler: emits forms into a CodeBuffer through McEncoder, with label
// branches (kPcRelField fixups resolved by CodeBuffer::ResolveLabels) and
// the idioms the emitter needs: register moves (vanishing when source ==
// destination; through add when sp is involved), the shortest constant
// materialization, loads/stores/adds with any offset (through a temporary
// when the offset does not fit), absolute calls through x16. The first
// error sticks; check status() at the end.

#include <cstdint>

#include "absl/status/status.h"
#include "backend_aarch64/emit.h"
#include "backend_aarch64/isa.h"
#include "engine/codegen/code_buffer.h"

namespace morel::aarch64 {

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
  // d = imm in the fewest instructions (movz/movn + movk, or orr of a
  // bitmask immediate): at most 4.
  void MovImm(Gpr d, int64_t imm);
  // d = *(base + disp) / *(base + disp) = s. `temp` holds the offset when it
  // fits neither ldr's scaled nor ldur's unscaled form; it must differ from
  // base (and from s for stores).
  void Load(Gpr d, Gpr base, int64_t disp, Gpr temp = kTemp);
  void Store(Gpr base, int64_t disp, Gpr s, Gpr temp = kTemp);
  // d = n + imm (sp allowed for d and n); `temp` as above, must differ from n.
  void AddImm(Gpr d, Gpr n, int64_t imm, Gpr temp = kTemp);
  // Flags of a - imm (cmp/cmn), through `temp` when imm is not an add/sub
  // immediate.
  void CmpImm(Gpr a, int64_t imm, Gpr temp = kTemp);
  void Cmp(Gpr a, Gpr b) { Emit(Form::kSubsReg, {kXzr, a, b}); }
  void Ret() { Emit(Form::kRet, {kNoGpr, kLr}); }

  void BCond(A64Cond cc, codegen::Label target);
  void B(codegen::Label target);
  void Cbz(Gpr r, codegen::Label target) { CompareBranch(Form::kCbz, r, target); }
  void Cbnz(Gpr r, codegen::Label target) { CompareBranch(Form::kCbnz, r, target); }
  // x16 = address; blr x16 (x16 is scratch, never live across).
  void CallAbsolute(uint64_t address);

 private:
  void CompareBranch(Form form, Gpr r, codegen::Label target);
  void LoadStore(bool load, Gpr t, Gpr base, int64_t disp, Gpr temp);

  McEncoder& enc_;
  codegen::CodeBuffer& buf_;
  absl::Status status_;
};

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_ASSEMBLER_H_
