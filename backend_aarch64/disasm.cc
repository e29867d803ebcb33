#include "backend_aarch64/disasm.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "backend_aarch64/mc_target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Triple.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/Support/raw_ostream.h"

namespace morel::aarch64 {

struct McDisassembler::Impl {
  const McTarget* target = nullptr;
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCDisassembler> disasm;
  std::unique_ptr<llvm::MCInstPrinter> printer;
};

namespace {

// "\tadd\tx0, x1, x2" -> "add x0, x1, x2"; drops the printer's "// =4096"
// comments.
std::string Normalize(const std::string& s) {
  std::string code = s.substr(0, s.find("//"));
  std::vector<std::string> parts =
      absl::StrSplit(code, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  return absl::StrJoin(parts, " ");
}

}  // namespace

McDisassembler::McDisassembler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
McDisassembler::~McDisassembler() = default;

absl::StatusOr<std::unique_ptr<McDisassembler>> McDisassembler::Create(bool aliases) {
  absl::StatusOr<const McTarget*> target = SharedMcTarget();
  if (!target.ok()) return target.status();
  const McTarget& t = **target;
  auto impl = std::make_unique<Impl>();
  impl->target = &t;
  impl->ctx = std::make_unique<llvm::MCContext>(llvm::Triple(kLlvmTriple), t.mai.get(),
                                                t.mri.get(), t.sti.get());
  impl->disasm.reset(t.target->createMCDisassembler(*t.sti, *impl->ctx));
  impl->printer.reset(
      t.target->createMCInstPrinter(llvm::Triple(kLlvmTriple), 0, *t.mai, *t.mii, *t.mri));
  if (!impl->disasm || !impl->printer) return absl::UnavailableError("no AArch64 disassembler");
  if (!aliases) impl->printer->applyTargetSpecificCLOption("no-aliases");
  return std::unique_ptr<McDisassembler>(new McDisassembler(std::move(impl)));
}

absl::StatusOr<std::vector<DecodedInst>> McDisassembler::Decode(absl::Span<const uint8_t> code,
                                                                uint64_t address) const {
  std::vector<DecodedInst> out;
  llvm::ArrayRef<uint8_t> bytes(code.data(), code.size());
  uint64_t offset = 0;
  while (offset < bytes.size()) {
    llvm::MCInst inst;
    uint64_t size = 0;
    auto status = impl_->disasm->getInstruction(inst, size, bytes.slice(offset),
                                                address + offset, llvm::nulls());
    if (status != llvm::MCDisassembler::Success || size == 0) {
      uint32_t word = 0;
      for (uint64_t i = 0; i < 4 && offset + i < bytes.size(); ++i) {
        word |= static_cast<uint32_t>(bytes[offset + i]) << (8 * i);
      }
      return absl::InvalidArgumentError(
          absl::StrCat("cannot decode at offset ", offset, " (word 0x", absl::Hex(word), ")"));
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    impl_->printer->printInst(&inst, address + offset, "", *impl_->target->sti, os);
    os.flush();
    DecodedInst d;
    d.address = address + offset;
    d.opcode = inst.getOpcode();
    d.opcode_name = impl_->target->mii->getName(inst.getOpcode()).str();
    for (const llvm::MCOperand& op : inst) {
      DecodedOperand o;
      if (op.isReg()) {
        o.is_reg = true;
        auto it = impl_->target->gpr_of.find(op.getReg());
        o.value = it == impl_->target->gpr_of.end() ? -1 : static_cast<int64_t>(it->second);
      } else if (op.isImm()) {
        o.value = op.getImm();
      }
      d.operands.push_back(o);
    }
    d.text = Normalize(text);
    out.push_back(std::move(d));
    offset += size;
  }
  return out;
}

absl::StatusOr<std::string> McDisassembler::Listing(absl::Span<const uint8_t> code,
                                                    uint64_t address) const {
  absl::StatusOr<std::vector<DecodedInst>> insts = Decode(code, address);
  if (!insts.ok()) return insts.status();
  std::string out;
  for (const DecodedInst& d : *insts) {
    absl::StrAppend(&out, "  0x", absl::Hex(d.address), ": ", d.text, "\n");
  }
  return out;
}

}  // namespace morel::aarch64
