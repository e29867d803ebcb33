#include "engine/runtime/testing/tier_test.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/runtime/native_tier.h"

namespace morel::runtime::testing {

void TierTest::SetUp() {
  if (GetParam() != config::EngineConfig::ir_interpreter &&
      !NativeTier::Get(config::EngineConfig::Backend_Name(GetParam())).ok()) {
    GTEST_SKIP() << "no native backend for this host";
  }
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = absl::StrCat(test->test_suite_name(), "_", test->name());
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  log_path_ = absl::StrCat(::testing::TempDir(), "/", name, ".log");
  std::remove(log_path_.c_str());
  config::EngineConfig config;
  config.set_backend(GetParam());
  config.set_compile_immediately(true);
  config.set_background_compilation(false);
  config.set_trace_compilation(true);
  Configure(config);
  config.set_log(log_path_);
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(config);
  ASSERT_TRUE(engine.ok()) << engine.status();
  engine_ = *std::move(engine);
}

std::string TierTest::Log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Column(const char* event, const CallTarget& target) {
  return absl::StrFormat("%s engine=1  id=%-5d ", event, target.id());
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace morel::runtime::testing
