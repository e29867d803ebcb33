#include "backend_x86_64/x86_64_backend.h"

#include "backend_x86_64/abi.h"
#include "backend_x86_64/deopt_exits.h"
#include "backend_x86_64/disasm.h"
#include "backend_x86_64/emit.h"
#include "backend_x86_64/function_emitter.h"
#include "backend_x86_64/isa.h"
#include "backend_x86_64/runtime_stubs.h"
#include "backend_x86_64/target_lowering.h"
#include "engine/codegen/target_backend.h"

namespace morel::x86_64 {
namespace {

// The parts codegen::TargetBackend assembles.
struct X86_64 {
  // Length from the array: GCC does not fold string_view(const char*) in a
  // constant expression under -fsanitize=undefined (its null check).
  static constexpr absl::string_view kName{kBackendName, sizeof(kBackendName) - 1};
  using Encoder = McEncoder;
  using Disassembler = McDisassembler;

  static const codegen::RegisterInfo& Registers() { return SysVRegisterInfo(); }
  static const codegen::TargetLowering* Lowering() { return &X86_64TargetLowering(); }
  static bool IsLegalImmediate(codegen::MOp op, int64_t imm) {
    switch (op) {
      case codegen::MOp::kMovImm: return true;
      case codegen::MOp::kShl: case codegen::MOp::kSar: case codegen::MOp::kShr:
        return imm >= 0 && imm < 64;
      default: return FitsInt32(imm);
    }
  }
  static absl::StatusOr<EmittedFunction> Emit(const codegen::MachineFunction& mf,
                                              const codegen::CompileOptions& options,
                                              McEncoder& encoder) {
    return EmitFunction(mf, options, encoder);
  }
  static absl::StatusOr<codegen::CodeBuffer> BuildDeoptEntry(McEncoder& encoder,
                                                             codegen::DeoptHandler handler) {
    return x86_64::BuildDeoptEntry(encoder, handler);
  }
  static const codegen::RuntimeSupport* Support() { return X86_64RuntimeSupport(); }
  static const void* GuestCallEntry(codegen::GuestCallTarget target) {
    return x86_64::GuestCallEntry(target);
  }
};

}  // namespace

std::unique_ptr<codegen::Backend> CreateX86_64Backend() {
  return std::make_unique<codegen::TargetBackend<X86_64>>();
}

}  // namespace morel::x86_64
