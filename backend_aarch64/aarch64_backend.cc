#include "backend_aarch64/aarch64_backend.h"

#include "backend_aarch64/abi.h"
#include "backend_aarch64/deopt_exits.h"
#include "backend_aarch64/disasm.h"
#include "backend_aarch64/emit.h"
#include "backend_aarch64/function_emitter.h"
#include "backend_aarch64/isa.h"
#include "backend_aarch64/runtime_stubs.h"
#include "backend_aarch64/target_lowering.h"
#include "engine/codegen/target_backend.h"

namespace morel::aarch64 {
namespace {

using codegen::MOp;

// The parts codegen::TargetBackend assembles.
struct Aarch64 {
  // Length from the array: GCC does not fold string_view(const char*) in a
  // constant expression under -fsanitize=undefined (its null check).
  static constexpr absl::string_view kName{kBackendName, sizeof(kBackendName) - 1};
  using Encoder = McEncoder;
  using Disassembler = McDisassembler;

  static const codegen::RegisterInfo& Registers() { return Aapcs64RegisterInfo(); }
  static const codegen::TargetLowering* Lowering() { return &Aarch64TargetLowering(); }
  static bool IsLegalImmediate(MOp op, int64_t imm) {
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
  static absl::StatusOr<EmittedFunction> Emit(const codegen::MachineFunction& mf,
                                              const codegen::CompileOptions& options,
                                              McEncoder& encoder) {
    return EmitFunction(mf, options, encoder);
  }
  static absl::StatusOr<codegen::CodeBuffer> BuildDeoptEntry(McEncoder& encoder,
                                                             codegen::DeoptHandler handler) {
    return aarch64::BuildDeoptEntry(encoder, handler);
  }
  static const codegen::RuntimeSupport* Support() { return Aarch64RuntimeSupport(); }
  static const void* GuestCallEntry(codegen::GuestCallTarget target) {
    return aarch64::GuestCallEntry(target);
  }
};

}  // namespace

std::unique_ptr<codegen::Backend> CreateAarch64Backend() {
  return std::make_unique<codegen::TargetBackend<Aarch64>>();
}

}  // namespace morel::aarch64
