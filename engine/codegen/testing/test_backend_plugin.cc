// A minimal backend packaged as a shared object, to test plugin loading
// (backend_registry_test). It exports MorelRegisterBackend (see
// backend_plugin_api.h) and registers "test_plugin".

#include <memory>
#include <string>

#include "engine/codegen/backend.h"
#include "engine/codegen/backend_plugin_api.h"

namespace morel::codegen {
namespace {

class TestPluginBackend : public Backend {
 public:
  TestPluginBackend() { ri_.target = "test_plugin"; }
  absl::string_view name() const override { return "test_plugin"; }
  const RegisterInfo& register_info() const override { return ri_; }
  bool IsLegalImmediate(MOp, int64_t imm) const override { return imm >= -128 && imm < 128; }
  absl::StatusOr<CompiledCode> Compile(MachineFunction&, const CompileOptions&,
                                       CodeCache&) override {
    return absl::UnimplementedError("test_plugin compiles nothing");
  }
  absl::StatusOr<const void*> CreateDeoptEntry(DeoptHandler, CodeCache&) override {
    return absl::UnimplementedError("test_plugin");
  }
  absl::StatusOr<std::string> Disassemble(absl::Span<const uint8_t>, uint64_t) const override {
    return std::string();
  }

 private:
  RegisterInfo ri_;
};

Backend* Create() { return new TestPluginBackend(); }

}  // namespace
}  // namespace morel::codegen

extern "C" __attribute__((visibility("default"))) int MorelRegisterBackend(
    const MorelBackendHost* host) {
  if (host->abi_version != kMorelBackendPluginAbiVersion) return 1;
  return host->register_backend(host->context, "test_plugin", &morel::codegen::Create);
}
