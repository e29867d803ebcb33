#include "backend_aarch64/aarch64_backend.h"

#include <mutex>  // NOLINT: visible to --config=tsan
#include <utility>

#include "backend_aarch64/abi.h"
#include "backend_aarch64/deopt_exits.h"
#include "backend_aarch64/disasm.h"
#include "backend_aarch64/emit.h"
#include "backend_aarch64/function_emitter.h"
#include "backend_aarch64/isa.h"
#include "backend_aarch64/runtime_stubs.h"
#include "backend_aarch64/target_lowering.h"
#include "engine/codegen/register_allocator.h"

namespace morel::aarch64 {
namespace {

using codegen::CodeCache;
using codegen::CompiledCode;
using codegen::CompileOptions;
using codegen::MachineFunction;
using codegen::MOp;

class Aarch64Backend : public codegen::Backend {
 public:
  absl::string_view name() const override { return kBackendName; }
  const codegen::RegisterInfo& register_info() const override { return Aapcs64RegisterInfo(); }
  const codegen::TargetLowering* target_lowering() const override {
    return &Aarch64TargetLowering();
  }

  bool IsLegalImmediate(MOp op, int64_t imm) const override {
    switch (op) {
      case MOp::kMovImm: return true;
      case MOp::kShl: case MOp::kSar: case MOp::kShr: return imm >= 0 && imm < 64;
      case MOp::kAnd: case MOp::kOr: case MOp::kXor:
        return EncodeLogicalImmediate(static_cast<uint64_t>(imm)).has_value();
      // add/sub immediates of either sign (add becomes sub and back); the
      // compares are subs/adds of xzr.
      case MOp::kAdd: case MOp::kSub: case MOp::kAddOvf: case MOp::kSubOvf:
      case MOp::kCmpSet: case MOp::kBranch: case MOp::kDeoptIf:
        return IsAddSubImmediate(imm) || (imm != INT64_MIN && IsAddSubImmediate(-imm));
      // mul, div, rem: register operands only.
      default: return false;
    }
  }

  absl::StatusOr<CompiledCode> Compile(MachineFunction& mf, const CompileOptions& options,
                                       CodeCache& cache) override {
    if (!mf.allocated()) {
      absl::StatusOr<codegen::AllocationResult> r =
          codegen::AllocateRegisters(mf, Aapcs64RegisterInfo(), options.allocation);
      if (!r.ok()) return r.status();
    }
    absl::StatusOr<std::unique_ptr<McEncoder>> encoder = McEncoder::Create();
    if (!encoder.ok()) return encoder.status();
    absl::StatusOr<EmittedFunction> emitted = EmitFunction(mf, options, **encoder);
    if (!emitted.ok()) return emitted.status();
    absl::StatusOr<codegen::CodeRegion> region = cache.Install(emitted->code);
    if (!region.ok()) return region.status();
    return CompiledCode{*region, std::move(emitted->metadata)};
  }

  absl::StatusOr<const void*> CreateDeoptEntry(codegen::DeoptHandler handler,
                                               CodeCache& cache) override {
    absl::StatusOr<std::unique_ptr<McEncoder>> encoder = McEncoder::Create();
    if (!encoder.ok()) return encoder.status();
    absl::StatusOr<codegen::CodeBuffer> code = BuildDeoptEntry(**encoder, handler);
    if (!code.ok()) return code.status();
    absl::StatusOr<codegen::CodeRegion> region = cache.Install(*code);
    if (!region.ok()) return region.status();
    return static_cast<const void*>(region->start);
  }

  const codegen::RuntimeSupport* runtime_support() const override {
    return Aarch64RuntimeSupport();
  }

  absl::StatusOr<const void*> CreateGuestCallEntry(codegen::GuestCallTarget target,
                                                   CodeCache&) override {
    return GuestCallEntry(target);
  }

  absl::StatusOr<std::string> Disassemble(absl::Span<const uint8_t> code,
                                          uint64_t address) const override {
    std::lock_guard<std::mutex> lock(mu_);
    if (disasm_ == nullptr) {
      absl::StatusOr<std::unique_ptr<McDisassembler>> d = McDisassembler::Create();
      if (!d.ok()) return d.status();
      disasm_ = std::move(*d);
    }
    return disasm_->Listing(code, address);
  }

 private:
  mutable std::mutex mu_;
  mutable std::unique_ptr<McDisassembler> disasm_;  // Guarded by mu_.
};

}  // namespace

std::unique_ptr<codegen::Backend> CreateAarch64Backend() {
  return std::make_unique<Aarch64Backend>();
}

}  // namespace morel::aarch64
