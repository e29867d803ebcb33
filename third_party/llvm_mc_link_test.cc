// Links LLVM 14's MC layer through @llvm//:mc and finds both backends'
// targets.
#include <string>

#include "gtest/gtest.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

namespace {

TEST(LlvmMcTest, RegistersX86AndAArch64) {
  // The two targets the backends use: @llvm//:mc links only their static
  // MC libraries, not every target InitializeAllTargetMCs() names.
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86TargetMC();
  LLVMInitializeAArch64TargetInfo();
  LLVMInitializeAArch64TargetMC();
  for (const char* triple : {"x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"}) {
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
    ASSERT_NE(target, nullptr) << triple << ": " << error;
    EXPECT_TRUE(target->hasMCAsmBackend()) << triple;
  }
}

}  // namespace
