#ifndef MOREL_BACKEND_AARCH64_ISA_H_
#define MOREL_BACKEND_AARCH64_ISA_H_

// The instruction forms this backend emits: one declarative table (isa.cc)
// giving each form its LLVM MC opcode name (resolved through MCInstrInfo
// once per process: llvm-14-dev ships no generated opcode enum), its MCInst
// operand layout, and its assembly in LLVM's canonical (no-alias) syntax,
// which documents the form. The encoder checks every operand against the
// form before LLVM sees it (register classes from MCInstrDesc: sp only where
// the instruction takes sp, xzr only where it takes xzr; immediates against
// GetImmediateRange and the encodings below); the round-trip test decodes
// every form back to the same opcode and operands.
//
// All forms are 64-bit (X registers). Immediates are given in bytes or as
// plain values; the encoder scales them (ldr/str offsets by 8, branch
// displacements by 4) and encodes logical immediates.

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "backend_aarch64/regs.h"
#include "engine/codegen/code_buffer.h"
#include "engine/codegen/machine_function.h"

namespace morel::aarch64 {

// MCInst operand layouts (d, n, m, a are FormOperands' registers).
enum class Layout : uint8_t {
  kMovWide,    // d, imm16, shift (imm2: 0, 16, 32, 48)
  kMovK,       // d, d, imm16, shift
  kRRImm12,    // d, n, imm12, shift (imm2: 0 or 12)
  kRRRShift,   // d, n, m, shifter (imm2 = amount 0..63, shift_type)
  kRRLogical,  // d, n, bitmask immediate (imm = the 64-bit value)
  kRRRR,       // d, n, m, a
  kRRR,        // d, n, m
  kRRImmImm,   // d, n, immr (imm), imms (imm2)
  kRRRCond,    // d, n, m, cc
  kLoadStoreScaled,    // d (Rt), n, imm = byte offset, multiple of 8, 0..32760
  kLoadStoreUnscaled,  // d (Rt), n, imm = byte offset -256..255
  kLoadStoreReg,       // d (Rt), n, m (byte offset register), no extend, no shift
  kPair,       // d (Rt), a (Rt2), n, imm = byte offset, multiple of 8, -512..504
  kPairWb,     // n (written back), d (Rt), a (Rt2), n, imm as kPair
  kBranchCond,   // cc, imm = byte displacement (imm19 words)
  kBranch,       // imm = byte displacement (imm26 words)
  kR,            // n
  kCompareBranch,  // d (Rt), imm = byte displacement (imm19 words)
  kSysReg,       // d, system register (imm: op0:op1:CRn:CRm:op2)
  kImm16,        // imm
};

enum class Form : uint16_t {
  kMovz, kMovn, kMovk,
  kAddImm, kSubImm, kAddsImm, kSubsImm,
  kAddReg, kSubReg, kAddsReg, kSubsReg,
  kAndReg, kOrrReg, kEorReg, kOrnReg,
  kAndImm, kOrrImm, kEorImm,
  kMadd, kMsub, kSmulh, kSdiv,
  kLslv, kAsrv, kLsrv,
  kUbfm, kSbfm,
  kCsel, kCsinc,
  kLdr, kStr, kLdur, kStur, kLdrReg, kStrReg,
  kStp, kLdp, kStpPre, kLdpPost,
  kBCond, kB, kBl, kBlr, kBr, kRet, kCbz, kCbnz,
  kMrs, kBrk,
  kNumForms,
};

struct FormInfo {
  Form form;
  absl::string_view llvm_name;
  Layout layout;
  absl::string_view text;  // canonical assembly, e.g. "add {d}, {n}, #{i}{lsl12}"
};

absl::Span<const FormInfo> Forms();
const FormInfo& GetForm(Form f);

// AArch64 condition codes (the hardware's and LLVM's AArch64CC numbering).
enum class A64Cond : uint8_t {
  kEq = 0, kNe = 1, kHs = 2, kLo = 3, kMi = 4, kPl = 5, kVs = 6, kVc = 7,
  kHi = 8, kLs = 9, kGe = 10, kLt = 11, kGt = 12, kLe = 13, kAl = 14,
};
A64Cond ToA64Cond(codegen::Cond c);
A64Cond Invert(A64Cond c);  // kAl has no inverse: not used with it
absl::string_view CondName(A64Cond c);

// Shift types of the shifted-register forms.
enum class ShiftType : uint8_t { kLsl = 0, kLsr = 1, kAsr = 2 };

// System registers (kSysReg's imm).
inline constexpr int64_t kTpidrEl0 = 0xde82;  // op0=3 op1=3 CRn=13 CRm=0 op2=2

// Operands of one instruction in form terms (the layout says which count).
struct FormOperands {
  Gpr d = kNoGpr;
  Gpr n = kNoGpr;
  Gpr m = kNoGpr;
  Gpr a = kNoGpr;
  int64_t imm = 0;
  int64_t imm2 = 0;
  ShiftType shift = ShiftType::kLsl;
  A64Cond cc = A64Cond::kEq;
};

// The ranges of the immediates a form encodes exactly (imm; imm2 is checked
// by the layout's own rule). Branch and memory displacements must also be
// multiples of `multiple`; kRRLogical's value must be a bitmask immediate.
struct ImmediateRange {
  int64_t min;
  int64_t max;
  int64_t multiple;
};
ImmediateRange GetImmediateRange(Form form);

// The 13-bit N:immr:imms encoding of a bitmask immediate (a rotated run of
// ones replicated in 2-, 4-, ..., 64-bit elements), or nullopt if `value`
// is not one (0 and ~0 never are).
std::optional<uint32_t> EncodeLogicalImmediate(uint64_t value);
// The value an N:immr:imms encoding stands for (for tests).
uint64_t DecodeLogicalImmediate(uint32_t encoding);

// An add/sub immediate: 0..4095, optionally shifted left by 12.
inline bool IsAddSubImmediate(int64_t v) {
  return (v >= 0 && v <= 4095) || (v >= 0 && v <= (int64_t{4095} << 12) && (v & 0xfff) == 0);
}

// Where a branch form's displacement lives in its word (pc-relative
// CodeBuffer fixups, relative to the branch itself).
codegen::FixupField BranchField(Form form);

// The canonical assembly of `form` with `ops` (a form's documentation made
// concrete; the disassembler may print an alias instead).
std::string FormText(Form form, const FormOperands& ops);

}  // namespace morel::aarch64

#endif  // MOREL_BACKEND_AARCH64_ISA_H_
