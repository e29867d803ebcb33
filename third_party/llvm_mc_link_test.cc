// Links LLVM 14 through @llvm//:mc and finds both backends' MC layers.
#include <string>

#include "gtest/gtest.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

namespace {

TEST(LlvmMcTest, RegistersX86AndAArch64) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  for (const char* triple : {"x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"}) {
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
    ASSERT_NE(target, nullptr) << triple << ": " << error;
    EXPECT_TRUE(target->hasMCAsmBackend()) << triple;
  }
}

}  // namespace
