#include "backend_aarch64/emit.h"

#include <cstdint>
#include <mutex>  // NOLINT: visible to --config=tsan (the system Abseil is not instrumented)
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backend_aarch64/mc_target.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Triple.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/raw_ostream.h"

namespace morel::aarch64 {
namespace {

// The mutable MC objects one encoder needs (not thread-safe), pooled so
// that an encoder per compilation costs a mutex, not an MCContext.
struct EmitterState {
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCCodeEmitter> emitter;
};

class EmitterPool {
 public:
  std::unique_ptr<EmitterState> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return nullptr;
    std::unique_ptr<EmitterState> s = std::move(free_.back());
    free_.pop_back();
    return s;
  }
  void Return(std::unique_ptr<EmitterState> s) {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.size() < kMaxFree) free_.push_back(std::move(s));
  }

 private:
  static constexpr size_t kMaxFree = 16;
  std::mutex mu_;
  std::vector<std::unique_ptr<EmitterState>> free_;  // guarded by mu_
};

EmitterPool& Pool() {
  // Leaked on purpose: encoders on compiler threads may be destroyed during
  // exit, after static destructors would have run.
  static EmitterPool* const pool = new EmitterPool;
  return *pool;
}

absl::StatusOr<std::unique_ptr<EmitterState>> NewEmitterState(const McTarget& t) {
  auto s = std::make_unique<EmitterState>();
  s->ctx = std::make_unique<llvm::MCContext>(llvm::Triple(kLlvmTriple), t.mai.get(), t.mri.get(),
                                             t.sti.get());
  s->emitter.reset(t.target->createMCCodeEmitter(*t.mii, *t.mri, *s->ctx));
  if (!s->emitter) return absl::UnavailableError("no AArch64 MCCodeEmitter");
  return s;
}

absl::Status Refuse(const FormInfo& info, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, ": ", why));
}

// The checks of the layout's immediates beyond GetImmediateRange, and of
// register combinations the architecture leaves unpredictable.
absl::Status CheckImmediates(const FormInfo& info, const FormOperands& ops) {
  const ImmediateRange range = GetImmediateRange(info.form);
  const bool has_imm = info.layout != Layout::kRRR && info.layout != Layout::kRRRR &&
                       info.layout != Layout::kRRRCond && info.layout != Layout::kLoadStoreReg &&
                       info.layout != Layout::kR && info.layout != Layout::kRRRShift;
  if (has_imm && info.layout != Layout::kRRLogical) {
    if (ops.imm < range.min || ops.imm > range.max) {
      return Refuse(info, absl::StrCat("immediate ", ops.imm, " out of range [", range.min, ", ",
                                       range.max, "]"));
    }
    if (ops.imm % range.multiple != 0) {
      return Refuse(info, absl::StrCat("immediate ", ops.imm, " is not a multiple of ",
                                       range.multiple));
    }
  }
  switch (info.layout) {
    case Layout::kMovWide: case Layout::kMovK:
      if (ops.imm2 != 0 && ops.imm2 != 16 && ops.imm2 != 32 && ops.imm2 != 48) {
        return Refuse(info, absl::StrCat("shift ", ops.imm2, " is not 0, 16, 32 or 48"));
      }
      break;
    case Layout::kRRImm12:
      if (ops.imm2 != 0 && ops.imm2 != 12) {
        return Refuse(info, absl::StrCat("shift ", ops.imm2, " is not 0 or 12"));
      }
      break;
    case Layout::kRRRShift:
      if (ops.imm2 < 0 || ops.imm2 > 63) {
        return Refuse(info, absl::StrCat("shift amount ", ops.imm2, " out of range [0, 63]"));
      }
      if (static_cast<int>(ops.shift) > 2) return Refuse(info, "bad shift type");
      break;
    case Layout::kRRLogical:
      if (!EncodeLogicalImmediate(static_cast<uint64_t>(ops.imm))) {
        return Refuse(info, absl::StrCat("0x", absl::Hex(ops.imm), " is not a bitmask immediate"));
      }
      break;
    case Layout::kRRImmImm:
      if (ops.imm2 < 0 || ops.imm2 > 63) {
        return Refuse(info, absl::StrCat("imms ", ops.imm2, " out of range [0, 63]"));
      }
      break;
    default:
      break;
  }
  // Unpredictable encodings the architecture leaves undefined (and LLVM's
  // decoder refuses): a pair load into one register twice, a written-back
  // base that is also transferred.
  if ((info.form == Form::kLdp || info.form == Form::kLdpPost) && ops.d == ops.a) {
    return Refuse(info, "a pair load needs two different registers");
  }
  if (info.layout == Layout::kPairWb && (ops.n == ops.d || ops.n == ops.a)) {
    return Refuse(info, "the written-back base is also transferred");
  }
  if ((info.layout == Layout::kRRRCond || info.layout == Layout::kBranchCond) &&
      static_cast<int>(ops.cc) > static_cast<int>(A64Cond::kAl)) {
    return Refuse(info, "bad condition code");
  }
  return absl::OkStatus();
}

}  // namespace

struct McEncoder::Impl {
  const McTarget* target = nullptr;
  std::unique_ptr<EmitterState> state;

  ~Impl() {
    if (state != nullptr) Pool().Return(std::move(state));
  }
};

McEncoder::McEncoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
McEncoder::~McEncoder() = default;

absl::StatusOr<std::unique_ptr<McEncoder>> McEncoder::Create() {
  absl::StatusOr<const McTarget*> target = SharedMcTarget();
  if (!target.ok()) return target.status();
  auto impl = std::make_unique<Impl>();
  impl->target = *target;
  impl->state = Pool().Take();
  if (impl->state == nullptr) {
    absl::StatusOr<std::unique_ptr<EmitterState>> state = NewEmitterState(**target);
    if (!state.ok()) return state.status();
    impl->state = *std::move(state);
  }
  return std::unique_ptr<McEncoder>(new McEncoder(std::move(impl)));
}

unsigned McEncoder::LlvmOpcode(Form form) const { return impl_->target->Opcode(form); }
unsigned McEncoder::LlvmReg(Gpr r) const { return impl_->target->Reg(r); }

absl::Status McEncoder::Encode(Form form, const FormOperands& ops, codegen::CodeBuffer& out) {
  using llvm::MCOperand;
  if (static_cast<int>(form) >= static_cast<int>(Form::kNumForms)) {
    return absl::InvalidArgumentError("unknown AArch64 form");
  }
  const FormInfo& info = GetForm(form);
  const McTarget& t = *impl_->target;
  absl::Status checked = CheckImmediates(info, ops);
  if (!checked.ok()) return checked;

  llvm::MCInst inst;
  inst.setOpcode(t.Opcode(form));
  bool missing = false;
  auto reg = [&](Gpr r) {
    if (r >= kNumRegNames) missing = true;
    inst.addOperand(MCOperand::createReg(r < kNumRegNames ? t.Reg(r) : 0));
  };
  auto imm = [&](int64_t v) { inst.addOperand(MCOperand::createImm(v)); };
  const auto shifter = [](ShiftType type, int64_t amount) {
    return (static_cast<int64_t>(type) << 6) | amount;  // LLVM's shifter operand
  };
  switch (info.layout) {
    case Layout::kMovWide: reg(ops.d); imm(ops.imm); imm(ops.imm2); break;
    case Layout::kMovK: reg(ops.d); reg(ops.d); imm(ops.imm); imm(ops.imm2); break;
    case Layout::kRRImm12: reg(ops.d); reg(ops.n); imm(ops.imm); imm(ops.imm2); break;
    case Layout::kRRRShift:
      reg(ops.d); reg(ops.n); reg(ops.m); imm(shifter(ops.shift, ops.imm2));
      break;
    case Layout::kRRLogical:
      reg(ops.d); reg(ops.n); imm(*EncodeLogicalImmediate(static_cast<uint64_t>(ops.imm)));
      break;
    case Layout::kRRRR: reg(ops.d); reg(ops.n); reg(ops.m); reg(ops.a); break;
    case Layout::kRRR: reg(ops.d); reg(ops.n); reg(ops.m); break;
    case Layout::kRRImmImm: reg(ops.d); reg(ops.n); imm(ops.imm); imm(ops.imm2); break;
    case Layout::kRRRCond:
      reg(ops.d); reg(ops.n); reg(ops.m); imm(static_cast<int64_t>(ops.cc));
      break;
    case Layout::kLoadStoreScaled: reg(ops.d); reg(ops.n); imm(ops.imm / 8); break;
    case Layout::kLoadStoreUnscaled: reg(ops.d); reg(ops.n); imm(ops.imm); break;
    case Layout::kLoadStoreReg: reg(ops.d); reg(ops.n); reg(ops.m); imm(0); imm(0); break;
    case Layout::kPair: reg(ops.d); reg(ops.a); reg(ops.n); imm(ops.imm / 8); break;
    case Layout::kPairWb:
      reg(ops.n); reg(ops.d); reg(ops.a); reg(ops.n); imm(ops.imm / 8);
      break;
    case Layout::kBranchCond: imm(static_cast<int64_t>(ops.cc)); imm(ops.imm / 4); break;
    case Layout::kBranch: imm(ops.imm / 4); break;
    case Layout::kR: reg(ops.n); break;
    case Layout::kCompareBranch: reg(ops.d); imm(ops.imm / 4); break;
    case Layout::kSysReg: reg(ops.d); imm(ops.imm); break;
    case Layout::kImm16: imm(ops.imm); break;
  }
  if (missing) return Refuse(info, "a register operand is missing");
  // Register classes: sp where the instruction means sp, xzr where it means
  // the zero register (both are encoding 31).
  const llvm::MCInstrDesc& desc = t.mii->get(inst.getOpcode());
  for (unsigned k = 0; k < inst.getNumOperands() && k < desc.getNumOperands(); ++k) {
    const int rc = desc.OpInfo[k].RegClass;
    if (!inst.getOperand(k).isReg() || rc < 0) continue;
    const unsigned r = inst.getOperand(k).getReg();
    if (!t.mri->getRegClass(rc).contains(r)) {
      return Refuse(info, absl::StrCat("operand ", k, " cannot be ", t.mri->getName(r)));
    }
  }
  llvm::SmallVector<char, 4> bytes;
  llvm::SmallVector<llvm::MCFixup, 1> fixups;
  llvm::raw_svector_ostream os(bytes);
  impl_->state->emitter->encodeInstruction(inst, os, fixups, *t.sti);
  if (!fixups.empty() || bytes.size() != 4) {
    return absl::InternalError(absl::StrCat(info.llvm_name, " did not encode as one word"));
  }
  for (char c : bytes) out.Emit8(static_cast<uint8_t>(c));
  return absl::OkStatus();
}

}  // namespace morel::aarch64
