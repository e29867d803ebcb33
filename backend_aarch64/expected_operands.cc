#include "backend_aarch64/expected_operands.h"

#include "absl/strings/str_cat.h"

namespace morel::aarch64 {
namespace {

DecodedOperand Reg(Gpr r) { return {true, static_cast<int64_t>(r)}; }
DecodedOperand Imm(int64_t v) { return {false, v}; }

}  // namespace

// The MCInst operands `ops` stand for, in LLVM's units: what decoding the
// encoded word must give back.
std::vector<DecodedOperand> ExpectedOperands(Form form, const FormOperands& ops) {
  switch (GetForm(form).layout) {
    case Layout::kMovWide: return {Reg(ops.d), Imm(ops.imm), Imm(ops.imm2)};
    case Layout::kMovK: return {Reg(ops.d), Reg(ops.d), Imm(ops.imm), Imm(ops.imm2)};
    case Layout::kRRImm12: return {Reg(ops.d), Reg(ops.n), Imm(ops.imm), Imm(ops.imm2)};
    case Layout::kRRRShift:
      return {Reg(ops.d), Reg(ops.n), Reg(ops.m),
              Imm((static_cast<int64_t>(ops.shift) << 6) | ops.imm2)};
    case Layout::kRRLogical:
      return {Reg(ops.d), Reg(ops.n), Imm(*EncodeLogicalImmediate(static_cast<uint64_t>(ops.imm)))};
    case Layout::kRRRR: return {Reg(ops.d), Reg(ops.n), Reg(ops.m), Reg(ops.a)};
    case Layout::kRRR: return {Reg(ops.d), Reg(ops.n), Reg(ops.m)};
    case Layout::kRRImmImm: return {Reg(ops.d), Reg(ops.n), Imm(ops.imm), Imm(ops.imm2)};
    case Layout::kRRRCond:
      return {Reg(ops.d), Reg(ops.n), Reg(ops.m), Imm(static_cast<int64_t>(ops.cc))};
    case Layout::kLoadStoreScaled: return {Reg(ops.d), Reg(ops.n), Imm(ops.imm / 8)};
    case Layout::kLoadStoreUnscaled: return {Reg(ops.d), Reg(ops.n), Imm(ops.imm)};
    case Layout::kLoadStoreReg: return {Reg(ops.d), Reg(ops.n), Reg(ops.m), Imm(0), Imm(0)};
    case Layout::kPair: return {Reg(ops.d), Reg(ops.a), Reg(ops.n), Imm(ops.imm / 8)};
    case Layout::kPairWb:
      return {Reg(ops.n), Reg(ops.d), Reg(ops.a), Reg(ops.n), Imm(ops.imm / 8)};
    case Layout::kBranchCond: return {Imm(static_cast<int64_t>(ops.cc)), Imm(ops.imm / 4)};
    case Layout::kBranch: return {Imm(ops.imm / 4)};
    case Layout::kR: return {Reg(ops.n)};
    case Layout::kCompareBranch: return {Reg(ops.d), Imm(ops.imm / 4)};
    case Layout::kSysReg: return {Reg(ops.d), Imm(ops.imm)};
    case Layout::kImm16: return {Imm(ops.imm)};
  }
  return {};
}

std::string DescribeOperands(const std::vector<DecodedOperand>& ops) {
  std::string s;
  for (const DecodedOperand& o : ops) absl::StrAppend(&s, o.is_reg ? "r" : "#", o.value, " ");
  return s;
}

}  // namespace morel::aarch64
