#ifndef MOREL_ENGINE_RUNTIME_TESTING_TIER_TEST_H_
#define MOREL_ENGINE_RUNTIME_TESTING_TIER_TEST_H_

// TierTest: a fixture run once per compilation tier (the IR interpreter and
// x86_64; skipped where the host has no native backend), with an engine
// that compiles every target before its first call, in the foreground, and
// traces compilations into a log file of the test's own. For engine tests
// whose roots are written directly against the partial evaluator.
//
//   class MyTest : public TierTest {
//     void Configure(config::EngineConfig& config) override { ... }
//   };
//   TEST_P(MyTest, ...) { CallTarget* t = engine_->CreateCallTarget(...); ... Log() ... }
//   MOREL_INSTANTIATE_TIER_TESTS(MyTest);

#include <memory>
#include <string>

#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "nodes/call_target.h"

namespace morel::runtime::testing {

class TierTest : public ::testing::TestWithParam<config::EngineConfig::Backend> {
 protected:
  void SetUp() override;
  // Adjusts the engine's options before it is created (default: none).
  virtual void Configure(config::EngineConfig&) {}
  // The trace so far.
  std::string Log() const;

  std::string log_path_;
  std::unique_ptr<Engine> engine_;
};

// The start of a trace line for `target` (Engine::TargetColumn's layout).
std::string Column(const char* event, const CallTarget& target);
// How often `what` occurs in `text`.
int Count(const std::string& text, const std::string& what);

}  // namespace morel::runtime::testing

#define MOREL_INSTANTIATE_TIER_TESTS(fixture)                                                 \
  INSTANTIATE_TEST_SUITE_P(Tiers, fixture,                                                    \
                           ::testing::Values(::morel::config::EngineConfig::ir_interpreter,   \
                                             ::morel::config::EngineConfig::x86_64),          \
                           [](const auto& info) {                                             \
                             return ::morel::config::EngineConfig::Backend_Name(info.param);  \
                           })

#endif  // MOREL_ENGINE_RUNTIME_TESTING_TIER_TEST_H_
