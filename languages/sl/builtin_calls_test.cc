// Calls of builtins in the interpreter (languages/sl/nodes/invoke_node.h):
// a builtin that needs no frame of its own (DirectlyCallableBuiltin) runs
// without its call target, as compiled code runs it; one that inspects its
// caller's frame or calls guest functions is still called through its call
// target. In the AST and the bytecode interpreter, compilation off.

#include <functional>
#include <memory>

#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "languages/sl/sl_context.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"

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

void OnGuestThread(const std::function<void()>& body) {
  heap::RunOnLargeStack(
      size_t{64} << 20, [](void* f) { (*static_cast<const std::function<void()>*>(f))(); },
      const_cast<std::function<void()>*>(&body));
}

class BuiltinCallsTest : public testing::TestWithParam<bool> {
 protected:
  // Runs `body` with a context of the program, in the interpreter (the
  // bytecode interpreter when the parameter is true).
  void WithContext(const std::function<void(SLContext&, SLFunction*)>& body) {
    config::EngineConfig config;
    config.set_compilation(false);
    absl::StatusOr<std::unique_ptr<runtime::Engine>> engine = runtime::Engine::Create(config);
    ASSERT_TRUE(engine.ok()) << engine.status();
    OnGuestThread([&] {
      SLContext context(engine->get(), stdout, stdin);
      context.set_use_bytecode(GetParam());
      absl::StatusOr<SLFunction*> main = context.Load(kProgram, "builtins.sl");
      ASSERT_TRUE(main.ok()) << main.status();
      body(context, *main);
    });
  }
};

TEST_P(BuiltinCallsTest, FramelessBuiltinsRunWithoutTheirCallTargets) {
  WithContext([](SLContext& context, SLFunction* main) {
    EXPECT_EQ(context.Call(main, {}), Value::Long(50));
    // 50 calls each, none through the call target.
    EXPECT_EQ(context.functions().Find("new")->call_target()->call_count(), 0);
    EXPECT_EQ(context.functions().Find("isNull")->call_target()->call_count(), 0);
    // The guest function is called through its own.
    EXPECT_EQ(context.functions().Find("countNulls")->call_target()->call_count(), 1);
  });
}

TEST_P(BuiltinCallsTest, BuiltinThatInspectsItsCallerRunsThroughItsCallTarget) {
  WithContext([](SLContext& context, SLFunction*) {
    SLFunction* depth = context.functions().Find("depth");
    for (int i = 0; i < 3; ++i) context.Call(depth, {});
    EXPECT_EQ(context.functions().Find("stacktrace")->call_target()->call_count(), 3);
  });
}

TEST_P(BuiltinCallsTest, RedefinedBuiltinRunsTheNewFunction) {
  WithContext([](SLContext& context, SLFunction* main) {
    EXPECT_EQ(context.Call(main, {}), Value::Long(50));
    // The call sites cached the builtin; a redefinition fails their guard.
    absl::StatusOr<SLFunction*> redefined =
        context.Load("function isNull(x) { return 1 == 1; }", "redefine.sl");
    ASSERT_TRUE(redefined.ok()) << redefined.status();
    EXPECT_EQ(context.Call(main, {}), Value::Long(0));
    EXPECT_EQ(context.functions().Find("isNull")->call_target()->call_count(), 50);
  });
}

INSTANTIATE_TEST_SUITE_P(Interpreters, BuiltinCallsTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "Bytecode" : "Ast";
                         });

}  // namespace
}  // namespace morel::sl
