#include "backend_aarch64/assembler.h"

#include "absl/strings/str_cat.h"

namespace morel::aarch64 {

void Assembler::Emit(Form form, const FormOperands& ops) {
  if (!status_.ok()) return;
  absl::Status s = enc_.Encode(form, ops, buf_);
  if (!s.ok()) Fail(std::move(s));
}

void Assembler::Mov(Gpr d, Gpr s) {
  if (d == s) return;
  if (d == kSp || s == kSp) {
    Emit(Form::kAddImm, {d, s, kNoGpr, kNoGpr, 0});
  } else {
    Emit(Form::kOrrReg, {d, kXzr, s});
  }
}

void Assembler::MovImm(Gpr d, int64_t imm) {
  const uint64_t v = static_cast<uint64_t>(imm);
  int zero_halves = 0, ones_halves = 0;
  for (int i = 0; i < 4; ++i) {
    const uint16_t half = static_cast<uint16_t>(v >> (16 * i));
    zero_halves += half == 0;
    ones_halves += half == 0xffff;
  }
  // A bitmask immediate takes one instruction where movz/movk would take
  // two or more.
  if (zero_halves < 3 && ones_halves < 3 && EncodeLogicalImmediate(v)) {
    Emit(Form::kOrrImm, {d, kXzr, kNoGpr, kNoGpr, imm});
    return;
  }
  // Start from all-ones (movn) when more halves are 0xffff than 0.
  const bool inverted = ones_halves > zero_halves;
  const uint16_t fill = inverted ? 0xffff : 0;
  bool first = true;
  for (int i = 0; i < 4; ++i) {
    const uint16_t half = static_cast<uint16_t>(v >> (16 * i));
    if (half == fill) continue;
    if (first) {
      Emit(inverted ? Form::kMovn : Form::kMovz,
           {d, kNoGpr, kNoGpr, kNoGpr, inverted ? static_cast<uint16_t>(~half) : half, 16 * i});
      first = false;
    } else {
      Emit(Form::kMovk, {d, kNoGpr, kNoGpr, kNoGpr, half, 16 * i});
    }
  }
  if (first) {  // every half is `fill`: 0 or -1
    Emit(inverted ? Form::kMovn : Form::kMovz, {d, kNoGpr, kNoGpr, kNoGpr, 0, 0});
  }
}

void Assembler::LoadStore(bool load, Gpr t, Gpr base, int64_t disp, Gpr temp) {
  if (disp >= 0 && disp <= 8 * 4095 && disp % 8 == 0) {
    Emit(load ? Form::kLdr : Form::kStr, {t, base, kNoGpr, kNoGpr, disp});
  } else if (disp >= -256 && disp <= 255) {
    Emit(load ? Form::kLdur : Form::kStur, {t, base, kNoGpr, kNoGpr, disp});
  } else {
    if (temp == base || (!load && temp == t) || temp == kSp) {
      Fail(absl::InternalError(
          absl::StrCat("no temporary for the offset ", disp, " from ", AsmRegName(base))));
      return;
    }
    MovImm(temp, disp);
    Emit(load ? Form::kLdrReg : Form::kStrReg, {t, base, temp});
  }
}

void Assembler::Load(Gpr d, Gpr base, int64_t disp, Gpr temp) {
  LoadStore(true, d, base, disp, temp);
}

void Assembler::Store(Gpr base, int64_t disp, Gpr s, Gpr temp) {
  LoadStore(false, s, base, disp, temp);
}

void Assembler::AddImm(Gpr d, Gpr n, int64_t imm, Gpr temp) {
  if (imm == INT64_MIN) {
    Fail(absl::InvalidArgumentError("add of INT64_MIN"));
    return;
  }
  const Form add = imm >= 0 ? Form::kAddImm : Form::kSubImm;
  const int64_t magnitude = imm >= 0 ? imm : -imm;
  if (magnitude <= 4095) {
    if (magnitude != 0 || d != n) Emit(add, {d, n, kNoGpr, kNoGpr, magnitude, 0});
  } else if (magnitude < (int64_t{1} << 24)) {
    // Two instructions: the high 12 bits shifted by 12, then the low 12.
    Emit(add, {d, n, kNoGpr, kNoGpr, magnitude >> 12, 12});
    if ((magnitude & 0xfff) != 0) Emit(add, {d, d, kNoGpr, kNoGpr, magnitude & 0xfff, 0});
  } else {
    if (temp == n || temp == kSp) {
      Fail(absl::InternalError(absl::StrCat("no temporary for adding ", imm)));
      return;
    }
    MovImm(temp, imm);
    if (d == kSp || n == kSp) {
      Fail(absl::InternalError("sp adjustments beyond 16 MiB"));
      return;
    }
    Emit(Form::kAddReg, {d, n, temp});
  }
}

void Assembler::CmpImm(Gpr a, int64_t imm, Gpr temp) {
  if (IsAddSubImmediate(imm)) {
    Emit(Form::kSubsImm, {kXzr, a, kNoGpr, kNoGpr, imm > 4095 ? imm >> 12 : imm,
                          imm > 4095 ? 12 : 0});
  } else if (imm != INT64_MIN && IsAddSubImmediate(-imm)) {
    const int64_t m = -imm;
    Emit(Form::kAddsImm, {kXzr, a, kNoGpr, kNoGpr, m > 4095 ? m >> 12 : m, m > 4095 ? 12 : 0});
  } else {
    if (temp == a) {
      Fail(absl::InternalError(absl::StrCat("no temporary for comparing with ", imm)));
      return;
    }
    MovImm(temp, imm);
    Cmp(a, temp);
  }
}

void Assembler::BCond(A64Cond cc, codegen::Label target) {
  FormOperands ops;
  ops.cc = cc;
  Emit(Form::kBCond, ops);
  if (status_.ok()) buf_.AddLabelFieldFixup(offset() - 4, BranchField(Form::kBCond), target);
}

void Assembler::B(codegen::Label target) {
  Emit(Form::kB, {});
  if (status_.ok()) buf_.AddLabelFieldFixup(offset() - 4, BranchField(Form::kB), target);
}

void Assembler::CompareBranch(Form form, Gpr r, codegen::Label target) {
  Emit(form, {r});
  if (status_.ok()) buf_.AddLabelFieldFixup(offset() - 4, BranchField(form), target);
}

void Assembler::CallAbsolute(uint64_t address) {
  MovImm(kIp0, static_cast<int64_t>(address));
  Emit(Form::kBlr, {kNoGpr, kIp0});
}

}  // namespace morel::aarch64
