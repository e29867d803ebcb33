// Calls of builtins in the interpreter (languages/sl/nodes/invoke_node.h):
// a builtin that needs no frame of its own (DirectlyCallableBuiltin) runs
// without its call target, as compiled code runs it; one that inspects its
// caller's frame or calls guest functions is still called through its call
// target. In the AST and the bytecode interpreter, compilation off.

#include "absl/status/statusor.h"
#include "engine/config/engine_config.pb.h"
#include "gtest/gtest.h"
#include "languages/sl/sl_context.h"
#include "languages/sl/testing/traced_program_test.h"
#include "nodes/call_target.h"

namespace morel::sl {
namespace {

constexpr char kProgram[] = R"(
function countNulls(n) {
  count = 0;
  i = 0;
  while (i < n) {
    o = new();
    if (isNull(o) == (1 == 2)) { count = count + 1; }
    i = i + 1;
  }
  return count;
}

function depth() {
  return stacktrace();
}

function main() {
  return countNulls(50);
}
)";

// The program in a context of an engine without compilation, run by the
// AST interpreter or (the parameter) the bytecode interpreter.
class BuiltinCallsTest : public testing::TracedProgramTest,
                         public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    config::EngineConfig config;
    config.set_compilation(false);
    Start(config, kProgram, "builtins.sl", /*use_bytecode=*/GetParam());
  }
  SLFunction* Function(absl::string_view name) { return context().functions().Find(name); }
};

TEST_P(BuiltinCallsTest, FramelessBuiltinsRunWithoutTheirCallTargets) {
  EXPECT_EQ(context().Call(Function("main"), {}), Value::Long(50));
  // 50 calls each, none through the call target.
  EXPECT_EQ(TargetOf("new").call_count(), 0);
  EXPECT_EQ(TargetOf("isNull").call_count(), 0);
  // The guest function is called through its own.
  EXPECT_EQ(TargetOf("countNulls").call_count(), 1);
}

TEST_P(BuiltinCallsTest, BuiltinThatInspectsItsCallerRunsThroughItsCallTarget) {
  for (int i = 0; i < 3; ++i) Call("depth", {});
  EXPECT_EQ(TargetOf("stacktrace").call_count(), 3);
}

TEST_P(BuiltinCallsTest, RedefinedBuiltinRunsTheNewFunction) {
  EXPECT_EQ(context().Call(Function("main"), {}), Value::Long(50));
  // The call sites cached the builtin; a redefinition fails their guard.
  absl::StatusOr<SLFunction*> redefined =
      context().Load("function isNull(x) { return 1 == 1; }", "redefine.sl");
  ASSERT_TRUE(redefined.ok()) << redefined.status();
  EXPECT_EQ(context().Call(Function("main"), {}), Value::Long(0));
  EXPECT_EQ(TargetOf("isNull").call_count(), 50);
}

INSTANTIATE_TEST_SUITE_P(Interpreters, BuiltinCallsTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Bytecode" : "Ast";
                         });

}  // namespace
}  // namespace morel::sl
