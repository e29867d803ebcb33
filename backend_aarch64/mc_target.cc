#include "backend_aarch64/mc_target.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/Support/TargetSelect.h"

namespace morel::aarch64 {
namespace {

absl::string_view View(llvm::StringRef s) { return absl::string_view(s.data(), s.size()); }

absl::StatusOr<std::unique_ptr<McTarget>> BuildMcTarget() {
  LLVMInitializeAArch64TargetInfo();
  LLVMInitializeAArch64TargetMC();
  LLVMInitializeAArch64Disassembler();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kLlvmTriple, error);
  if (target == nullptr) return absl::UnavailableError("LLVM AArch64 target: " + error);
  auto t = std::make_unique<McTarget>();
  t->target = target;
  t->mri.reset(target->createMCRegInfo(kLlvmTriple));
  if (!t->mri) return absl::UnavailableError("LLVM AArch64 MC layer incomplete: no MCRegisterInfo");
  llvm::MCTargetOptions options;
  t->mai.reset(target->createMCAsmInfo(*t->mri, kLlvmTriple, options));
  t->mii.reset(target->createMCInstrInfo());
  t->sti.reset(target->createMCSubtargetInfo(kLlvmTriple, "generic", ""));
  if (!t->mai || !t->mii || !t->sti) {
    return absl::UnavailableError("LLVM AArch64 MC layer incomplete");
  }

  absl::flat_hash_map<absl::string_view, unsigned> wanted;  // name -> opcode
  for (const FormInfo& f : Forms()) wanted.emplace(f.llvm_name, 0);
  size_t found = 0;
  for (unsigned i = 0; i < t->mii->getNumOpcodes() && found < wanted.size(); ++i) {
    auto it = wanted.find(View(t->mii->getName(i)));
    if (it == wanted.end() || it->second != 0) continue;
    it->second = i;
    ++found;
  }
  for (const FormInfo& f : Forms()) {
    const unsigned op = wanted.at(f.llvm_name);
    // Opcode 0 is PHI, never one of ours: the name was not found.
    if (op == 0) {
      return absl::NotFoundError(absl::StrCat("LLVM has no AArch64 opcode ", f.llvm_name));
    }
    t->opcodes[static_cast<int>(f.form)] = op;
  }

  absl::flat_hash_map<absl::string_view, unsigned> reg_by_name;
  for (unsigned r = 1; r < t->mri->getNumRegs(); ++r) reg_by_name[View(t->mri->getName(r))] = r;
  for (int r = 0; r < kNumRegNames; ++r) {
    absl::string_view name = LlvmRegName(static_cast<Gpr>(r));
    auto it = reg_by_name.find(name);
    if (it == reg_by_name.end()) return absl::NotFoundError(absl::StrCat("no register ", name));
    t->regs[r] = it->second;
    t->gpr_of[it->second] = static_cast<Gpr>(r);
  }
  return t;
}

}  // namespace

absl::StatusOr<const McTarget*> SharedMcTarget() {
  // Leaked on purpose: compiler threads may still encode during exit.
  static const absl::StatusOr<const McTarget*>* const shared =
      new absl::StatusOr<const McTarget*>([]() -> absl::StatusOr<const McTarget*> {
        absl::StatusOr<std::unique_ptr<McTarget>> t = BuildMcTarget();
        if (!t.ok()) return t.status();
        return t->release();
      }());
  return *shared;
}

}  // namespace morel::aarch64
