// SL through the embedding API (engine/api/embedding.h): several contexts on
// one engine, a context's end while another keeps running compiled code,
// handles outliving their context, calls from another thread, exit(n) and
// shutdown hooks, stack overflow as a status, guest objects' members read
// and written from C++. The million-call example is
// examples/embedding.

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

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

// f(n) = 2n + 1, through a call of g: what the sharing tests compile.
constexpr absl::string_view kSource =
    "function g(n) { return n * 2; }\n"
    "function f(n) { return g(n) + 1; }";

// Truffle's code sharing: contexts of one engine that evaluate the same
// source run the same call targets, so what one context's calls profiled
// and compiled serves the other at once.
TEST(SLEmbeddingTest, ContextsShareTheCodeOfTheSameSource) {
  std::unique_ptr<Engine> engine = NewEngine();
  // Both contexts exist before anything compiles: the code is compiled for
  // several contexts from the start (no single-context speculation).
  std::unique_ptr<Context> first = NewContext(*engine, kSource);
  std::unique_ptr<Context> second = NewContext(*engine, "function unrelated() {}");
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

  // The second context evaluates the source and has not called f yet: its
  // f already runs the first context's compiled code, with the first
  // context's calls counted.
  ASSERT_TRUE(second->Eval(kSource, "test.sl").ok());
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

// Truffle's single-context speculation: while one context uses an engine's
// code, its functions are constants of compiled code (as in the launcher's
// single context); a second context invalidates that code, and what is
// compiled then serves both.
TEST(SLEmbeddingTest, ASecondContextEndsTheSingleContextSpeculation) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first = NewContext(*engine, kSource);
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(CallInt(*first, "f", i), 2 * i + 1);
  engine->WaitForCompilations();
  absl::StatusOr<Context::CompilationState> alone = StateOf(*first, "f");
  ASSERT_TRUE(alone.ok()) << alone.status();
  ASSERT_TRUE(alone->compiled);
  const runtime::CompilationStatistics before = engine->compilation_statistics();

  std::unique_ptr<Context> second = NewContext(*engine, kSource);
  absl::StatusOr<Context::CompilationState> after_second = StateOf(*first, "f");
  ASSERT_TRUE(after_second.ok()) << after_second.status();
  EXPECT_FALSE(after_second->compiled);  // the speculation's code is gone
  EXPECT_GT(engine->compilation_statistics().invalidations, before.invalidations);
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 200; ++i) {
      ASSERT_EQ(CallInt(*first, "f", i), 2 * i + 1);
      ASSERT_EQ(CallInt(*second, "f", i), 2 * i + 1);
    }
    engine->WaitForCompilations();
  }
  absl::StatusOr<Context::CompilationState> shared = StateOf(*second, "f");
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_TRUE(shared->compiled);
}

// Shared code names functions per context: a call in shared code calls the
// running context's function of that name, interpreted and compiled, and
// a redefinition in one context changes only that context.
TEST(SLEmbeddingTest, SharedCodeCallsTheRunningContextsFunctions) {
  constexpr absl::string_view kShared = "function f(n) { return n + g(); }";
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first = NewContext(*engine, kShared);
  const size_t targets = engine->runtime().live_call_targets();
  std::unique_ptr<Context> second = NewContext(*engine, kShared);
  EXPECT_EQ(engine->runtime().live_call_targets(), targets);  // one f for both
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
  constexpr absl::string_view kIncrement = "function f(n) { return n + 1; }";
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first = NewContext(*engine, kIncrement);
  std::unique_ptr<Context> second = NewContext(*engine, kIncrement);
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

constexpr char kObjects[] = R"(function mk() { o = new(); o.x = 1; o.name = "a"; return o; }
function getY(o) { return o.y; }
function getSelfX(o) { return o.self.x; }
function getIndex(o) { return o[1]; }
function mkBig() { o = new(); i = 0; while (i < 40) { o["k" + i] = i; i = i + 1; } return o; }
)";

Value MakeObject(Context& context, absl::string_view maker = "mk") {
  absl::StatusOr<Value> mk = context.GetFunction(maker);
  EXPECT_TRUE(mk.ok()) << mk.status();
  absl::StatusOr<Value> object = context.Call(*mk, {});
  EXPECT_TRUE(object.ok()) << object.status();
  EXPECT_TRUE(object->IsObject()) << object->ToString();
  return *object;
}

Value CallWith(Context& context, absl::string_view name, const Value& argument) {
  absl::StatusOr<Value> function = context.GetFunction(name);
  EXPECT_TRUE(function.ok()) << function.status();
  absl::StatusOr<Value> result = context.Call(*function, {argument});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : Value::String("<error>");
}

TEST(SLEmbeddingTest, ReadsAGuestObjectsMembers) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> context = NewContext(*engine, kObjects);
  Value o = MakeObject(*context);

  EXPECT_EQ(context->HasMember(o, "x").value_or(false), true);
  EXPECT_EQ(context->HasMember(o, "name").value_or(false), true);
  EXPECT_EQ(context->HasMember(o, "y").value_or(true), false);
  absl::StatusOr<Value> x = context->GetMember(o, "x");
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ(x->AsInt64().value_or(-1), 1);
  absl::StatusOr<Value> name = context->GetMember(o, "name");
  ASSERT_TRUE(name.ok()) << name.status();
  EXPECT_EQ(name->AsString().value_or(""), "a");
  absl::StatusOr<std::vector<std::string>> keys = context->GetMemberKeys(o);
  ASSERT_TRUE(keys.ok()) << keys.status();
  EXPECT_EQ(*keys, (std::vector<std::string>{"x", "name"}));

  // Reading an absent member is what guest code gets (sl_spec §6.9).
  absl::Status missing = context->GetMember(o, "missing").status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kAborted) << missing;
  EXPECT_EQ(missing.message(), "Undefined property: missing");
}

TEST(SLEmbeddingTest, WritesMembersThatGuestCodeReads) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> context = NewContext(*engine, kObjects);
  Value o = MakeObject(*context);

  ASSERT_TRUE(context->PutMember(o, "y", Value::Int64(42)).ok());
  EXPECT_EQ(CallWith(*context, "getY", o).AsInt64().value_or(-1), 42);
  // Overwritten, with another kind of value.
  ASSERT_TRUE(context->PutMember(o, "y", Value::String("why")).ok());
  EXPECT_EQ(CallWith(*context, "getY", o).AsString().value_or(""), "why");
  // A guest value as the member: the object itself.
  ASSERT_TRUE(context->PutMember(o, "self", o).ok());
  EXPECT_EQ(CallWith(*context, "getSelfX", o).AsInt64().value_or(-1), 1);
  absl::StatusOr<Value> self = context->GetMember(o, "self");
  ASSERT_TRUE(self.ok()) << self.status();
  EXPECT_TRUE(self->IsObject());
  // A member named by an integer's text is the guest's o[1].
  ASSERT_TRUE(context->PutMember(o, "1", Value::Boolean(true)).ok());
  EXPECT_EQ(CallWith(*context, "getIndex", o).AsBoolean().value_or(false), true);

  absl::StatusOr<std::vector<std::string>> keys = context->GetMemberKeys(o);
  ASSERT_TRUE(keys.ok()) << keys.status();
  EXPECT_EQ(*keys, (std::vector<std::string>{"1", "x", "name", "y", "self"}));

  // A value SL cannot take: InvalidArgument, naming the member.
  absl::Status bad = context->PutMember(o, "z", Value::Double(0.5));
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument) << bad;
  EXPECT_TRUE(absl::StartsWith(bad.message(), "the value of member 'z': ")) << bad;
  EXPECT_EQ(context->HasMember(o, "z").value_or(true), false);

  // Many keys (SL's dictionary mode): byte order.
  Value big = MakeObject(*context, "mkBig");
  keys = context->GetMemberKeys(big);
  ASSERT_TRUE(keys.ok()) << keys.status();
  ASSERT_EQ(keys->size(), 40);
  EXPECT_TRUE(std::is_sorted(keys->begin(), keys->end()));
  EXPECT_EQ(context->GetMember(big, "k39")->AsInt64().value_or(-1), 39);
}

TEST(SLEmbeddingTest, MembersOfANonObjectAreInvalidArgument) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> context = NewContext(*engine, kObjects);
  absl::StatusOr<Value> mk = context->GetFunction("mk");
  ASSERT_TRUE(mk.ok());
  for (const Value& not_object : {Value::Int64(3), Value::String("s"), Value::Null(), *mk}) {
    absl::Status status = context->GetMember(not_object, "x").status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_TRUE(absl::StartsWith(status.message(), "expected an object, got ")) << status;
    EXPECT_EQ(context->HasMember(not_object, "x").status().code(),
              absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(context->PutMember(not_object, "x", Value::Int64(1)).code(),
              absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(context->GetMemberKeys(not_object).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(context->GetMember(Value::Int64(3), "x").status().message(),
            "expected an object, got a number (3)");
  EXPECT_EQ(context->GetMember(*mk, "x").status().message(),
            "expected an object, got a function (mk)");
}

TEST(SLEmbeddingTest, MembersOfAnotherOrAClosedContextsObjectAreRefused) {
  std::unique_ptr<Engine> engine = NewEngine();
  std::unique_ptr<Context> first = NewContext(*engine, kObjects);
  std::unique_ptr<Context> second = NewContext(*engine, kObjects);
  Value o = MakeObject(*first);
  Value other = MakeObject(*second);
  absl::Status status = second->GetMember(o, "x").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_EQ(status.message(),
            "a guest value of another context (Object) cannot be used in this one");
  EXPECT_EQ(second->HasMember(o, "x").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(second->PutMember(o, "x", Value::Int64(2)).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(second->GetMemberKeys(o).status().code(), absl::StatusCode::kFailedPrecondition);
  // Nor as the value written.
  EXPECT_EQ(first->PutMember(o, "other", other).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(first->HasMember(o, "other").value_or(true), false);
  EXPECT_EQ(first->GetMember(o, "x")->AsInt64().value_or(-1), 1);  // unchanged

  ASSERT_TRUE(first->Close().ok());
  for (Context* context : {first.get(), second.get()}) {
    EXPECT_EQ(context->GetMember(o, "x").status().code(), absl::StatusCode::kFailedPrecondition);
  }
  EXPECT_EQ(first->GetMember(o, "x").status().message(), "the context is closed");
}

}  // namespace
}  // namespace morel::api
