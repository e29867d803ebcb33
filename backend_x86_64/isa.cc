#include "backend_x86_64/isa.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace morel::x86_64 {
namespace {

using L = Layout;

// The forms table. Order matches enum Form.
constexpr FormInfo kForms[] = {
    {Form::kMovRR, "MOV64rr", L::kRR, "movq {s}, {d}"},
    {Form::kMovRI64, "MOV64ri", L::kRI, "movabsq ${i}, {d}"},
    {Form::kMovRI32, "MOV64ri32", L::kRI, "movq ${i}, {d}"},
    {Form::kLoad, "MOV64rm", L::kRM, "movq {m}, {d}"},
    {Form::kStore, "MOV64mr", L::kMR, "movq {s}, {m}"},
    {Form::kLea, "LEA64r", L::kRM, "leaq {m}, {d}"},
    {Form::kAddRR, "ADD64rr", L::kRRTied, "addq {s}, {d}"},
    {Form::kAddRI8, "ADD64ri8", L::kRITied, "addq ${i}, {d}"},
    {Form::kAddRI32, "ADD64ri32", L::kRITied, "addq ${i}, {d}"},
    {Form::kSubRR, "SUB64rr", L::kRRTied, "subq {s}, {d}"},
    {Form::kSubRI8, "SUB64ri8", L::kRITied, "subq ${i}, {d}"},
    {Form::kSubRI32, "SUB64ri32", L::kRITied, "subq ${i}, {d}"},
    {Form::kImulRR, "IMUL64rr", L::kRRTied, "imulq {s}, {d}"},
    {Form::kImulRRI8, "IMUL64rri8", L::kRRI, "imulq ${i}, {s}, {d}"},
    {Form::kImulRRI32, "IMUL64rri32", L::kRRI, "imulq ${i}, {s}, {d}"},
    {Form::kAndRR, "AND64rr", L::kRRTied, "andq {s}, {d}"},
    {Form::kAndRI8, "AND64ri8", L::kRITied, "andq ${i}, {d}"},
    {Form::kAndRI32, "AND64ri32", L::kRITied, "andq ${i}, {d}"},
    {Form::kOrRR, "OR64rr", L::kRRTied, "orq {s}, {d}"},
    {Form::kOrRI8, "OR64ri8", L::kRITied, "orq ${i}, {d}"},
    {Form::kOrRI32, "OR64ri32", L::kRITied, "orq ${i}, {d}"},
    {Form::kXorRR, "XOR64rr", L::kRRTied, "xorq {s}, {d}"},
    {Form::kXorRI8, "XOR64ri8", L::kRITied, "xorq ${i}, {d}"},
    {Form::kXorRI32, "XOR64ri32", L::kRITied, "xorq ${i}, {d}"},
    {Form::kCmpRR, "CMP64rr", L::kRR, "cmpq {s}, {d}"},
    {Form::kCmpRI8, "CMP64ri8", L::kRI, "cmpq ${i}, {d}"},
    {Form::kCmpRI32, "CMP64ri32", L::kRI, "cmpq ${i}, {d}"},
    {Form::kCmpRM, "CMP64rm", L::kRM, "cmpq {m}, {d}"},
    {Form::kTestRR, "TEST64rr", L::kRR, "testq {s}, {d}"},
    {Form::kTestRI32, "TEST64ri32", L::kRI, "testq ${i}, {d}"},
    {Form::kNeg, "NEG64r", L::kRTied, "negq {d}"},
    {Form::kNot, "NOT64r", L::kRTied, "notq {d}"},
    {Form::kCqo, "CQO", L::kNone, "cqto"},
    {Form::kIdiv, "IDIV64r", L::kR, "idivq {d}"},
    {Form::kShlCL, "SHL64rCL", L::kRTied, "shlq %cl, {d}"},
    {Form::kSarCL, "SAR64rCL", L::kRTied, "sarq %cl, {d}"},
    {Form::kShrCL, "SHR64rCL", L::kRTied, "shrq %cl, {d}"},
    {Form::kShlRI, "SHL64ri", L::kRITied, "shlq ${i}, {d}"},
    {Form::kSarRI, "SAR64ri", L::kRITied, "sarq ${i}, {d}"},
    {Form::kShrRI, "SHR64ri", L::kRITied, "shrq ${i}, {d}"},
    {Form::kSetcc, "SETCCr", L::kR8Cond, "set{cc} {d8}"},
    {Form::kMovzxR32R8, "MOVZX32rr8", L::kR32R8, "movzbl {s8}, {d32}"},
    {Form::kCmov, "CMOV64rr", L::kRRTiedCond, "cmov{cc}q {s}, {d}"},
    {Form::kJcc, "JCC_4", L::kRel32Cond, "j{cc} {i}"},
    {Form::kJmp, "JMP_4", L::kRel32, "jmp {i}"},
    {Form::kCallRel32, "CALL64pcrel32", L::kRel32, "callq {i}"},
    {Form::kCallR, "CALL64r", L::kR, "callq *{d}"},
    {Form::kRet, "RET64", L::kNone, "retq"},
    {Form::kPush, "PUSH64r", L::kR, "pushq {d}"},
    {Form::kPop, "POP64r", L::kR, "popq {d}"},
    {Form::kPushI32, "PUSH64i32", L::kI, "pushq ${i}"},
    {Form::kCmpRFs, "CMP64rm", L::kRFs, "cmpq {fs}, {d}"},
    {Form::kLoadFs, "MOV64rm", L::kRFs, "movq {fs}, {d}"},
    {Form::kStoreFs, "MOV64mr", L::kFsR, "movq {s}, {fs}"},
    {Form::kStoreI32, "MOV64mi32", L::kMI, "movq ${i}, {m}"},
    {Form::kImulR, "IMUL64r", L::kR, "imulq {d}"},
};
static_assert(sizeof(kForms) / sizeof(kForms[0]) == static_cast<int>(Form::kNumForms));

std::string Reg(Gpr r, Width w) { return absl::StrCat("%", AttRegName(r, w)); }

}  // namespace

absl::Span<const FormInfo> Forms() { return kForms; }

const FormInfo& GetForm(Form f) { return kForms[static_cast<int>(f)]; }

X86Cond ToX86Cond(codegen::Cond c) {
  using codegen::Cond;
  switch (c) {
    case Cond::kEq: return X86Cond::kE;
    case Cond::kNe: return X86Cond::kNE;
    case Cond::kLt: return X86Cond::kL;
    case Cond::kLe: return X86Cond::kLE;
    case Cond::kGt: return X86Cond::kG;
    case Cond::kGe: return X86Cond::kGE;
    case Cond::kULt: return X86Cond::kB;
    case Cond::kULe: return X86Cond::kBE;
    case Cond::kUGt: return X86Cond::kA;
    case Cond::kUGe: return X86Cond::kAE;
  }
  return X86Cond::kE;
}

absl::string_view CondSuffix(X86Cond c) {
  static constexpr absl::string_view kSuffix[] = {"o", "no", "b", "ae", "e",  "ne", "be", "a",
                                                  "s", "ns", "p", "np", "l", "ge", "le", "g"};
  // An invalid code (the encoder refuses it) has no suffix: ExpectedAtt
  // formats every placeholder, also for forms without a condition.
  const int index = static_cast<int>(c);
  return index < 16 ? kSuffix[index] : "<bad cc>";
}

ImmediateRange GetImmediateRange(Form form) {
  switch (form) {
    case Form::kMovRI64:
      return {INT64_MIN, INT64_MAX};
    case Form::kAddRI8: case Form::kSubRI8: case Form::kImulRRI8: case Form::kAndRI8:
    case Form::kOrRI8: case Form::kXorRI8: case Form::kCmpRI8:
      return {INT8_MIN, INT8_MAX};
    case Form::kShlRI: case Form::kSarRI: case Form::kShrRI:
      return {0, 63};
    default:
      return {INT32_MIN, INT32_MAX};
  }
}

std::string ExpectedAtt(Form form, const FormOperands& ops) {
  const FormInfo& info = GetForm(form);
  std::string mem;
  if (ops.base != kNoGpr) {
    mem = ops.disp == 0 ? absl::StrCat("(", Reg(ops.base, Width::k64), ")")
                        : absl::StrCat(ops.disp, "(", Reg(ops.base, Width::k64), ")");
  }
  auto reg = [](Gpr r, Width w) { return r == kNoGpr ? std::string() : Reg(r, w); };
  return absl::StrReplaceAll(info.att, {{"{d32}", reg(ops.dst, Width::k32)},
                                        {"{d8}", reg(ops.dst, Width::k8)},
                                        {"{s8}", reg(ops.src, Width::k8)},
                                        {"{d}", reg(ops.dst, Width::k64)},
                                        {"{s}", reg(ops.src, Width::k64)},
                                        {"{m}", mem},
                                        {"{fs}", absl::StrCat("%fs:", ops.disp)},
                                        {"{i}", absl::StrCat(ops.imm)},
                                        {"{cc}", CondSuffix(ops.cc)}});
}

}  // namespace morel::x86_64
