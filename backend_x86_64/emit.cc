#include "backend_x86_64/emit.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Triple.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

namespace morel::x86_64 {

struct McEncoder::Impl {
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCCodeEmitter> emitter;
  unsigned opcodes[static_cast<int>(Form::kNumForms)] = {};
  unsigned regs[3][kNumGprs] = {};
  unsigned fs = 0;  // the FS segment register

  unsigned R(Gpr r, Width w = Width::k64) const { return r == kNoGpr ? 0 : regs[static_cast<int>(w)][r]; }
};

namespace {

constexpr const char* kTriple = "x86_64-unknown-linux-gnu";

void InitializeX86() {
  static const bool once = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86TargetMC();
    return true;
  }();
  (void)once;
}

}  // namespace

McEncoder::McEncoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
McEncoder::~McEncoder() = default;

absl::StatusOr<std::unique_ptr<McEncoder>> McEncoder::Create() {
  InitializeX86();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (target == nullptr) return absl::UnavailableError("LLVM x86 target: " + error);
  auto impl = std::make_unique<Impl>();
  impl->mri.reset(target->createMCRegInfo(kTriple));
  llvm::MCTargetOptions options;
  impl->mai.reset(target->createMCAsmInfo(*impl->mri, kTriple, options));
  impl->mii.reset(target->createMCInstrInfo());
  impl->sti.reset(target->createMCSubtargetInfo(kTriple, "x86-64", ""));
  if (!impl->mri || !impl->mai || !impl->mii || !impl->sti) {
    return absl::UnavailableError("LLVM x86 MC layer incomplete");
  }
  impl->ctx = std::make_unique<llvm::MCContext>(llvm::Triple(kTriple), impl->mai.get(),
                                                impl->mri.get(), impl->sti.get());
  impl->emitter.reset(target->createMCCodeEmitter(*impl->mii, *impl->mri, *impl->ctx));
  if (!impl->emitter) return absl::UnavailableError("no x86 MCCodeEmitter");

  llvm::StringMap<unsigned> opcode_by_name;
  for (unsigned i = 0; i < impl->mii->getNumOpcodes(); ++i) {
    opcode_by_name[impl->mii->getName(i)] = i;
  }
  for (const FormInfo& f : Forms()) {
    auto it = opcode_by_name.find(llvm::StringRef(f.llvm_name.data(), f.llvm_name.size()));
    if (it == opcode_by_name.end()) {
      return absl::NotFoundError(absl::StrCat("LLVM has no x86 opcode ", f.llvm_name));
    }
    impl->opcodes[static_cast<int>(f.form)] = it->second;
  }
  llvm::StringMap<unsigned> reg_by_name;
  for (unsigned r = 1; r < impl->mri->getNumRegs(); ++r) reg_by_name[impl->mri->getName(r)] = r;
  for (Width w : {Width::k64, Width::k32, Width::k8}) {
    for (int r = 0; r < kNumGprs; ++r) {
      absl::string_view name = LlvmRegName(static_cast<Gpr>(r), w);
      auto it = reg_by_name.find(llvm::StringRef(name.data(), name.size()));
      if (it == reg_by_name.end()) return absl::NotFoundError(absl::StrCat("no register ", name));
      impl->regs[static_cast<int>(w)][r] = it->second;
    }
  }
  auto fs = reg_by_name.find("FS");
  if (fs == reg_by_name.end()) return absl::NotFoundError("no register FS");
  impl->fs = fs->second;
  return std::unique_ptr<McEncoder>(new McEncoder(std::move(impl)));
}

unsigned McEncoder::LlvmOpcode(Form form) const { return impl_->opcodes[static_cast<int>(form)]; }

absl::Status McEncoder::Encode(Form form, const FormOperands& ops, codegen::CodeBuffer& out) {
  using llvm::MCOperand;
  const FormInfo& info = GetForm(form);
  const Impl& m = *impl_;
  llvm::MCInst inst;
  inst.setOpcode(m.opcodes[static_cast<int>(form)]);
  auto reg = [&](Gpr r, Width w = Width::k64) { inst.addOperand(MCOperand::createReg(m.R(r, w))); };
  auto imm = [&](int64_t v) { inst.addOperand(MCOperand::createImm(v)); };
  auto mem = [&]() {
    reg(ops.base);
    imm(1);                                       // scale
    inst.addOperand(MCOperand::createReg(0));     // no index
    imm(ops.disp);
    inst.addOperand(MCOperand::createReg(0));     // no segment
  };
  const bool needs_dst = info.layout != Layout::kNone && info.layout != Layout::kRel32 &&
                         info.layout != Layout::kRel32Cond && info.layout != Layout::kI &&
                         info.layout != Layout::kMR;
  if (needs_dst && ops.dst == kNoGpr) {
    return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, " needs a destination"));
  }
  switch (info.layout) {
    case Layout::kNone: break;
    case Layout::kR: reg(ops.dst); break;
    case Layout::kRTied: reg(ops.dst); reg(ops.dst); break;
    case Layout::kRR: reg(ops.dst); reg(ops.src); break;
    case Layout::kRRTied: reg(ops.dst); reg(ops.dst); reg(ops.src); break;
    case Layout::kRI: reg(ops.dst); imm(ops.imm); break;
    case Layout::kRITied: reg(ops.dst); reg(ops.dst); imm(ops.imm); break;
    case Layout::kRRI: reg(ops.dst); reg(ops.src); imm(ops.imm); break;
    case Layout::kRM: reg(ops.dst); mem(); break;
    case Layout::kMR: mem(); reg(ops.src); break;
    case Layout::kR8Cond: reg(ops.dst, Width::k8); imm(static_cast<int>(ops.cc)); break;
    case Layout::kR32R8: reg(ops.dst, Width::k32); reg(ops.src, Width::k8); break;
    case Layout::kRRTiedCond:
      reg(ops.dst); reg(ops.dst); reg(ops.src); imm(static_cast<int>(ops.cc));
      break;
    case Layout::kRel32: imm(ops.imm); break;
    case Layout::kRel32Cond: imm(ops.imm); imm(static_cast<int>(ops.cc)); break;
    case Layout::kI: imm(ops.imm); break;
    case Layout::kRFs:
      reg(ops.dst);
      inst.addOperand(MCOperand::createReg(0));  // no base: absolute
      imm(1);
      inst.addOperand(MCOperand::createReg(0));  // no index
      imm(ops.disp);
      inst.addOperand(MCOperand::createReg(m.fs));
      break;
  }
  if ((info.layout == Layout::kRR || info.layout == Layout::kRRTied ||
       info.layout == Layout::kRRI || info.layout == Layout::kR32R8 ||
       info.layout == Layout::kMR || info.layout == Layout::kRRTiedCond) &&
      ops.src == kNoGpr) {
    return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, " needs a source"));
  }
  if ((info.layout == Layout::kRM || info.layout == Layout::kMR) && ops.base == kNoGpr) {
    return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, " needs a base"));
  }
  llvm::SmallVector<char, 16> bytes;
  llvm::SmallVector<llvm::MCFixup, 1> fixups;
  llvm::raw_svector_ostream os(bytes);
  m.emitter->encodeInstruction(inst, os, fixups, *m.sti);
  // The emitter turns a pc-relative immediate into a fixup (expression
  // imm - 4, relative to the field). The displacement we mean is `imm`
  // relative to the end of the instruction, which is what the field holds.
  const bool pc_relative = info.layout == Layout::kRel32 || info.layout == Layout::kRel32Cond;
  for (const llvm::MCFixup& f : fixups) {
    if (!pc_relative || f.getOffset() + 4 != bytes.size()) {
      return absl::InternalError(absl::StrCat(info.llvm_name, " produced an unexpected MC fixup"));
    }
    const uint32_t disp = static_cast<uint32_t>(static_cast<int32_t>(ops.imm));
    for (int i = 0; i < 4; ++i) bytes[f.getOffset() + i] = static_cast<char>(disp >> (8 * i));
  }
  if (pc_relative && !FitsInt32(ops.imm)) {
    return absl::InvalidArgumentError("pc-relative displacement out of range");
  }
  for (char c : bytes) out.Emit8(static_cast<uint8_t>(c));
  return absl::OkStatus();
}

}  // namespace morel::x86_64
