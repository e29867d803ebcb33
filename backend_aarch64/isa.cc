#include "backend_aarch64/isa.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace morel::aarch64 {
namespace {

using L = Layout;

// The forms table. Order matches enum Form. Placeholders: {d} {n} {m} {a}
// registers, {i} imm, {i2} imm2, {sh} ", <shift> #imm2" (empty for lsl #0),
// {lsl12} ", lsl #12" when imm2 is 12, {cc} condition.
constexpr FormInfo kForms[] = {
    {Form::kMovz, "MOVZXi", L::kMovWide, "movz {d}, #{i}, lsl #{i2}"},
    {Form::kMovn, "MOVNXi", L::kMovWide, "movn {d}, #{i}, lsl #{i2}"},
    {Form::kMovk, "MOVKXi", L::kMovK, "movk {d}, #{i}, lsl #{i2}"},
    {Form::kAddImm, "ADDXri", L::kRRImm12, "add {d}, {n}, #{i}{lsl12}"},
    {Form::kSubImm, "SUBXri", L::kRRImm12, "sub {d}, {n}, #{i}{lsl12}"},
    {Form::kAddsImm, "ADDSXri", L::kRRImm12, "adds {d}, {n}, #{i}{lsl12}"},
    {Form::kSubsImm, "SUBSXri", L::kRRImm12, "subs {d}, {n}, #{i}{lsl12}"},
    {Form::kAddReg, "ADDXrs", L::kRRRShift, "add {d}, {n}, {m}{sh}"},
    {Form::kSubReg, "SUBXrs", L::kRRRShift, "sub {d}, {n}, {m}{sh}"},
    {Form::kAddsReg, "ADDSXrs", L::kRRRShift, "adds {d}, {n}, {m}{sh}"},
    {Form::kSubsReg, "SUBSXrs", L::kRRRShift, "subs {d}, {n}, {m}{sh}"},
    {Form::kAndReg, "ANDXrs", L::kRRRShift, "and {d}, {n}, {m}{sh}"},
    {Form::kOrrReg, "ORRXrs", L::kRRRShift, "orr {d}, {n}, {m}{sh}"},
    {Form::kEorReg, "EORXrs", L::kRRRShift, "eor {d}, {n}, {m}{sh}"},
    {Form::kOrnReg, "ORNXrs", L::kRRRShift, "orn {d}, {n}, {m}{sh}"},
    {Form::kAndImm, "ANDXri", L::kRRLogical, "and {d}, {n}, #{i}"},
    {Form::kOrrImm, "ORRXri", L::kRRLogical, "orr {d}, {n}, #{i}"},
    {Form::kEorImm, "EORXri", L::kRRLogical, "eor {d}, {n}, #{i}"},
    {Form::kMadd, "MADDXrrr", L::kRRRR, "madd {d}, {n}, {m}, {a}"},
    {Form::kMsub, "MSUBXrrr", L::kRRRR, "msub {d}, {n}, {m}, {a}"},
    {Form::kSmulh, "SMULHrr", L::kRRR, "smulh {d}, {n}, {m}"},
    {Form::kSdiv, "SDIVXr", L::kRRR, "sdiv {d}, {n}, {m}"},
    {Form::kLslv, "LSLVXr", L::kRRR, "lslv {d}, {n}, {m}"},
    {Form::kAsrv, "ASRVXr", L::kRRR, "asrv {d}, {n}, {m}"},
    {Form::kLsrv, "LSRVXr", L::kRRR, "lsrv {d}, {n}, {m}"},
    {Form::kUbfm, "UBFMXri", L::kRRImmImm, "ubfm {d}, {n}, #{i}, #{i2}"},
    {Form::kSbfm, "SBFMXri", L::kRRImmImm, "sbfm {d}, {n}, #{i}, #{i2}"},
    {Form::kCsel, "CSELXr", L::kRRRCond, "csel {d}, {n}, {m}, {cc}"},
    {Form::kCsinc, "CSINCXr", L::kRRRCond, "csinc {d}, {n}, {m}, {cc}"},
    {Form::kLdr, "LDRXui", L::kLoadStoreScaled, "ldr {d}, [{n}, #{i}]"},
    {Form::kStr, "STRXui", L::kLoadStoreScaled, "str {d}, [{n}, #{i}]"},
    {Form::kLdur, "LDURXi", L::kLoadStoreUnscaled, "ldur {d}, [{n}, #{i}]"},
    {Form::kStur, "STURXi", L::kLoadStoreUnscaled, "stur {d}, [{n}, #{i}]"},
    {Form::kLdrReg, "LDRXroX", L::kLoadStoreReg, "ldr {d}, [{n}, {m}]"},
    {Form::kStrReg, "STRXroX", L::kLoadStoreReg, "str {d}, [{n}, {m}]"},
    {Form::kStp, "STPXi", L::kPair, "stp {d}, {a}, [{n}, #{i}]"},
    {Form::kLdp, "LDPXi", L::kPair, "ldp {d}, {a}, [{n}, #{i}]"},
    {Form::kStpPre, "STPXpre", L::kPairWb, "stp {d}, {a}, [{n}, #{i}]!"},
    {Form::kLdpPost, "LDPXpost", L::kPairWb, "ldp {d}, {a}, [{n}], #{i}"},
    {Form::kBCond, "Bcc", L::kBranchCond, "b.{cc} #{i}"},
    {Form::kB, "B", L::kBranch, "b #{i}"},
    {Form::kBl, "BL", L::kBranch, "bl #{i}"},
    {Form::kBlr, "BLR", L::kR, "blr {n}"},
    {Form::kBr, "BR", L::kR, "br {n}"},
    {Form::kRet, "RET", L::kR, "ret {n}"},
    {Form::kCbz, "CBZX", L::kCompareBranch, "cbz {d}, #{i}"},
    {Form::kCbnz, "CBNZX", L::kCompareBranch, "cbnz {d}, #{i}"},
    {Form::kMrs, "MRS", L::kSysReg, "mrs {d}, #{i}"},
    {Form::kBrk, "BRK", L::kImm16, "brk #{i}"},
};
static_assert(sizeof(kForms) / sizeof(kForms[0]) == static_cast<int>(Form::kNumForms));

uint64_t RotateRight(uint64_t v, unsigned r, unsigned size) {
  const uint64_t mask = size == 64 ? ~uint64_t{0} : (uint64_t{1} << size) - 1;
  v &= mask;
  r %= size;
  if (r == 0) return v;
  return ((v >> r) | (v << (size - r))) & mask;
}

}  // namespace

absl::Span<const FormInfo> Forms() { return kForms; }

const FormInfo& GetForm(Form f) { return kForms[static_cast<int>(f)]; }

A64Cond ToA64Cond(codegen::Cond c) {
  using codegen::Cond;
  switch (c) {
    case Cond::kEq: return A64Cond::kEq;
    case Cond::kNe: return A64Cond::kNe;
    case Cond::kLt: return A64Cond::kLt;
    case Cond::kLe: return A64Cond::kLe;
    case Cond::kGt: return A64Cond::kGt;
    case Cond::kGe: return A64Cond::kGe;
    case Cond::kULt: return A64Cond::kLo;
    case Cond::kULe: return A64Cond::kLs;
    case Cond::kUGt: return A64Cond::kHi;
    case Cond::kUGe: return A64Cond::kHs;
  }
  return A64Cond::kEq;
}

// The hardware pairs conditions by the low bit (eq/ne, hs/lo, ...).
A64Cond Invert(A64Cond c) { return static_cast<A64Cond>(static_cast<uint8_t>(c) ^ 1); }

absl::string_view CondName(A64Cond c) {
  static constexpr absl::string_view kNames[] = {"eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc",
                                                 "hi", "ls", "ge", "lt", "gt", "le", "al"};
  const int index = static_cast<int>(c);
  return index < 15 ? kNames[index] : "<bad cc>";
}

ImmediateRange GetImmediateRange(Form form) {
  switch (GetForm(form).layout) {
    case Layout::kMovWide: case Layout::kMovK: case Layout::kImm16: return {0, 0xffff, 1};
    case Layout::kRRImm12: return {0, 4095, 1};
    case Layout::kRRRShift: return {0, 0, 1};
    case Layout::kRRLogical: return {INT64_MIN, INT64_MAX, 1};
    case Layout::kRRImmImm: return {0, 63, 1};
    case Layout::kLoadStoreScaled: return {0, 8 * 4095, 8};
    case Layout::kLoadStoreUnscaled: return {-256, 255, 1};
    case Layout::kPair: case Layout::kPairWb: return {-512, 504, 8};
    case Layout::kBranchCond: case Layout::kCompareBranch:
      return {-(int64_t{1} << 20), (int64_t{1} << 20) - 4, 4};
    case Layout::kBranch: return {-(int64_t{1} << 27), (int64_t{1} << 27) - 4, 4};
    // op0 is 2 or 3 (its top bit is 1): other values encode SYSL.
    case Layout::kSysReg: return {0x8000, 0xffff, 1};
    case Layout::kRRR: case Layout::kRRRR: case Layout::kRRRCond: case Layout::kLoadStoreReg:
    case Layout::kR:
      return {0, 0, 1};
  }
  return {0, 0, 1};
}

std::optional<uint32_t> EncodeLogicalImmediate(uint64_t value) {
  if (value == 0 || value == ~uint64_t{0}) return std::nullopt;
  // The smallest element size whose replication gives `value`.
  unsigned size = 64;
  while (size > 2) {
    const unsigned half = size / 2;
    const uint64_t mask = (uint64_t{1} << half) - 1;
    if ((value & mask) != ((value >> half) & mask)) break;
    size = half;
  }
  const uint64_t element_mask = size == 64 ? ~uint64_t{0} : (uint64_t{1} << size) - 1;
  const uint64_t element = value & element_mask;
  const unsigned ones = static_cast<unsigned>(__builtin_popcountll(element));
  const uint64_t run = (uint64_t{1} << ones) - 1;  // ones < size, so no overflow
  // element = ror(run, immr): rotating it right by (size - immr) gives run.
  for (unsigned r = 0; r < size; ++r) {
    if (RotateRight(element, r, size) != run) continue;
    const unsigned immr = (size - r) % size;
    // imms: the element size in its high bits (0 for 64 with N = 1, then
    // 0xxxxx for 32, 10xxxx for 16, ..., 11110x for 2), ones - 1 below.
    const unsigned n = size == 64 ? 1 : 0;
    const unsigned imms = ((~(size - 1) << 1) & 0x3f) | (ones - 1);
    return (n << 12) | (immr << 6) | imms;
  }
  return std::nullopt;  // not a rotated run of ones
}

uint64_t DecodeLogicalImmediate(uint32_t encoding) {
  const unsigned n = (encoding >> 12) & 1, immr = (encoding >> 6) & 0x3f, imms = encoding & 0x3f;
  // The element size is given by the highest set bit of N:~imms.
  const unsigned combined = (n << 6) | (~imms & 0x3f);
  if (combined == 0) return 0;
  unsigned len = 31 - static_cast<unsigned>(__builtin_clz(combined));
  const unsigned size = 1u << len;
  const unsigned ones = (imms & (size - 1)) + 1;
  if (ones >= size + (size == 64 ? 1 : 0)) return 0;
  uint64_t element = RotateRight(ones == 64 ? ~uint64_t{0} : (uint64_t{1} << ones) - 1, immr, size);
  uint64_t value = element;
  for (unsigned s = size; s < 64; s *= 2) value |= value << s;
  return value;
}

codegen::FixupField BranchField(Form form) {
  switch (GetForm(form).layout) {
    case Layout::kBranch: return {0, 26, 2};
    case Layout::kBranchCond: case Layout::kCompareBranch: return {5, 19, 2};
    default: return {};
  }
}

std::string FormText(Form form, const FormOperands& ops) {
  const FormInfo& info = GetForm(form);
  auto reg = [](Gpr r) { return std::string(AsmRegName(r)); };
  static constexpr absl::string_view kShiftNames[] = {"lsl", "lsr", "asr"};
  std::string sh;
  if (ops.imm2 != 0 || ops.shift != ShiftType::kLsl) {
    sh = absl::StrCat(", ", kShiftNames[static_cast<int>(ops.shift) % 3], " #", ops.imm2);
  }
  return absl::StrReplaceAll(info.text, {{"{d}", reg(ops.d)},
                                         {"{n}", reg(ops.n)},
                                         {"{m}", reg(ops.m)},
                                         {"{a}", reg(ops.a)},
                                         {"{i2}", absl::StrCat(ops.imm2)},
                                         {"{i}", absl::StrCat(ops.imm)},
                                         {"{sh}", sh},
                                         {"{lsl12}", ops.imm2 == 12 ? ", lsl #12" : ""},
                                         {"{cc}", CondName(ops.cc)}});
}

}  // namespace morel::aarch64
