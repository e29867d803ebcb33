#include <string>

#include "engine/codegen/backend_registry.h"
#include "gtest/gtest.h"

namespace morel::aarch64 {
namespace {

TEST(RegistrationTest, LinkingTheRegistrationTargetRegistersAarch64) {
  auto b = codegen::FindBackend("aarch64");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(std::string((*b)->name()), "aarch64");
  EXPECT_EQ((*b)->register_info().argument_regs.size(), 8u);
  EXPECT_NE((*b)->target_lowering(), nullptr);
  auto missing = codegen::FindBackend("x86_64");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(std::string(missing.status().message()).find("linked backends: aarch64"),
            std::string::npos)
      << missing.status();
}

}  // namespace
}  // namespace morel::aarch64
