// Loads the AArch64 backend from its shared object (as --engine.BackendPlugin
// does), compiles a function with it and disassembles it (and runs it on an
// AArch64 host). This binary does not link the backend itself.

#include <cstdint>
#include <string>

#include "engine/codegen/backend_registry.h"
#include "engine/codegen/machine_function.h"
#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

std::string* plugin_path = nullptr;

TEST(Aarch64PluginTest, LoadsCompilesAndDisassembles) {
  EXPECT_FALSE(FindBackend("aarch64").ok());
  ASSERT_NE(plugin_path, nullptr);
  absl::Status s = LoadBackendPlugin(*plugin_path);
  ASSERT_TRUE(s.ok()) << s;
  auto backend = FindBackend("aarch64");
  ASSERT_TRUE(backend.ok()) << backend.status();
  const RegisterInfo& ri = (*backend)->register_info();
  MachineFunction mf("plugin_sub");
  uint32_t b = mf.NewBlock();
  uint32_t x = mf.NewVReg(), y = mf.NewVReg();
  mf.Append(b, mi::Mov(MachineOperand::VReg(x), MachineOperand::Phys(ri.argument_regs[0])));
  mf.Append(b, mi::Mov(MachineOperand::VReg(y), MachineOperand::Phys(ri.argument_regs[1])));
  mf.Append(b, mi::Binary(MOp::kSub, MachineOperand::VReg(x), MachineOperand::VReg(x),
                          MachineOperand::VReg(y)));
  mf.Append(b, mi::Mov(MachineOperand::Phys(ri.return_regs[0]), MachineOperand::VReg(x)));
  mf.Append(b, mi::Ret({MachineOperand::Phys(ri.return_regs[0])}));
  mf.ComputeSuccessors();
  CodeCache cache;
  auto code = (*backend)->Compile(mf, {}, cache);
  ASSERT_TRUE(code.ok()) << code.status();
#if defined(__aarch64__)
  auto fn = reinterpret_cast<int64_t (*)(int64_t, int64_t)>(const_cast<void*>(code->entry()));
  EXPECT_EQ(fn(50, 8), 42);
#endif
  auto text = (*backend)->Disassemble(absl::MakeConstSpan(code->region.start, code->region.size), 0);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE(text->find("sub x0, x0, x1"), std::string::npos) << *text;
}

}  // namespace
}  // namespace morel::codegen

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 1) morel::codegen::plugin_path = new std::string(argv[1]);
  return RUN_ALL_TESTS();
}
