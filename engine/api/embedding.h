#ifndef MOREL_ENGINE_API_EMBEDDING_H_
#define MOREL_ENGINE_API_EMBEDDING_H_

// The C++ embedding API: Truffle's polyglot API (Engine, Context, Value) in
// C++ terms, over any language of the LanguageRegistry (language.h).
//
//   auto engine = api::Engine::Create(config);          // an EngineConfig
//   auto context = (*engine)->CreateContext("sl");       // a language id
//   (*context)->Eval("function add(a, b) { return a + b; }", "add.sl");
//   auto add = (*context)->GetFunction("add");
//   auto sum = (*context)->Call(*add, {api::Value::Int64(1), api::Value::Int64(2)});
//   sum->AsInt64();                                      // 3
//
// Guest objects are handles (Value::IsObject) whose members the host reads
// and writes as the language's property access does (Truffle's
// Value.getMember and putMember):
//
//   // function mk() { o = new(); o.x = 1; return o; }
//   auto o = (*context)->Call(*(*context)->GetFunction("mk"), {});
//   (*context)->GetMember(*o, "x")->AsInt64();            // 1
//   (*context)->PutMember(*o, "y", api::Value::String("why"));  // o.y in guest code
//   (*context)->HasMember(*o, "z");                       // false
//   (*context)->GetMemberKeys(*o);                        // {"x", "y"}
//
// Reading an absent member is what the guest's read is (SL: the guest error
// "Undefined property: z"); a language without members says Unimplemented.
//
// Errors are absl::Status, never exceptions or crashes; the codes are those
// of language.h: a syntax error is InvalidArgument with its line and column
// ("Error(s) parsing script:\n-- line 1 col 13: ..."), a guest error
// Aborted with the guest's message and location ("Type error at add.sl
// line 1 col 33: ..."; GuestLocationOf(status) gives the location as data
// when the language attached it, as SL does for syntax errors and its
// located run-time errors), a
// sandbox limit
// ResourceExhausted, a guest exit(n) Cancelled (ExitStatusOf gives n), a
// host mistake (no such function, a value the language cannot take, a
// handle of another context or of a closed context) NotFound,
// InvalidArgument or FailedPrecondition.
//
// What several contexts of one Engine share (and what they do not):
//   shared    the EngineConfig; the compile queue and its compiler threads;
//             the engine log; the compilation policy and its statistics
//             (compilation_statistics() counts every context's targets);
//             the splitting budget; the sandbox limits (MaxCPUTime,
//             MaxStackFrames, MaxOutputStreamSize... count all contexts
//             together, and one exceeded limit cancels every context of
//             the engine); the process-wide native code cache; and each
//             language's instance (Language::CreateInstance), which is
//             how code is shared, as Truffle shares it: a source that
//             several contexts evaluate (same name and text) is parsed
//             once, and its call targets -- profiles, specializations,
//             splits, compiled code -- serve all of them (SL:
//             languages/sl/sl_shared_code.h). Shared code still calls each
//             context's own functions.
//   separate  each context's functions (its global scope: one context's
//             definitions and redefinitions do not reach another), the
//             code of sources only it evaluated, its streams and its
//             shutdown hooks. A function or object of one context is not
//             a valid argument in another (FailedPrecondition). A source's
//             shared code is retired when no context's function runs it.
//
// Not done (beyond issue 18, listed in its closing note): host functions
// callable from guest code (Truffle's ProxyExecutable); the host calls
// guest code, not the reverse.
//
// Thread rules:
//   - Every call is allowed on any thread. The API registers the calling
//     thread with the garbage collector for the call's duration.
//   - Guest code of one Engine runs on one thread at a time: each call that
//     runs guest code or touches guest values (Eval, GetFunction, Call,
//     the member methods, Close, Value conversion) holds the engine's
//     guest lock, so calls from several threads are serialized, never
//     concurrent, whichever contexts they use. Use one Engine per thread
//     for parallelism.
//   - The engine's compiler threads compile in the background meanwhile;
//     WaitForCompilations() and compilation_statistics() are callable from
//     any thread at any time.
//   - An engine whose guest code has run on more than one thread keeps
//     its dropped code and retired call targets until it dies (the
//     reclamation rules of engine/runtime/engine.h), so an embedder that
//     calls from one thread uses less memory.
//   - Guest recursion is bounded by the calling thread's stack (a guest
//     StackOverflowError, Aborted, when it runs out); run deeply recursive
//     guest code on a thread with a large stack (heap::RunOnLargeStack).
//
// Lifetimes: a Context keeps its Engine's core alive, and a Value keeps its
// guest value alive across collections (a root of the collector) and
// remembers its context; it may outlive both (using it then is
// FailedPrecondition). Destroying a Context closes it (running its
// language's close actions, e.g. SL's shutdown hooks) if Close() was not
// called; its functions are retired and freed by the engine once nothing
// refers to them.

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/api/language.h"
#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine.h"

namespace morel::api {

class Context;
struct EngineCore;
struct ContextCore;
struct GuestHandle;

// A value in the host: plain data for null, booleans, numbers and
// strings, which convert back to an equal guest value when passed to a
// guest function; a handle to the guest value itself for functions,
// objects, other guest values and integers outside int64 (SL's big
// numbers), which pass back unchanged.
class Value {
 public:
  using Kind = HostValue::Kind;

  Value() = default;  // null
  static Value Null() { return Value(); }
  static Value Boolean(bool value) { return Value(HostValue::Boolean(value)); }
  static Value Int64(int64_t value) { return Value(HostValue::Int64(value)); }
  // Only for languages with floating-point numbers (not SL).
  static Value Double(double value) { return Value(HostValue::Double(value)); }
  static Value String(std::string value) {
    return Value(HostValue::String(std::move(value)));
  }

  Kind kind() const { return host_.kind; }
  bool IsNull() const { return host_.kind == Kind::kNull; }
  bool IsBoolean() const { return host_.kind == Kind::kBoolean; }
  bool IsNumber() const { return host_.kind == Kind::kNumber; }
  bool IsString() const { return host_.kind == Kind::kString; }
  bool IsFunction() const { return host_.kind == Kind::kFunction; }
  bool IsObject() const { return host_.kind == Kind::kObject; }
  // A number that is an integer in int64's range.
  bool FitsInInt64() const { return IsNumber() && host_.is_integer && host_.fits_int64; }

  // The conversions fail (InvalidArgument, naming what the value is)
  // instead of guessing: AsInt64 of a number outside int64 (an SL big
  // number: use NumberText) or of a string is an error.
  absl::StatusOr<int64_t> AsInt64() const;
  absl::StatusOr<double> AsDouble() const;  // any number, rounded
  absl::StatusOr<bool> AsBoolean() const;
  absl::StatusOr<std::string> AsString() const;
  // The exact decimal text of a number, of any size.
  absl::StatusOr<std::string> NumberText() const;
  // The language's display string (what its print builtin writes); for a
  // host-made value, its plain text ("null" for null).
  std::string ToString() const { return host_.DisplayText(); }

  const HostValue& host() const { return host_; }
  // Whether the value holds a handle to a guest value.
  bool is_guest_handle() const { return handle_ != nullptr; }

 private:
  friend class Context;
  explicit Value(HostValue host) : host_(std::move(host)) {
    if (host_.kind == Kind::kNull) host_.text = "null";
  }

  HostValue host_ = NullHost();
  std::shared_ptr<GuestHandle> handle_;

  static HostValue NullHost() {
    HostValue v;
    v.text = "null";
    return v;
  }
};

class Engine {
 public:
  // An engine configured by `config` exactly (schema defaults for what it
  // does not set; it is validated like command-line options). To honour
  // MOREL_OPTIONS or flags too, build `config` with
  // config::BuildEngineConfig. Loads the backend the config names.
  static absl::StatusOr<std::unique_ptr<Engine>> Create(
      const config::EngineConfig& config = config::EngineConfig());
  // The engine closes when it and every context made from it are gone:
  // compiler threads stop, summaries print (engine/runtime/engine.h).
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  struct ContextOptions {
    // A message of the language's options schema (language.h), validated;
    // null for the schema defaults.
    const google::protobuf::Message* language_options = nullptr;
    // Where the language's print and read builtins write and read.
    ContextStreams streams;
  };
  // A new context of the registered language `language_id`: NotFound for
  // an unknown language, InvalidArgument for bad options.
  absl::StatusOr<std::unique_ptr<Context>> CreateContext(
      absl::string_view language_id, const ContextOptions& options);
  absl::StatusOr<std::unique_ptr<Context>> CreateContext(
      absl::string_view language_id) {
    return CreateContext(language_id, ContextOptions());
  }

  const config::EngineConfig& config() const;
  // What compilation did so far in all contexts (thread-safe).
  runtime::CompilationStatistics compilation_statistics() const;
  // Blocks until no compilation is queued or running (thread-safe).
  void WaitForCompilations();
  // The runtime engine underneath, for tools and tests that need more
  // (tracing, the call targets); the rules above still apply.
  runtime::Engine& runtime();

 private:
  explicit Engine(std::shared_ptr<EngineCore> core) : core_(std::move(core)) {}
  std::shared_ptr<EngineCore> core_;
};

class Context {
 public:
  // Closes the context if Close() was not called (errors are dropped).
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Language& language() const;

  // Parses `source` (named `source_name` in messages) and defines what it
  // defines; returns what it evaluates to (SL: null; its functions are
  // registered, redefining existing ones).
  absl::StatusOr<Value> Eval(absl::string_view source,
                             absl::string_view source_name);
  // The guest function `name` (NotFound if not defined). The handle
  // follows redefinitions (SL's functions are looked up by name).
  absl::StatusOr<Value> GetFunction(absl::string_view name);
  // Calls the guest function `function` with `args` (host values, or guest
  // values of this context).
  absl::StatusOr<Value> Call(const Value& function, absl::Span<const Value> args);
  absl::StatusOr<Value> Call(const Value& function, std::initializer_list<Value> args) {
    return Call(function, absl::Span<const Value>(args.begin(), args.size()));
  }

  // The members of a guest object (Truffle's Value.hasMember, getMember,
  // putMember, getMemberKeys), as the language's property access sees
  // them. `object` must be an object (IsObject; anything else is
  // InvalidArgument naming what it is) of this context (FailedPrecondition
  // otherwise, as for Call). A language without members returns
  // Unimplemented.
  //
  // Whether `object` has the member `name`.
  absl::StatusOr<bool> HasMember(const Value& object, absl::string_view name);
  // The member's value. An absent member is what the language's read of it
  // is: for SL the guest error "Undefined property: <name>" (Aborted).
  absl::StatusOr<Value> GetMember(const Value& object, absl::string_view name);
  // Creates or overwrites the member; `value` is a host value or a guest
  // value of this context, converted like Call's arguments.
  absl::Status PutMember(const Value& object, absl::string_view name, const Value& value);
  // Every member's name, in the language's order. SL: the array-index keys
  // ("0", "1", ...: o[1] and o["1"] are one member) in ascending order,
  // then the others in the order they were first written; an object with
  // more than 32 other keys (SL's dictionary mode) lists those in byte
  // order.
  absl::StatusOr<std::vector<std::string>> GetMemberKeys(const Value& object);

  // How `function` runs now: whether compiled code is installed on its call
  // target, of which tier, and whether it is machine code.
  struct CompilationState {
    std::string call_target;  // the call target's name
    int64_t calls = 0;        // calls counted by the interpreter and tier 1
    bool compiled = false;
    int tier = 0;             // 1 or 2 when compiled
    bool machine_code = false;
  };
  absl::StatusOr<CompilationState> GetCompilationState(const Value& function);

  // Ends the context (SL: runs its shutdown hooks); later calls fail
  // (FailedPrecondition). Returns a guest error or exit raised while closing.
  absl::Status Close();

 private:
  friend class Engine;
  explicit Context(std::shared_ptr<ContextCore> core) : core_(std::move(core)) {}
  // What every method that runs guest code or touches guest values does
  // (the thread rules above): registers the calling thread with the
  // collector, takes the engine's guest lock, refuses a closed context
  // (FailedPrecondition), then returns body(the language context).
  template <typename F>
  std::invoke_result_t<F&, LanguageContext&> WithGuest(F&& body);
  // Converts a host or guest argument; FailedPrecondition for a handle of
  // another context.
  absl::StatusOr<morel::Value> ToGuest(const Value& value);
  // ToGuest of an object (IsObject), else InvalidArgument.
  absl::StatusOr<morel::Value> ObjectToGuest(const Value& object);
  Value ToApi(const morel::Value& value);

  std::shared_ptr<ContextCore> core_;
};

}  // namespace morel::api

#endif  // MOREL_ENGINE_API_EMBEDDING_H_
