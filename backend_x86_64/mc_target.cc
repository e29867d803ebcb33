#include "backend_x86_64/mc_target.h"

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/Support/TargetSelect.h"

namespace morel::x86_64 {
namespace {

absl::string_view View(llvm::StringRef s) { return absl::string_view(s.data(), s.size()); }

absl::StatusOr<std::unique_ptr<McTarget>> BuildMcTarget() {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86Disassembler();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kLlvmTriple, error);
  if (target == nullptr) return absl::UnavailableError("LLVM x86 target: " + error);
  auto t = std::make_unique<McTarget>();
  t->target = target;
  t->mri.reset(target->createMCRegInfo(kLlvmTriple));
  if (!t->mri) return absl::UnavailableError("LLVM x86 MC layer incomplete: no MCRegisterInfo");
  llvm::MCTargetOptions options;
  t->mai.reset(target->createMCAsmInfo(*t->mri, kLlvmTriple, options));
  t->mii.reset(target->createMCInstrInfo());
  t->sti.reset(target->createMCSubtargetInfo(kLlvmTriple, "x86-64", ""));
  if (!t->mai || !t->mii || !t->sti) return absl::UnavailableError("LLVM x86 MC layer incomplete");

  // One pass over LLVM's opcode names, each checked against the few names
  // the forms table uses (instead of hashing all ~15,000 of LLVM's names).
  // Several forms may share an LLVM opcode.
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
    if (op == 0) return absl::NotFoundError(absl::StrCat("LLVM has no x86 opcode ", f.llvm_name));
    t->opcodes[static_cast<int>(f.form)] = op;
  }

  absl::flat_hash_map<absl::string_view, unsigned> reg_by_name;
  for (unsigned r = 1; r < t->mri->getNumRegs(); ++r) reg_by_name[View(t->mri->getName(r))] = r;
  for (Width w : {Width::k64, Width::k32, Width::k8}) {
    for (int r = 0; r < kNumGprs; ++r) {
      absl::string_view name = LlvmRegName(static_cast<Gpr>(r), w);
      auto it = reg_by_name.find(name);
      if (it == reg_by_name.end()) return absl::NotFoundError(absl::StrCat("no register ", name));
      t->regs[static_cast<int>(w)][r] = it->second;
    }
  }
  auto fs = reg_by_name.find("FS");
  if (fs == reg_by_name.end()) return absl::NotFoundError("no register FS");
  t->fs = fs->second;
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

}  // namespace morel::x86_64
