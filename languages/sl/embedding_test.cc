// SL through the embedding API (engine/api/embedding.h): several contexts on
// one engine, a context's end while another keeps running compiled code,
// handles outliving their context, calls from another thread, exit(n) and
// shutdown hooks, stack overflow as a status. The million-call example is
// examples/embedding.

#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "engine/api/embedding.h"
#include "engine/config/engine_config.pb.h"
#include "gtest/gtest.h"
#include "nodes/heap.h"

namespace morel::api {
namespace {

config::EngineConfig SmallThresholds() {
  config::EngineConfig config;
  config.set_first_tier_compilation_threshold(10);
  config.set_last_tier_compilation_threshold(50);
  return config;
}

std::unique_ptr<Engine> NewEngine(const config::EngineConfig& config = SmallThresholds()) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(config);
  EXPECT_TRUE(engine.ok()) << engine.status();
  return *std::move(engine);
}

std::unique_ptr<Context> NewContext(Engine& engine, absl::string_view source) {
  absl::StatusOr<std::unique_ptr<Context>> context = engine.CreateContext("sl");
  EXPECT_TRUE(context.ok()) << context.status();
  absl::Status evaluated = (*context)->Eval(source, "test.sl").status();
  EXPECT_TRUE(evaluated.ok()) << evaluated;
  return *std::move(context);
}

int64_t CallInt(Context& context, absl::string_view name, int64_t argument) {
  absl::StatusOr<Value> function = context.GetFunction(name);
  EXPECT_TRUE(function.ok()) << function.status();
  absl::StatusOr<Value> result = context.Call(*function, {Value::Int64(argument)});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? result->AsInt64().value_or(-1) : -1;
}

TEST(SLEmbeddingTest, ContextsOnOneEngineHaveTheirOwnFunctionsAndCode) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first =
      NewContext(*engine, "function f(n) { return n + 1; }");
  std::unique_ptr<Context> second =
      NewContext(*engine, "function f(n) { return n + 2; }");
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(CallInt(*first, "f", i), i + 1);
    ASSERT_EQ(CallInt(*second, "f", i), i + 2);
  }
  engine->WaitForCompilations();
  for (Context* context : {first.get(), second.get()}) {
    absl::StatusOr<Context::CompilationState> state =
        context->GetCompilationState(*context->GetFunction("f"));
    ASSERT_TRUE(state.ok()) << state.status();
    EXPECT_TRUE(state->compiled);
  }
  // Each context compiled its own f: the engine counts both.
  EXPECT_GE(engine->compilation_statistics().successful, 2);

  // The first context ends; its call targets are retired and freed, and
  // the second keeps running its compiled f.
  size_t live_before = engine->runtime().live_call_targets();
  first.reset();
  heap::Collect();
  engine->runtime().ReclaimRetiredCallTargets();
  EXPECT_LT(engine->runtime().live_call_targets(), live_before);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(CallInt(*second, "f", i), i + 2);
  absl::StatusOr<Context::CompilationState> state =
      second->GetCompilationState(*second->GetFunction("f"));
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_TRUE(state->compiled);
}

absl::StatusOr<Context::CompilationState> StateOf(Context& context, absl::string_view name) {
  absl::StatusOr<Value> function = context.GetFunction(name);
  if (!function.ok()) return function.status();
  return context.GetCompilationState(*function);
}

// Truffle's code sharing: contexts of one engine that evaluate the same
// source run the same call targets, so what one context's calls profiled
// and compiled serves the other at once.
TEST(SLEmbeddingTest, ContextsShareTheCodeOfTheSameSource) {
  constexpr absl::string_view kSource =
      "function g(n) { return n * 2; }\n"
      "function f(n) { return g(n) + 1; }";
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first = NewContext(*engine, kSource);
  // Until f runs last-tier machine code (background compilation: a few
  // rounds).
  absl::StatusOr<Context::CompilationState> compiled;
  for (int round = 0; round < 100; ++round) {
    for (int i = 0; i < 100; ++i) ASSERT_EQ(CallInt(*first, "f", i), 2 * i + 1);
    engine->WaitForCompilations();
    compiled = StateOf(*first, "f");
    ASSERT_TRUE(compiled.ok()) << compiled.status();
    if (compiled->tier == 2) break;
  }
  ASSERT_EQ(compiled->tier, 2);
  ASSERT_TRUE(compiled->machine_code);
  const runtime::CompilationStatistics before = engine->compilation_statistics();

  // The second context has not called f yet: its f already runs the first
  // context's compiled code, with the first context's calls counted.
  std::unique_ptr<Context> second = NewContext(*engine, kSource);
  absl::StatusOr<Context::CompilationState> shared = StateOf(*second, "f");
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_TRUE(shared->compiled);
  EXPECT_EQ(shared->tier, compiled->tier);
  EXPECT_GE(shared->calls, compiled->calls);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(CallInt(*second, "f", i), 2 * i + 1);
  engine->WaitForCompilations();
  // Nothing was compiled again, and the shared code did not deoptimize:
  // the direct call to g is keyed by g's code, which both contexts' g run.
  const runtime::CompilationStatistics after = engine->compilation_statistics();
  EXPECT_EQ(after.successful, before.successful);
  EXPECT_EQ(after.deopts, before.deopts);
  EXPECT_EQ(after.invalidations, before.invalidations);
}

// Shared code names functions per context: a call in shared code calls the
// running context's function of that name, interpreted and compiled, and
// a redefinition in one context changes only that context.
TEST(SLEmbeddingTest, SharedCodeCallsTheRunningContextsFunctions) {
  constexpr absl::string_view kShared = "function f(n) { return n + g(); }";
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first = NewContext(*engine, kShared);
  std::unique_ptr<Context> second = NewContext(*engine, kShared);
  ASSERT_TRUE(first->Eval("function g() { return 1000; }", "one.sl").ok());
  ASSERT_TRUE(second->Eval("function g() { return 2000; }", "two.sl").ok());
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(CallInt(*first, "f", i), i + 1000);
    ASSERT_EQ(CallInt(*second, "f", i), i + 2000);
  }
  engine->WaitForCompilations();
  absl::StatusOr<Context::CompilationState> state = StateOf(*second, "f");
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_TRUE(state->compiled);
  EXPECT_GE(state->calls, 4000);  // one profile for both contexts
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(CallInt(*first, "f", i), i + 1000);
    ASSERT_EQ(CallInt(*second, "f", i), i + 2000);
  }
  // A redefinition in the first context only.
  ASSERT_TRUE(first->Eval("function g() { return 3000; }", "three.sl").ok());
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(CallInt(*first, "f", i), i + 3000);
    ASSERT_EQ(CallInt(*second, "f", i), i + 2000);
  }
  // An undefined function in one context is undefined only there.
  std::unique_ptr<Context> third = NewContext(*engine, kShared);
  absl::StatusOr<Value> f = third->GetFunction("f");
  ASSERT_TRUE(f.ok());
  absl::StatusOr<Value> result = third->Call(*f, {Value::Int64(1)});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kAborted);
  EXPECT_TRUE(absl::StrContains(result.status().message(), "Undefined function: g"))
      << result.status();
  EXPECT_EQ(CallInt(*second, "f", 1), 2001);
}

// A source's code lives while a context's function runs it: the last
// context to stop using it (by ending, or by redefining its functions)
// retires its call targets.
TEST(SLEmbeddingTest, SharedCodeIsRetiredWithItsLastUser) {
  constexpr absl::string_view kSource = "function f(n) { return n + 1; }";
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first = NewContext(*engine, kSource);
  std::unique_ptr<Context> second = NewContext(*engine, kSource);
  for (int i = 0; i < 500; ++i) ASSERT_EQ(CallInt(*first, "f", i), i + 1);
  engine->WaitForCompilations();

  // The first context ends: the second still runs the shared code.
  first.reset();
  heap::Collect();
  engine->runtime().ReclaimRetiredCallTargets();
  const size_t live_shared = engine->runtime().live_call_targets();
  absl::StatusOr<Context::CompilationState> state = StateOf(*second, "f");
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_TRUE(state->compiled);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(CallInt(*second, "f", i), i + 1);

  // The second redefines f: nobody runs the source's code any more.
  ASSERT_TRUE(second->Eval("function f(n) { return n + 2; }", "other.sl").ok());
  ASSERT_EQ(CallInt(*second, "f", 1), 3);
  engine->WaitForCompilations();  // a queued compilation holds its target
  heap::Collect();
  engine->runtime().ReclaimRetiredCallTargets();
  EXPECT_LT(engine->runtime().live_call_targets(), live_shared + 1);
}

TEST(SLEmbeddingTest, ValuesOutliveTheirContextSafely) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> context =
      NewContext(*engine, "function f() { o = new(); o.x = 1; return o; }");
  absl::StatusOr<Value> f = context->GetFunction("f");
  ASSERT_TRUE(f.ok());
  absl::StatusOr<Value> object = context->Call(*f, {});
  ASSERT_TRUE(object.ok()) << object.status();
  EXPECT_TRUE(object->IsObject());
  std::unique_ptr<Context> other = NewContext(*engine, "function g(o) { return o.x; }");
  absl::StatusOr<Value> g = other->GetFunction("g");
  ASSERT_TRUE(g.ok());
  context.reset();
  heap::Collect();
  // The handle still holds the object, but its context is gone.
  EXPECT_EQ(other->Call(*g, {*object}).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(other->Call(*f, {}).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(SLEmbeddingTest, CallsFromAnotherThread) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> context =
      NewContext(*engine, "function f(s) { return s + \"!\"; }");
  absl::StatusOr<Value> f = context->GetFunction("f");
  ASSERT_TRUE(f.ok());
  std::string from_thread;
  std::thread thread([&] {
    for (int i = 0; i < 200; ++i) {
      absl::StatusOr<Value> result = context->Call(*f, {Value::String("hi")});
      if (!result.ok()) return;
      from_thread = result->AsString().value_or("");
    }
  });
  thread.join();
  EXPECT_EQ(from_thread, "hi!");
  absl::StatusOr<Value> here = context->Call(*f, {Value::String("here")});
  ASSERT_TRUE(here.ok()) << here.status();
  EXPECT_EQ(here->AsString().value_or(""), "here!");
}

TEST(SLEmbeddingTest, ExitAndShutdownHooks) {
  std::FILE* out = std::tmpfile();
  std::unique_ptr<Engine> engine = NewEngine();
  Engine::ContextOptions options;
  options.streams.out = out;
  absl::StatusOr<std::unique_ptr<Context>> context = engine->CreateContext("sl", options);
  ASSERT_TRUE(context.ok());
  ASSERT_TRUE((*context)
                  ->Eval("function hook() { println(\"bye\"); }\n"
                         "function setUp() { registerShutdownHook(hook); }\n"
                         "function quit(n) { exit(n); }",
                         "exit.sl")
                  .ok());
  ASSERT_TRUE((*context)->Call(*(*context)->GetFunction("setUp"), {}).ok());
  absl::Status quit = (*context)->Call(*(*context)->GetFunction("quit"), {Value::Int64(3)}).status();
  EXPECT_EQ(ExitStatusOf(quit), 3) << quit;
  EXPECT_TRUE((*context)->Close().ok());
  EXPECT_EQ((*context)->Close().code(), absl::StatusCode::kFailedPrecondition);
  std::fflush(out);
  std::rewind(out);
  char line[16] = {};
  ASSERT_NE(std::fgets(line, sizeof line, out), nullptr);
  EXPECT_EQ(std::string(line), "bye\n");
  std::fclose(out);
}

TEST(SLEmbeddingTest, DeepRecursionIsAGuestError) {
  std::unique_ptr<Engine> engine = NewEngine(config::EngineConfig());
  std::unique_ptr<Context> context =
      NewContext(*engine, "function r(n) { return r(n + 1) + 1; }");
  absl::Status status =
      context->Call(*context->GetFunction("r"), {Value::Int64(0)}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kAborted) << status;
  // The context is still usable.
  EXPECT_TRUE(context->GetFunction("r").ok());
}

}  // namespace
}  // namespace morel::api
