#include "engine/codegen/backend_registry.h"

#include <string>

#include "gtest/gtest.h"

namespace morel::codegen {
namespace {

// Set by main() from argv[1]: the test plugin built by Bazel.
std::string* plugin_path = nullptr;

class FakeBackend : public Backend {
 public:
  absl::string_view name() const override { return "fake"; }
  const RegisterInfo& register_info() const override { return ri_; }
  bool IsLegalImmediate(MOp, int64_t) const override { return true; }
  absl::StatusOr<CompiledCode> Compile(MachineFunction&, const CompileOptions&,
                                       CodeCache&) override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<const void*> CreateDeoptEntry(DeoptHandler, CodeCache&) override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<std::string> Disassemble(absl::Span<const uint8_t>, uint64_t) const override {
    return std::string();
  }

 private:
  RegisterInfo ri_;
};

TEST(BackendRegistryTest, RegisterAndFind) {
  ASSERT_TRUE(RegisterBackend("fake", [] { return std::make_unique<FakeBackend>(); }).ok());
  auto b = FindBackend("fake");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(std::string((*b)->name()), "fake");
  auto again = FindBackend("fake");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *b);  // one instance
  EXPECT_EQ(RegisterBackend("fake", [] { return std::make_unique<FakeBackend>(); }).code(),
            absl::StatusCode::kAlreadyExists);
}

TEST(BackendRegistryTest, MissingBackendAsksWhetherSupportWasLinkedIn) {
  ASSERT_TRUE(RegisterBackend("fake2", [] { return std::make_unique<FakeBackend>(); }).ok());
  auto b = FindBackend("sparc");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kNotFound);
  std::string msg(b.status().message());
  EXPECT_NE(msg.find("'sparc'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fake2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("was support for it linked in"), std::string::npos) << msg;
}

TEST(BackendRegistryTest, LoadsAPluginThatRegistersItself) {
  ASSERT_NE(plugin_path, nullptr);
  EXPECT_FALSE(FindBackend("test_plugin").ok());
  absl::Status s = LoadBackendPlugin(*plugin_path);
  ASSERT_TRUE(s.ok()) << s;
  auto b = FindBackend("test_plugin");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(std::string((*b)->name()), "test_plugin");
  EXPECT_EQ((*b)->register_info().target, "test_plugin");
  EXPECT_TRUE((*b)->IsLegalImmediate(MOp::kAdd, 5));
  EXPECT_FALSE((*b)->IsLegalImmediate(MOp::kAdd, 500));
  // Loading it again fails: its name is taken.
  EXPECT_FALSE(LoadBackendPlugin(*plugin_path).ok());
}

TEST(BackendRegistryTest, PluginErrorsAreDescriptive) {
  absl::Status missing = LoadBackendPlugin("/nonexistent/plugin.so");
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(std::string(missing.message()).find("/nonexistent/plugin.so"), std::string::npos);
  // A real shared object without the entry point.
  absl::Status wrong = LoadBackendPlugin("libc.so.6");
  EXPECT_EQ(wrong.code(), absl::StatusCode::kInvalidArgument) << wrong;
  EXPECT_NE(std::string(wrong.message()).find("MorelRegisterBackend"), std::string::npos);
}

TEST(BackendRegistryTest, HostOptionNamesTheMachine) {
  EXPECT_EQ(BackendNameForOption("x86_64"), "x86_64");
  EXPECT_EQ(BackendNameForOption("aarch64"), "aarch64");
  std::string host = BackendNameForOption("host");
  EXPECT_TRUE(host == "x86_64" || host == "aarch64") << host;
}

}  // namespace
}  // namespace morel::codegen

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 1) morel::codegen::plugin_path = new std::string(argv[1]);
  return RUN_ALL_TESTS();
}
