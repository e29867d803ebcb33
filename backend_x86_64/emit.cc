#include "backend_x86_64/emit.h"

#include <cstdint>
#include <mutex>  // NOLINT: visible to --config=tsan (the system Abseil is not instrumented)
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backend_x86_64/mc_target.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Triple.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/raw_ostream.h"

namespace morel::x86_64 {
namespace {

// The bytes of a pc-relative form before its rel32 field.
struct Rel32Template {
  uint8_t bytes[4] = {};
  uint8_t size = 0;
  bool valid = false;
};

// The mutable MC objects one encoding needs. MCContext and MCCodeEmitter are
// not thread-safe, so each live McEncoder owns one EmitterState; states are
// pooled (EmitterPool) so that creating an encoder per compilation costs a
// mutex, not an MCContext.
//
// pc-relative forms (jcc/jmp/call rel32) are not sent through the emitter
// per instruction: for an immediate operand X86MCCodeEmitter allocates an
// MCConstantExpr in the MCContext for the fixup, and a pooled, never reset
// context would grow with every branch ever emitted. Their encoding is a
// fixed prefix (e.g. 0F 8x for jcc) followed by the rel32 field, so the
// prefix is encoded through MC once per state (`rel32`) and copied.
struct EmitterState {
  std::unique_ptr<llvm::MCContext> ctx;
  std::unique_ptr<llvm::MCCodeEmitter> emitter;
  // [form][cc]; index 0 for kRel32 forms (which have no condition).
  Rel32Template rel32[static_cast<int>(Form::kNumForms)][16];
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
    // More states than this are only live with as many concurrent
    // encoders; beyond it, let the state go instead of hoarding it.
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

// Encodes `inst` through MC into `bytes`/`fixups`.
void EncodeMc(const McTarget& t, EmitterState& s, const llvm::MCInst& inst,
              llvm::SmallVectorImpl<char>& bytes, llvm::SmallVectorImpl<llvm::MCFixup>& fixups) {
  llvm::raw_svector_ostream os(bytes);
  s.emitter->encodeInstruction(inst, os, fixups, *t.sti);
}

absl::StatusOr<std::unique_ptr<EmitterState>> NewEmitterState(const McTarget& t) {
  auto s = std::make_unique<EmitterState>();
  s->ctx = std::make_unique<llvm::MCContext>(llvm::Triple(kLlvmTriple), t.mai.get(), t.mri.get(),
                                             t.sti.get());
  s->emitter.reset(t.target->createMCCodeEmitter(*t.mii, *t.mri, *s->ctx));
  if (!s->emitter) return absl::UnavailableError("no x86 MCCodeEmitter");
  for (const FormInfo& f : Forms()) {
    if (f.layout != Layout::kRel32 && f.layout != Layout::kRel32Cond) continue;
    const int conds = f.layout == Layout::kRel32Cond ? 16 : 1;
    for (int cc = 0; cc < conds; ++cc) {
      llvm::MCInst inst;
      inst.setOpcode(t.Opcode(f.form));
      inst.addOperand(llvm::MCOperand::createImm(0));
      if (f.layout == Layout::kRel32Cond) inst.addOperand(llvm::MCOperand::createImm(cc));
      llvm::SmallVector<char, 16> bytes;
      llvm::SmallVector<llvm::MCFixup, 1> fixups;
      EncodeMc(t, *s, inst, bytes, fixups);
      // Expected: one fixup, the last four bytes.
      if (fixups.size() != 1 || fixups[0].getOffset() + 4 != bytes.size() || bytes.size() > 8) {
        return absl::InternalError(
            absl::StrCat(f.llvm_name, " does not encode as a prefix and a rel32 field"));
      }
      Rel32Template& tmpl = s->rel32[static_cast<int>(f.form)][cc];
      tmpl.size = static_cast<uint8_t>(bytes.size() - 4);
      for (int i = 0; i < tmpl.size; ++i) tmpl.bytes[i] = static_cast<uint8_t>(bytes[i]);
      tmpl.valid = true;
    }
  }
  return s;
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

absl::Status McEncoder::Encode(Form form, const FormOperands& ops, codegen::CodeBuffer& out) {
  using llvm::MCOperand;
  const FormInfo& info = GetForm(form);
  const McTarget& t = *impl_->target;
  EmitterState& state = *impl_->state;
  const bool pc_relative = info.layout == Layout::kRel32 || info.layout == Layout::kRel32Cond;
  if (pc_relative) {
    // The displacement we mean is `imm` relative to the end of the
    // instruction, which is what the rel32 field holds.
    if (!FitsInt32(ops.imm)) return absl::InvalidArgumentError("pc-relative displacement out of range");
    const int cc = info.layout == Layout::kRel32Cond ? static_cast<int>(ops.cc) : 0;
    if (cc < 0 || cc >= 16) return absl::InvalidArgumentError("bad condition code");
    const Rel32Template& tmpl = state.rel32[static_cast<int>(form)][cc];
    if (!tmpl.valid) {
      return absl::InternalError(absl::StrCat(info.llvm_name, " has no rel32 template"));
    }
    for (int i = 0; i < tmpl.size; ++i) out.Emit8(tmpl.bytes[i]);
    const uint32_t disp = static_cast<uint32_t>(static_cast<int32_t>(ops.imm));
    for (int i = 0; i < 4; ++i) out.Emit8(static_cast<uint8_t>(disp >> (8 * i)));
    return absl::OkStatus();
  }
  llvm::MCInst inst;
  inst.setOpcode(t.Opcode(form));
  auto reg = [&](Gpr r, Width w = Width::k64) { inst.addOperand(MCOperand::createReg(t.Reg(r, w))); };
  auto imm = [&](int64_t v) { inst.addOperand(MCOperand::createImm(v)); };
  auto mem = [&]() {
    reg(ops.base);
    imm(1);                                       // scale
    inst.addOperand(MCOperand::createReg(0));     // no index
    imm(ops.disp);
    inst.addOperand(MCOperand::createReg(0));     // no segment
  };
  auto fs_mem = [&]() {  // %fs:disp
    inst.addOperand(MCOperand::createReg(0));  // no base: absolute
    imm(1);
    inst.addOperand(MCOperand::createReg(0));  // no index
    imm(ops.disp);
    inst.addOperand(MCOperand::createReg(t.fs));
  };
  const bool needs_dst = info.layout != Layout::kNone && info.layout != Layout::kI &&
                         info.layout != Layout::kMR && info.layout != Layout::kFsR &&
                         info.layout != Layout::kMI;
  if (needs_dst && ops.dst == kNoGpr) {
    return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, " needs a destination"));
  }
  // Every operand is checked before any reaches LLVM, which would encode a
  // missing register, a truncated immediate or a bad condition code
  // without complaint (found by encoder_fuzzer).
  if ((info.layout == Layout::kRR || info.layout == Layout::kRRTied ||
       info.layout == Layout::kRRI || info.layout == Layout::kR32R8 ||
       info.layout == Layout::kMR || info.layout == Layout::kRRTiedCond ||
       info.layout == Layout::kFsR) &&
      ops.src == kNoGpr) {
    return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, " needs a source"));
  }
  if ((info.layout == Layout::kRM || info.layout == Layout::kMR || info.layout == Layout::kMI) &&
      ops.base == kNoGpr) {
    return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, " needs a base"));
  }
  if ((info.layout == Layout::kR8Cond || info.layout == Layout::kRRTiedCond) &&
      static_cast<int>(ops.cc) >= 16) {
    return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, ": bad condition code"));
  }
  if (info.layout == Layout::kRI || info.layout == Layout::kRITied ||
      info.layout == Layout::kRRI || info.layout == Layout::kI || info.layout == Layout::kMI) {
    const ImmediateRange range = GetImmediateRange(form);
    if (ops.imm < range.min || ops.imm > range.max) {
      return absl::InvalidArgumentError(absl::StrCat(info.llvm_name, ": immediate ", ops.imm,
                                                     " out of range [", range.min, ", ",
                                                     range.max, "]"));
    }
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
    case Layout::kRel32:
    case Layout::kRel32Cond:
      break;  // handled above
    case Layout::kI: imm(ops.imm); break;
    case Layout::kRFs:
      reg(ops.dst);
      fs_mem();
      break;
    case Layout::kFsR: fs_mem(); reg(ops.src); break;
    case Layout::kMI: mem(); imm(ops.imm); break;
  }
  llvm::SmallVector<char, 16> bytes;
  llvm::SmallVector<llvm::MCFixup, 1> fixups;
  EncodeMc(t, state, inst, bytes, fixups);
  // Only pc-relative forms produce fixups, and they never get here.
  if (!fixups.empty()) {
    return absl::InternalError(absl::StrCat(info.llvm_name, " produced an unexpected MC fixup"));
  }
  for (char c : bytes) out.Emit8(static_cast<uint8_t>(c));
  return absl::OkStatus();
}

}  // namespace morel::x86_64
