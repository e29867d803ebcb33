#include <string>

#include "engine/codegen/backend_registry.h"
#include "gtest/gtest.h"

namespace morel::x86_64 {
namespace {

TEST(RegistrationTest, LinkingTheRegistrationTargetRegistersX86_64) {
  auto b = codegen::FindBackend("x86_64");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(std::string((*b)->name()), "x86_64");
  EXPECT_EQ((*b)->register_info().argument_regs.size(), 6u);
  auto missing = codegen::FindBackend("aarch64");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(std::string(missing.status().message()).find("linked backends: x86_64"),
            std::string::npos)
      << missing.status();
}

}  // namespace
}  // namespace morel::x86_64
