#include "engine/codegen/machine_function.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace morel::codegen {

Cond NegateCond(Cond c) {
  switch (c) {
    case Cond::kEq: return Cond::kNe;
    case Cond::kNe: return Cond::kEq;
    case Cond::kLt: return Cond::kGe;
    case Cond::kLe: return Cond::kGt;
    case Cond::kGt: return Cond::kLe;
    case Cond::kGe: return Cond::kLt;
    case Cond::kULt: return Cond::kUGe;
    case Cond::kULe: return Cond::kUGt;
    case Cond::kUGt: return Cond::kULe;
    case Cond::kUGe: return Cond::kULt;
  }
  return c;
}

absl::string_view CondName(Cond c) {
  static constexpr absl::string_view kNames[] = {"eq", "ne", "lt",  "le",  "gt",
                                                 "ge", "ult", "ule", "ugt", "uge"};
  return kNames[static_cast<int>(c)];
}

absl::string_view MOpName(MOp op) {
  static constexpr absl::string_view kNames[] = {
      "nop",     "mov",     "movimm",  "load",          "store",  "add",     "sub",
      "mul",     "and",     "or",      "xor",           "shl",    "sar",     "shr",
      "add.ovf", "sub.ovf", "mul.ovf", "div",           "rem",    "mulh",    "neg",     "not",
      "cmpset",  "branch",  "jump",    "ret",           "call",   "call.ind", "deopt",
      "deopt.if", "spill",  "reload",  "outgoing.area", "alloc",  "target"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<int>(MOp::kTarget) + 1);
  return kNames[static_cast<int>(op)];
}

bool IsTerminator(MOp op) {
  return op == MOp::kBranch || op == MOp::kJump || op == MOp::kRet || op == MOp::kDeopt;
}

uint32_t MachineFunction::NewBlock() {
  MachineBlock b;
  b.id = static_cast<uint32_t>(blocks_.size());
  blocks_.push_back(std::move(b));
  return blocks_.back().id;
}

MachineInst& MachineFunction::Append(uint32_t block, MachineInst inst) {
  auto& insts = blocks_[block].insts;
  insts.push_back(std::move(inst));
  return insts.back();
}

void MachineFunction::ComputeSuccessors() {
  for (MachineBlock& b : blocks_) {
    b.successors.clear();
    if (b.insts.empty()) continue;
    const MachineInst& t = b.insts.back();
    for (const MachineOperand& u : t.uses) {
      if (u.kind == MachineOperand::Kind::kBlock) b.successors.push_back(u.index);
    }
  }
}

namespace {

std::string OperandText(const MachineOperand& o, const std::vector<std::string>* names) {
  using K = MachineOperand::Kind;
  switch (o.kind) {
    case K::kNone: return "_";
    case K::kVReg: return absl::StrCat(o.reg_class == RegClass::kFpr ? "f" : "v", o.index);
    case K::kPReg: {
      std::string r = (names != nullptr && o.index < names->size())
                          ? (*names)[o.index]
                          : absl::StrCat("p", o.index);
      return o.vreg == kNoVReg ? r : absl::StrCat(r, "{v", o.vreg, "}");
    }
    case K::kImm: return absl::StrCat(o.imm);
    case K::kStackSlot:
      return o.vreg == kNoVReg ? absl::StrCat("ss", o.index)
                               : absl::StrCat("ss", o.index, "{v", o.vreg, "}");
    case K::kBlock: return absl::StrCat("b", o.index);
    case K::kAddress: return absl::StrCat("@0x", absl::Hex(o.imm));
  }
  return "?";
}

std::string List(const std::vector<MachineOperand>& ops, const std::vector<std::string>* names) {
  std::string s;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i > 0) s += ", ";
    s += OperandText(ops[i], names);
  }
  return s;
}

}  // namespace

std::string MachineFunction::Dump(const std::vector<std::string>* names) const {
  std::string out = absl::StrCat("function ", name_, ":\n");
  for (const MachineBlock& b : blocks_) {
    absl::StrAppend(&out, "b", b.id, ":");
    if (b.osr_entry >= 0) absl::StrAppend(&out, "  ; osr entry ", b.osr_entry);
    out += "\n";
    for (const MachineInst& inst : b.insts) {
      out += "  ";
      if (!inst.defs.empty()) absl::StrAppend(&out, List(inst.defs, names), " = ");
      out += std::string(MOpName(inst.op));
      if (inst.op == MOp::kTarget) absl::StrAppend(&out, ".", inst.target_opcode);
      if (inst.op == MOp::kCmpSet || inst.op == MOp::kBranch || inst.op == MOp::kDeoptIf) {
        absl::StrAppend(&out, ".", CondName(inst.cond));
      }
      if (!inst.uses.empty()) absl::StrAppend(&out, " ", List(inst.uses, names));
      if (inst.deopt >= 0) {
        const DeoptState& st = deopt_states_[inst.deopt];
        absl::StrAppend(&out, " deopt#", st.id, "[", List(st.values, names), "]");
      }
      if (inst.clobbers != 0) absl::StrAppend(&out, " clobbers 0x", absl::Hex(inst.clobbers));
      out += "\n";
    }
  }
  return out;
}

namespace mi {

MachineInst Mov(Op d, Op s) { return {MOp::kMov, Cond::kEq, {d}, {s}}; }
MachineInst MovImm(Op d, int64_t imm) { return {MOp::kMovImm, Cond::kEq, {d}, {Op::Imm(imm)}}; }
MachineInst Load(Op d, Op base, int32_t disp) {
  return {MOp::kLoad, Cond::kEq, {d}, {base, Op::Imm(disp)}};
}
MachineInst Store(Op base, int32_t disp, Op src) {
  return {MOp::kStore, Cond::kEq, {}, {base, Op::Imm(disp), src}};
}
MachineInst Binary(MOp op, Op d, Op a, Op b) { return {op, Cond::kEq, {d}, {a, b}}; }
MachineInst Unary(MOp op, Op d, Op a) { return {op, Cond::kEq, {d}, {a}}; }
MachineInst CmpSet(Cond c, Op d, Op a, Op b) { return {MOp::kCmpSet, c, {d}, {a, b}}; }
MachineInst Branch(Cond c, Op a, Op b, uint32_t then_block, uint32_t else_block) {
  return {MOp::kBranch, c, {}, {a, b, Op::Block(then_block), Op::Block(else_block)}};
}
MachineInst Jump(uint32_t block) { return {MOp::kJump, Cond::kEq, {}, {Op::Block(block)}}; }
MachineInst Ret(std::vector<Op> regs) { return {MOp::kRet, Cond::kEq, {}, std::move(regs)}; }
MachineInst Call(const void* address, std::vector<Op> args, std::vector<Op> results,
                 uint64_t clobbers) {
  MachineInst inst{MOp::kCall, Cond::kEq, std::move(results), {Op::Address(address)}};
  for (Op& a : args) inst.uses.push_back(a);
  inst.clobbers = clobbers;
  return inst;
}
MachineInst Deopt(int32_t state) {
  MachineInst inst{MOp::kDeopt};
  inst.deopt = state;
  return inst;
}
MachineInst OutgoingArea(Op d) { return {MOp::kOutgoingArea, Cond::kEq, {d}, {}}; }
MachineInst Alloc(Op d, int64_t bytes, const void* allocate, std::optional<int32_t> head) {
  MachineInst inst{MOp::kAlloc, Cond::kEq, {d}, {Op::Imm(bytes), Op::Address(allocate)}};
  if (head.has_value()) inst.uses.push_back(Op::Imm(*head));
  return inst;
}
MachineInst DeoptIf(Cond c, Op a, Op b, int32_t state) {
  MachineInst inst{MOp::kDeoptIf, c, {}, {a, b}};
  inst.deopt = state;
  return inst;
}

}  // namespace mi
}  // namespace morel::codegen
