#ifndef MOREL_ENGINE_CODEGEN_TARGET_BACKEND_H_
#define MOREL_ENGINE_CODEGEN_TARGET_BACKEND_H_

// A Backend assembled from a target's parts. backend_x86_64 and
// backend_aarch64 provide the same parts under the same names, so the code
// that turns them into a Backend -- allocate, emit, install; build and
// install the deopt entry; disassemble -- is written once, here:
//
//   struct Target {
//     static constexpr absl::string_view kName;        // "x86_64"
//     static const RegisterInfo& Registers();
//     static const TargetLowering* Lowering();          // or nullptr
//     static bool IsLegalImmediate(MOp op, int64_t imm);
//     using Encoder = ...;        // static StatusOr<unique_ptr<Encoder>> Create()
//     using Disassembler = ...;   // static StatusOr<unique_ptr<...>> Create();
//                                 // StatusOr<string> Listing(code, address) const
//     // StatusOr<{CodeBuffer code; CodeMetadata metadata;}>
//     static auto Emit(const MachineFunction&, const CompileOptions&, Encoder&);
//     static StatusOr<CodeBuffer> BuildDeoptEntry(Encoder&, DeoptHandler);
//     static const RuntimeSupport* Support();           // or nullptr
//     static const void* GuestCallEntry(GuestCallTarget);  // or nullptr
//   };
//
// Thread-safe: Compile creates its encoder state per call; the
// disassembler is made once and used under a lock.

#include <cstdint>
#include <memory>
#include <mutex>  // NOLINT: visible to --config=tsan (the system Abseil is not instrumented)
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/code_cache.h"
#include "engine/codegen/register_allocator.h"

namespace morel::codegen {

template <typename Target>
class TargetBackend final : public Backend {
 public:
  absl::string_view name() const override { return Target::kName; }
  const RegisterInfo& register_info() const override { return Target::Registers(); }
  const TargetLowering* target_lowering() const override { return Target::Lowering(); }
  bool IsLegalImmediate(MOp op, int64_t imm) const override {
    return Target::IsLegalImmediate(op, imm);
  }

  absl::StatusOr<CompiledCode> Compile(MachineFunction& mf, const CompileOptions& options,
                                       CodeCache& cache) override {
    if (!mf.allocated()) {
      absl::StatusOr<AllocationResult> r =
          AllocateRegisters(mf, Target::Registers(), options.allocation);
      if (!r.ok()) return r.status();
    }
    auto encoder = Target::Encoder::Create();
    if (!encoder.ok()) return encoder.status();
    auto emitted = Target::Emit(mf, options, **encoder);
    if (!emitted.ok()) return emitted.status();
    absl::StatusOr<CodeRegion> region = cache.Install(emitted->code);
    if (!region.ok()) return region.status();
    return CompiledCode{*region, std::move(emitted->metadata)};
  }

  absl::StatusOr<const void*> CreateDeoptEntry(DeoptHandler handler, CodeCache& cache) override {
    auto encoder = Target::Encoder::Create();
    if (!encoder.ok()) return encoder.status();
    absl::StatusOr<CodeBuffer> code = Target::BuildDeoptEntry(**encoder, handler);
    if (!code.ok()) return code.status();
    absl::StatusOr<CodeRegion> region = cache.Install(*code);
    if (!region.ok()) return region.status();
    return static_cast<const void*>(region->start);
  }

  const RuntimeSupport* runtime_support() const override { return Target::Support(); }

  absl::StatusOr<const void*> CreateGuestCallEntry(GuestCallTarget target, CodeCache&) override {
    return Target::GuestCallEntry(target);
  }

  absl::StatusOr<std::string> Disassemble(absl::Span<const uint8_t> code,
                                          uint64_t address) const override {
    std::lock_guard<std::mutex> lock(mu_);
    if (disassembler_ == nullptr) {
      auto d = Target::Disassembler::Create();
      if (!d.ok()) return d.status();
      disassembler_ = std::move(*d);
    }
    return disassembler_->Listing(code, address);
  }

 private:
  mutable std::mutex mu_;
  mutable std::unique_ptr<typename Target::Disassembler> disassembler_;  // Guarded by mu_.
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_TARGET_BACKEND_H_
