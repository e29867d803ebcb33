#include "backend_x86_64/x86_64_backend.h"

#include <mutex>
#include <utility>

#include "backend_x86_64/abi.h"
#include "backend_x86_64/deopt_exits.h"
#include "backend_x86_64/disasm.h"
#include "backend_x86_64/emit.h"
#include "backend_x86_64/function_emitter.h"
#include "backend_x86_64/isa.h"
#include "backend_x86_64/target_lowering.h"
#include "backend_x86_64/runtime_stubs.h"
#include "engine/codegen/register_allocator.h"

namespace morel::x86_64 {
namespace {

using codegen::CodeCache;
using codegen::CompiledCode;
using codegen::CompileOptions;
using codegen::MachineFunction;
using codegen::MOp;

class X86_64Backend : public codegen::Backend {
 public:
  absl::string_view name() const override { return kBackendName; }
  const codegen::RegisterInfo& register_info() const override { return SysVRegisterInfo(); }
  const codegen::TargetLowering* target_lowering() const override {
    return &X86_64TargetLowering();
  }

  bool IsLegalImmediate(MOp op, int64_t imm) const override {
    switch (op) {
      case MOp::kMovImm: return true;
      case MOp::kShl: case MOp::kSar: case MOp::kShr: return imm >= 0 && imm < 64;
      default: return FitsInt32(imm);
    }
  }

  absl::StatusOr<CompiledCode> Compile(MachineFunction& mf, const CompileOptions& options,
                                       CodeCache& cache) override {
    if (!mf.allocated()) {
      absl::StatusOr<codegen::AllocationResult> r =
          codegen::AllocateRegisters(mf, SysVRegisterInfo(), options.allocation);
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
    return X86_64RuntimeSupport();
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

std::unique_ptr<codegen::Backend> CreateX86_64Backend() { return std::make_unique<X86_64Backend>(); }

}  // namespace morel::x86_64
