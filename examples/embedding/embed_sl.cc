// Embedding SimpleLanguage in a C++ program with the embedding API
// (engine/api/embedding.h): an engine, a context, guest functions called a
// million times from C++ until the engine has compiled them to machine
// code, values converted both ways, a guest object's members read and
// written, guest errors as absl::Status, and a second context on the same
// engine.
//
//   bazel run //examples/embedding:embed_sl
//
// Exits non-zero (and says why) when anything is not as expected, so the
// test //examples/embedding:embed_sl_test fails, in particular when the
// million calls stay in the interpreter.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/api/embedding.h"
#include "engine/config/engine_config.pb.h"
#include "nodes/heap.h"

namespace {

using morel::api::Context;
using morel::api::Engine;
using morel::api::Value;

constexpr char kProgram[] = R"(function step(sum, i) {
  return sum + i * i;
}

function greet(name) {
  return "Hello, " + name + "!";
}

function isEven(n) {
  return n / 2 * 2 == n;
}

function power(base, exponent) {
  result = 1;
  while (exponent > 0) {
    result = result * base;
    exponent = exponent - 1;
  }
  return result;
}

function makePoint(x, y) {
  point = new();
  point.x = x;
  point.y = y;
  return point;
}

function getX(point) {
  return point.x;
}

function nothing() {
}

function broken(n) {
  return n + nothing();
}
)";

int failures = 0;

void Check(bool condition, const std::string& what) {
  std::printf("%s %s\n", condition ? "ok  " : "FAIL", what.c_str());
  if (!condition) ++failures;
}

template <typename T>
T ValueOrDie(absl::StatusOr<T> result, const char* what) {
  if (!result.ok()) {
    std::printf("FAIL %s: %s\n", what, result.status().ToString().c_str());
    std::exit(1);
  }
  return *std::move(result);
}

void CallAMillionTimes(Engine& engine, Context& context) {
  Value step = ValueOrDie(context.GetFunction("step"), "GetFunction(step)");
  constexpr int64_t kCalls = 1000000;
  int64_t expected = 0;
  Value sum = Value::Int64(0);
  absl::Time start = absl::Now();
  for (int64_t i = 0; i < kCalls; ++i) {
    sum = ValueOrDie(context.Call(step, {sum, Value::Int64(i % 1000)}), "step");
    expected += (i % 1000) * (i % 1000);
  }
  absl::Duration elapsed = absl::Now() - start;
  std::printf("1000000 calls of step() from C++: %s (%.0f ns per call)\n",
              absl::FormatDuration(elapsed).c_str(),
              absl::ToDoubleNanoseconds(elapsed) / kCalls);
  Check(sum.AsInt64().value_or(-1) == expected,
        absl::StrCat("step() summed to ", sum.ToString(), ", expected ", expected));

  // The engine compiled step(): the last tier, as machine code. (It
  // compiles in the background; the calls above keep running meanwhile.)
  engine.WaitForCompilations();
  Context::CompilationState state =
      ValueOrDie(context.GetCompilationState(step), "GetCompilationState(step)");
  std::printf("step(): %lld calls counted before the last tier, compiled=%d tier=%d "
              "machine_code=%d\n",
              static_cast<long long>(state.calls), state.compiled, state.tier,
              state.machine_code);
  Check(state.compiled && state.tier == 2 && state.machine_code,
        "step() runs last-tier machine code after a million calls");
  morel::runtime::CompilationStatistics statistics = engine.compilation_statistics();
  std::printf("engine: %d compilations installed, %d failed, %d deopts\n",
              statistics.successful, statistics.failed, statistics.deopts);
  Check(statistics.successful >= 2 && statistics.failed == 0,
        "the engine installed step()'s first- and last-tier code and nothing failed");
}

void ConvertValues(Context& context) {
  Value greet = ValueOrDie(context.GetFunction("greet"), "GetFunction(greet)");
  Value greeting = ValueOrDie(context.Call(greet, {Value::String("Morel")}), "greet");
  Check(greeting.AsString().value_or("") == "Hello, Morel!",
        absl::StrCat("greet(\"Morel\") is a string: ", greeting.ToString()));

  Value is_even = ValueOrDie(context.GetFunction("isEven"), "GetFunction(isEven)");
  Value even = ValueOrDie(context.Call(is_even, {Value::Int64(42)}), "isEven");
  Check(even.AsBoolean().value_or(false), "isEven(42) is the boolean true");

  // SL numbers grow beyond 64 bits: the exact value is the number's text,
  // and the big number passes back into the guest unchanged.
  Value power = ValueOrDie(context.GetFunction("power"), "GetFunction(power)");
  Value big = ValueOrDie(context.Call(power, {Value::Int64(2), Value::Int64(100)}), "power");
  Check(big.IsNumber() && !big.FitsInInt64() &&
            big.NumberText().value_or("") == "1267650600228229401496703205376",
        absl::StrCat("power(2, 100) is a big number: ", big.ToString()));
  Check(!big.AsInt64().ok(), "AsInt64 of a big number is an error, not a truncation");
  Value bigger = ValueOrDie(context.Call(power, {big, Value::Int64(2)}), "power(big)");
  Check(bigger.NumberText().value_or("") ==
            "1606938044258990275541962092341162602522202993782792835301376",
        "power(2^100, 2) takes the big number back");

  Value nothing = ValueOrDie(context.GetFunction("nothing"), "GetFunction(nothing)");
  Check(ValueOrDie(context.Call(nothing, {}), "nothing").IsNull(), "nothing() is null");

  // An object is a handle that keeps the guest object alive across
  // collections.
  Value make_point = ValueOrDie(context.GetFunction("makePoint"), "GetFunction(makePoint)");
  Value point =
      ValueOrDie(context.Call(make_point, {Value::Int64(3), Value::Int64(4)}), "makePoint");
  for (int i = 0; i < 20000; ++i) {
    ValueOrDie(context.Call(make_point, {Value::Int64(i), Value::Int64(i)}), "makePoint");
  }
  morel::heap::Collect();
  Value get_x = ValueOrDie(context.GetFunction("getX"), "GetFunction(getX)");
  Value x = ValueOrDie(context.Call(get_x, {point}), "getX");
  Check(point.IsObject() && x.AsInt64().value_or(-1) == 3,
        absl::StrCat("the object ", point.ToString(), " survived a collection; x = ",
                     x.ToString()));

  // Its members, read and written from C++ as guest code reads and writes
  // its properties.
  Value y = ValueOrDie(context.GetMember(point, "y"), "GetMember(y)");
  std::vector<std::string> keys = ValueOrDie(context.GetMemberKeys(point), "GetMemberKeys");
  Check(y.AsInt64().value_or(-1) == 4 && keys == std::vector<std::string>{"x", "y"},
        absl::StrCat("point.y is ", y.ToString(), "; its members are ",
                     absl::StrJoin(keys, ", ")));
  Check(context.PutMember(point, "x", Value::Int64(30)).ok(), "PutMember(point, \"x\", 30)");
  Check(ValueOrDie(context.Call(get_x, {point}), "getX").AsInt64().value_or(-1) == 30,
        "getX(point) sees the x written from C++");
  absl::Status missing = context.GetMember(point, "z").status();
  Check(missing.code() == absl::StatusCode::kAborted &&
            missing.message() == "Undefined property: z",
        "reading an absent member is SL's guest error: " + missing.ToString());
}

void ReportErrors(Context& context) {
  // A guest error: Aborted, with the guest's message and location.
  Value broken = ValueOrDie(context.GetFunction("broken"), "GetFunction(broken)");
  absl::StatusOr<Value> failed = context.Call(broken, {Value::Int64(1)});
  std::printf("broken(1): %s\n", failed.status().ToString().c_str());
  Check(failed.status().code() == absl::StatusCode::kAborted &&
            absl::StrContains(failed.status().message(),
                              "Type error at embed.sl line 37 col 10"),
        "a guest error is an Aborted status with the guest location");
  // The location as data, too (Truffle's getSourceLocation).
  std::optional<morel::api::GuestLocation> where =
      morel::api::GuestLocationOf(failed.status());
  Check(where.has_value() && *where == morel::api::GuestLocation{"embed.sl", 37, 10},
        "the guest error's Status carries its location as a payload");

  // A syntax error: InvalidArgument, with file, line and column.
  absl::StatusOr<Value> syntax = context.Eval("function f( {", "bad.sl");
  std::printf("Eval(\"function f( {\"): %s\n",
              std::string(syntax.status().message()).c_str());
  Check(syntax.status().code() == absl::StatusCode::kInvalidArgument &&
            absl::StrContains(syntax.status().message(), "line 1 col 13"),
        "a syntax error is an InvalidArgument status with its line and column");
  std::optional<morel::api::GuestLocation> syntax_where =
      morel::api::GuestLocationOf(syntax.status());
  Check(syntax_where.has_value() &&
            *syntax_where == morel::api::GuestLocation{"bad.sl", 1, 13},
        "a syntax error's location is data too (GuestLocationOf)");

  // Host mistakes: clear errors, no crash.
  Check(context.GetFunction("missing").status().code() == absl::StatusCode::kNotFound,
        "an undefined function is NotFound");
  Value step = ValueOrDie(context.GetFunction("step"), "GetFunction(step)");
  Check(context.Call(step, {Value::Double(1.5), Value::Int64(1)}).status().code() ==
            absl::StatusCode::kInvalidArgument,
        "a double is InvalidArgument in SL, which has no floating-point numbers");
  Check(context.Call(Value::Int64(7), {}).status().code() ==
            absl::StatusCode::kInvalidArgument,
        "calling a number is InvalidArgument");
}

void SecondContext(Engine& engine, Context& first) {
  std::unique_ptr<Context> second = ValueOrDie(engine.CreateContext("sl"), "CreateContext");
  ValueOrDie(second->Eval("function step(sum, i) { return sum - i; }", "other.sl"),
             "Eval in the second context");
  Value other_step = ValueOrDie(second->GetFunction("step"), "GetFunction(step) #2");
  Value result =
      ValueOrDie(second->Call(other_step, {Value::Int64(10), Value::Int64(3)}), "step #2");
  Check(result.AsInt64().value_or(0) == 7,
        "a second context on the engine has its own functions");
  Value first_step = ValueOrDie(first.GetFunction("step"), "GetFunction(step)");
  Check(second->Call(first_step, {Value::Int64(1), Value::Int64(1)}).status().code() ==
            absl::StatusCode::kFailedPrecondition,
        "a function of one context is refused by another");
}

}  // namespace

int main() {
  morel::config::EngineConfig config;  // defaults: two tiers, background compilation
  std::unique_ptr<Engine> engine = ValueOrDie(Engine::Create(config), "Engine::Create");
  std::unique_ptr<Context> context = ValueOrDie(engine->CreateContext("sl"), "CreateContext");
  ValueOrDie(context->Eval(kProgram, "embed.sl"), "Eval");

  CallAMillionTimes(*engine, *context);
  ConvertValues(*context);
  ReportErrors(*context);
  SecondContext(*engine, *context);

  Check(context->Close().ok(), "the context closes");
  Check(context->Call(Value::Null(), {}).status().code() ==
            absl::StatusCode::kFailedPrecondition,
        "a closed context refuses calls");
  if (failures > 0) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}
