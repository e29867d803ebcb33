// Dropped compiled code is freed while the engine runs (Engine::
// ReclaimDroppedCode): a program that redefines a function many times keeps
// a bounded number of code objects, and code that still has an activation
// on the stack -- a function that redefined itself and finishes in the
// interpreter beneath its compiled frame -- survives the reclamations that
// run meanwhile.

#include <string>

#include "engine/config/engine_config.pb.h"
#include "gtest/gtest.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/testing/traced_program_test.h"

namespace morel::sl {
namespace {

constexpr char kProgram[] = R"(
function f(x) { return x + 1; }
function redefine(i) { defineFunction("function f(x) { return x + 1; }"); return f(i); }
function churn(n) { i = 0; s = 0; while (i < n) { s = s + redefine(i); i = i + 1; } return s; }
function selfish(source, n) {
  defineFunction(source);
  return churn(n) + 1;
}
)";

class CodeReclamationTest : public testing::TracedProgramTest {
 protected:
  void Start() {
    config::EngineConfig config;
    config.set_compile_immediately(true);
    config.set_background_compilation(false);
    TracedProgramTest::Start(config, kProgram, "Reclaim.sl");
  }
};

TEST_F(CodeReclamationTest, RedefinitionsKeepABoundedNumberOfCodeObjects) {
  Start();
  EXPECT_EQ(Call("churn", {Value::Long(300)}), "45150");
  const int compiled = engine().compilation_statistics().successful;
  EXPECT_GE(compiled, 300);  // every new f was compiled at its first call
  // At most a reclamation interval of dropped code, plus what is installed.
  EXPECT_LT(engine().live_code_objects(), 150u) << compiled << " compilations";
  // Whatever is dropped now goes with an explicit reclamation.
  engine().ReclaimDroppedCode();
  EXPECT_LT(engine().live_code_objects(), 20u);
}

TEST_F(CodeReclamationTest, CodeWithAnActivationOnTheStackIsKept) {
  Start();
  // selfish compiles with defineFunction specialized (warm-up redefines a
  // harmless function), then redefines itself: its compiled activation is
  // invalidated after that call and finishes in the interpreter beneath its
  // compiled frame, while churn's redefinitions trigger reclamations.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Call("selfish", {StringValue("function dummy() { return 0; }"),
                               Value::Long(2)}),
              "4");
  }
  EXPECT_EQ(Call("selfish", {StringValue("function selfish(source, n) { return 0 - 1; }"),
                             Value::Long(200)}),
            "20101");
  EXPECT_GE(CountLogLines("opt done"), 200);
  EXPECT_EQ(Call("selfish", {StringValue(""), Value::Long(0)}), "-1");
  EXPECT_LT(engine().live_code_objects(), 150u);
}

}  // namespace
}  // namespace morel::sl
