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
