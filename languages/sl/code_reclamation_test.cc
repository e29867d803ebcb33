// Dropped compiled code and retired call targets are freed while the
// engine runs (Engine::ReclaimDroppedCode, Engine::RetireCallTarget): a
// program that redefines a function many times keeps a bounded number of
// code objects and call targets, and what still has an activation on the
// stack -- a function that redefined itself and finishes in the interpreter
// beneath its compiled frame, or in its old tree after a deeper call
// redefined it -- or a call node naming it survives the reclamations that
// run meanwhile (under --config=asan a use after free is an error).

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/config/engine_config.pb.h"
#include "gtest/gtest.h"
#include "languages/sl/nodes/invoke_node.h"
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
function deep(n) {
  x = n * 2;
  r = redefineDeep(n);
  return x + r + helper(n);
}
function redefineDeep(n) {
  defineFunction("function deep(n) { return 0 - 1; }");
  return churn(n);
}
function helper(n) { return n; }
function callsF(x) { return f(x); }
function redefinePair(i) {
  defineFunction("function f(x) { return x + 1; } function g(x) { return f(x); }");
  return g(i);
}
function loopy(n) { i = 0; s = 0; while (i < n) { s = s + i; i = i + 1; } return s; }
function redefineLoopy(n) {
  defineFunction("function loopy(n) { return 0 - 1; }");
  return churn(n);
}
function churnPairs(n) { i = 0; s = 0; while (i < n) { s = s + redefinePair(i); i = i + 1; } return s; }
)";

// Retired call targets a run of churn may leave: at most a reclamation
// interval's worth, and the few that redefine's call site still caches
// (InvokeDirect's limit; its retired entries live with the node).
constexpr size_t kRetiredSlack = 2 * 64 + 8;

config::EngineConfig Interpreter() {
  config::EngineConfig config;
  config.set_compilation(false);
  return config;
}

class CodeReclamationTest : public testing::TracedProgramTest {
 protected:
  void Start() {
    config::EngineConfig config;
    config.set_compile_immediately(true);
    config.set_background_compilation(false);
    Start(config);
  }
  void Start(const config::EngineConfig& config) {
    TracedProgramTest::Start(config, kProgram, "Reclaim.sl");
    targets_at_start_ = engine().live_call_targets();
  }
  void StartCompiledOrNot(bool compiled) {
    if (compiled) {
      Start();
    } else {
      Start(Interpreter());
    }
  }
  // Call targets beyond those of the loaded program and the builtins.
  size_t ExtraTargets() { return engine().live_call_targets() - targets_at_start_; }

  // churn(n) (or `function`, which computes the same) in chunks, with the
  // bound checked after each.
  void ChurnBounded(int chunks, int n, absl::string_view function = "churn") {
    for (int chunk = 0; chunk < chunks; ++chunk) {
      EXPECT_EQ(Call(function, {Value::Long(n)}), std::to_string(n * (n + 1) / 2));
      EXPECT_LT(ExtraTargets(), kRetiredSlack) << "after chunk " << chunk;
    }
  }

  size_t targets_at_start_ = 0;
};

TEST_F(CodeReclamationTest, InterpreterRedefinitionsKeepABoundedNumberOfCallTargets) {
  Start(Interpreter());
  ChurnBounded(5, 400);  // 2,000 redefinitions
  engine().ReclaimRetiredCallTargets();
  EXPECT_LT(ExtraTargets(), 8u);
}

TEST_F(CodeReclamationTest, CompiledRedefinitionsKeepABoundedNumberOfCallTargets) {
  Start();
  ChurnBounded(3, 200);
  EXPECT_GE(engine().compilation_statistics().successful, 600);
  engine().ReclaimRetiredCallTargets();
  EXPECT_LT(ExtraTargets(), 8u);
  EXPECT_LT(engine().live_code_objects(), 20u);
  // Freed targets still count in the statistics.
  EXPECT_GE(engine().compilation_statistics().executed_targets, 600);
}

TEST_F(CodeReclamationTest, BackgroundCompilationKeepsABoundedNumberOfCallTargets) {
  config::EngineConfig config;
  config.set_compile_immediately(true);
  config.set_background_compilation(true);
  Start(config);
  ChurnBounded(3, 200);
  engine().WaitForCompilations();
  engine().ReclaimRetiredCallTargets();
  EXPECT_LT(ExtraTargets(), 8u);
}

TEST_F(CodeReclamationTest, ATargetBeingCompiledIsKept) {
  config::EngineConfig config;
  config.set_compile_immediately(true);
  config.set_background_compilation(true);
  Start(config);
  // The first compilation of f stops after partial evaluation until
  // released: meanwhile f is redefined and a reclamation runs.
  std::mutex lock;
  std::condition_variable changed;
  bool in_hook = false;
  bool released = false;
  bool first = true;
  engine().SetAfterPartialEvaluationHookForTesting([&](CallTarget& target) {
    std::unique_lock<std::mutex> guard(lock);
    if (target.name() != "f" || !first) return;
    first = false;
    in_hook = true;
    changed.notify_all();
    changed.wait(guard, [&] { return released; });
  });
  CallTarget* old_f = &TargetOf("f");
  EXPECT_EQ(Call("f", {Value::Long(1)}), "2");
  {
    std::unique_lock<std::mutex> guard(lock);
    ASSERT_TRUE(changed.wait_for(guard, std::chrono::seconds(60), [&] { return in_hook; }));
  }
  EXPECT_EQ(Call("redefine", {Value::Long(1)}), "2");
  EXPECT_NE(&TargetOf("f"), old_f);
  engine().ReclaimRetiredCallTargets();
  std::vector<CallTarget*> live = engine().call_targets();
  EXPECT_NE(std::find(live.begin(), live.end(), old_f), live.end());
  {
    std::lock_guard<std::mutex> guard(lock);
    released = true;
    changed.notify_all();
  }
  engine().WaitForCompilations();
  // Its code was refused (retired meanwhile): nothing keeps it now.
  EXPECT_GE(engine().ReclaimRetiredCallTargets(), 1);
  live = engine().call_targets();
  EXPECT_EQ(std::find(live.begin(), live.end(), old_f), live.end());
  EXPECT_EQ(Call("redefine", {Value::Long(2)}), "3");
  // The hook refers to this frame's locals: no compilation may call it
  // once they are gone (the new f's compilation would, during TearDown,
  // and wrote into a dead frame: a crash in 1 run of 10).
  engine().WaitForCompilations();
  engine().SetAfterPartialEvaluationHookForTesting(nullptr);
}

TEST_F(CodeReclamationTest, QueuedCompilationsOfRetiredTargetsAreCancelled) {
  config::EngineConfig config;
  config.set_compile_immediately(true);
  config.set_background_compilation(true);
  config.set_compiler_threads(1);
  Start(config);
  // The one compiler thread stops in helper's compilation until released:
  // meanwhile each f that churn defines queues its compilation and is
  // retired by the next.
  std::mutex lock;
  std::condition_variable changed;
  bool in_hook = false;
  bool released = false;
  engine().SetAfterPartialEvaluationHookForTesting([&](CallTarget& target) {
    std::unique_lock<std::mutex> guard(lock);
    if (target.name() != "helper" || in_hook) return;
    in_hook = true;
    changed.notify_all();
    changed.wait(guard, [&] { return released; });
  });
  EXPECT_EQ(Call("helper", {Value::Long(1)}), "1");
  {
    std::unique_lock<std::mutex> guard(lock);
    ASSERT_TRUE(changed.wait_for(guard, std::chrono::seconds(60), [&] { return in_hook; }));
  }
  // Fewer redefinitions than an automatic reclamation waits for (64).
  EXPECT_EQ(Call("churn", {Value::Long(50)}), "1275");
  EXPECT_GE(ExtraTargets(), 50u);
  // Their queued compilations would be refused: cancelled, they keep
  // nothing while the compiler thread is still busy.
  EXPECT_GE(engine().ReclaimRetiredCallTargets(), 40);
  EXPECT_LT(ExtraTargets(), 8u);
  {
    std::lock_guard<std::mutex> guard(lock);
    released = true;
    changed.notify_all();
  }
  engine().WaitForCompilations();
  engine().SetAfterPartialEvaluationHookForTesting(nullptr);
}

TEST_F(CodeReclamationTest, SplitCopiesOfRetiredTargetsAreFreed) {
  for (bool compiled : {false, true}) {
    SCOPED_TRACE(compiled ? "compiled" : "interpreter");
    config::EngineConfig config = compiled ? config::EngineConfig() : Interpreter();
    if (compiled) {
      config.set_compile_immediately(true);
      config.set_background_compilation(false);
    }
    config.set_splitting_force_all(true);
    Start(config);
    // Every new g's call node calls a split copy of the f defined with it.
    ChurnBounded(3, 200, "churnPairs");
    EXPECT_GT(engine().splitting().statistics().split_count, 200);
    engine().ReclaimRetiredCallTargets();
    // What redefinePair's call site `g(i)` still caches: per entry a retired
    // g and f with their split copies, and the current pair.
    EXPECT_LT(ExtraTargets(), 4u * InvokeDirect::kLimit + 4u);
  }
}

TEST_F(CodeReclamationTest, RedefinedWhileDeeperOnTheStackFinishesInItsOldTree) {
  for (bool compiled : {false, true}) {
    SCOPED_TRACE(compiled ? "compiled" : "interpreter");
    StartCompiledOrNot(compiled);
    // deep's activation runs on while redefineDeep redefines it and churn's
    // redefinitions reclaim; then it returns into its old tree.
    EXPECT_EQ(Call("deep", {Value::Long(200)}), "20700");
    EXPECT_EQ(Call("deep", {Value::Long(200)}), "-1");
    engine().ReclaimRetiredCallTargets();
    EXPECT_LT(ExtraTargets(), 8u);
  }
}

TEST_F(CodeReclamationTest, ATreeWithOsrStateIsKept) {
  config::EngineConfig config;
  config.set_always_osr(true);
  config.set_background_compilation(false);
  Start(config);
  EXPECT_EQ(Call("loopy", {Value::Long(3000)}), "4498500");
  EXPECT_GE(CountLogLines("OSR"), 1) << Log();
  // loopy's OSR state names a loop of its old tree: the reclamations that
  // churn triggers (and the explicit ones) keep the tree.
  EXPECT_EQ(Call("redefineLoopy", {Value::Long(200)}), "20100");
  EXPECT_EQ(Call("churn", {Value::Long(200)}), "20100");
  engine().ReclaimRetiredCallTargets();
  engine().ReclaimRetiredCallTargets();
  EXPECT_EQ(Call("loopy", {Value::Long(5)}), "-1");
  EXPECT_LT(ExtraTargets(), 12u);
}

TEST_F(CodeReclamationTest, ACallSiteCachingAnOldTargetKeepsIt) {
  for (bool compiled : {false, true}) {
    SCOPED_TRACE(compiled ? "compiled" : "interpreter");
    StartCompiledOrNot(compiled);
    EXPECT_EQ(Call("callsF", {Value::Long(1)}), "2");
    CallTarget* cached = &TargetOf("f");
    EXPECT_EQ(Call("churn", {Value::Long(300)}), "45150");
    engine().ReclaimRetiredCallTargets();
    // callsF's cache entry still names the first f: it is alive.
    std::vector<CallTarget*> live = engine().call_targets();
    EXPECT_NE(std::find(live.begin(), live.end(), cached), live.end());
    EXPECT_EQ(cached->holder_count(), 1);
    EXPECT_EQ(Call("callsF", {Value::Long(1)}), "2");
    EXPECT_LT(ExtraTargets(), 10u);
  }
}

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
  engine().ReclaimRetiredCallTargets();
  EXPECT_LT(ExtraTargets(), 10u);
}

TEST_F(CodeReclamationTest, InterpretedFunctionRedefiningItselfFinishesInItsOldTree) {
  Start(Interpreter());
  EXPECT_EQ(Call("selfish", {StringValue("function selfish(source, n) { return 0 - 1; }"),
                             Value::Long(300)}),
            "45151");
  EXPECT_EQ(Call("selfish", {StringValue(""), Value::Long(0)}), "-1");
  engine().ReclaimRetiredCallTargets();
  EXPECT_LT(ExtraTargets(), 10u);
}

}  // namespace
}  // namespace morel::sl
