#ifndef MOREL_ENGINE_API_LANGUAGE_H_
#define MOREL_ENGINE_API_LANGUAGE_H_

// The language interface (DESIGN §8): what a guest language gives the
// engine, so that the generic launcher (engine/api/launcher.h) and the
// embedding API (engine/api/embedding.h) run any registered language and a
// second language plugs in without a change to engine/.
//
// A language is a Language (its name, file extension, options schema,
// builtins, and a factory of contexts) registered in the LanguageRegistry,
// usually by an alwayslink library of the language
// (//languages/sl:language). A LanguageContext is one running guest
// program's world on an Engine: it parses sources into call targets,
// defines the builtins, calls guest functions and converts values between
// the guest and the host.
//
// Guest code reports its errors as C++ exceptions (nodes/guest_error.h) and
// by language-specific exceptions (SL's exit(n)). A LanguageContext
// converts them to absl::Status at this interface: none of its methods
// throws. The codes (used by the launcher and the embedding API alike):
//   InvalidArgument     a syntax error; the message is the language's, with
//                       the line and column (SL's: "Error(s) parsing
//                       script:\n-- line L col C: ...")
//   Aborted             a guest error; the message is the guest's, with
//                       its location when the language knows it
//   ResourceExhausted   a sandbox limit cancelled the engine
//                       (ResourceLimitError); nothing guest-side may run
//                       on the engine any more
//   Cancelled           the guest asked to exit; ExitStatusOf() gives n
//   NotFound, FailedPrecondition, InvalidArgument
//                       the host's mistakes (an unknown function, a value
//                       the language cannot take)

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "google/protobuf/message.h"
#include "nodes/value.h"

namespace morel {
class CallTarget;
namespace runtime {
class Engine;
}  // namespace runtime
}  // namespace morel

namespace morel::api {

// A value as the host sees it: plain data, no guest pointer. Guest values
// that are not plain data (functions, objects) stay guest values; the
// embedding API holds them through handles (embedding.h).
struct HostValue {
  enum class Kind {
    kNull,
    kBoolean,
    kNumber,
    kString,
    kFunction,
    kObject,
    kOther,  // a guest value of no kind above (e.g. SL's type meta-objects)
  };
  Kind kind = Kind::kNull;
  bool boolean = false;
  // kNumber. `is_integer`: an integer, of any size; `fits_int64`: it is
  // `int64`. `float64`: a floating-point number (is_integer false), or the
  // integer rounded to the nearest double.
  bool is_integer = true;
  bool fits_int64 = true;
  int64_t int64 = 0;
  double float64 = 0;
  // kString: the string. kNumber: the exact decimal form of a number
  // outside int64 (SL's arbitrary-precision numbers are only there), or
  // empty for an int64 (formatted when asked: DisplayText). Other kinds:
  // the language's display string of the value (what its print builtin
  // writes).
  std::string text;

  // `text`, or the decimal form of an int64 number.
  std::string DisplayText() const;

  static HostValue Null() { return HostValue{}; }
  static HostValue Boolean(bool value);
  static HostValue Int64(int64_t value);
  static HostValue Double(double value);
  static HostValue String(std::string value);
};

// The status of a guest's exit(n): Cancelled, carrying n.
absl::Status ExitStatus(int exit_code);
// n if `status` is an ExitStatus, else nothing.
std::optional<int> ExitStatusOf(const absl::Status& status);

// Translates the exception in flight (call inside a catch block) into a
// Status with the codes listed at the top of this file: GuestError ->
// Aborted, ResourceLimitError -> ResourceExhausted. Anything else is
// rethrown (a language translates its own exceptions before calling this).
absl::Status StatusOfCurrentGuestException();

// Where a guest error happened, when the language knows it (Truffle's
// PolyglotException.getSourceLocation): a payload of the error's Status
// (kGuestLocationPayload), set by the language, read by embedders with
// GuestLocationOf. The message still names the location in the language's
// own format.
struct GuestLocation {
  std::string source;  // the source's name, as given to Eval
  int line = 0;        // 1-based
  int column = 0;      // 1-based
  bool operator==(const GuestLocation&) const = default;
};
inline constexpr absl::string_view kGuestLocationPayload =
    "type.morel.dev/morel.api.GuestLocation";
void SetGuestLocation(absl::Status& status, const GuestLocation& location);
std::optional<GuestLocation> GuestLocationOf(const absl::Status& status);

// Where a context writes and reads (its language's print and read builtins).
struct ContextStreams {
  std::FILE* out = stdout;
  std::FILE* in = stdin;
};

// One running guest program's world on an Engine. Not thread-safe: the
// embedding API and the launcher call one context from one thread at a
// time (embedding.h states the rules).
class LanguageContext {
 public:
  virtual ~LanguageContext() = default;

  // Parses `text` (named `source_name` in messages: line and column are
  // counted in it) and defines what it defines (SL: registers its
  // functions, redefining existing ones). Runs no guest code in SL; a
  // language whose sources have top-level statements runs them here.
  // Returns the value the source evaluates to (null for SL).
  virtual absl::StatusOr<Value> Eval(absl::string_view text,
                                     absl::string_view source_name) = 0;

  // A launcher's program run: evaluates `text` as a whole program and runs
  // it (SL: Eval, then calls main() and prints its result unless null).
  virtual absl::Status RunProgram(absl::string_view text,
                                  absl::string_view source_name) = 0;

  // The guest function `name` as defined now, or NotFound.
  virtual absl::StatusOr<Value> LookupFunction(absl::string_view name) = 0;

  // Calls `callee` (a guest function value of this context) with `args`.
  virtual absl::StatusOr<Value> Call(const Value& callee,
                                     absl::Span<const Value> args) = 0;

  // The call target that a call of `function` runs now (null if it is
  // not a function or is undefined): for compilation queries.
  virtual CallTarget* CallTargetOf(const Value& function) = 0;

  // Host <-> guest conversion. FromHost takes kNull, kBoolean, kNumber
  // (int64, or a double if the language has them) and kString; anything
  // the language cannot represent is InvalidArgument.
  virtual HostValue ToHost(const Value& value) = 0;
  virtual absl::StatusOr<Value> FromHost(const HostValue& value) = 0;

  // Ends the context the way the language does at exit (SL: runs the
  // shutdown hooks, once). A guest error or exit(n) there is returned.
  virtual absl::Status Close() = 0;

  // The members of a guest object, for the embedding API (Truffle's interop
  // messages isMemberExisting, readMember, writeMember and getMembers).
  // `object` is a guest value of this context that ToHost calls kObject
  // (the API checks; a language still refuses other values, with
  // InvalidArgument), `value` a guest value of this context. Member names
  // are the language's property keys. Each behaves as the language's own
  // property access does: reading a member the object lacks is whatever
  // guest code gets (SL: the guest error "Undefined property: <name>",
  // Aborted), a guest error is a status like Call's. MemberKeys lists them
  // in the language's order (its documentation says which).
  //
  // A language without objects, or whose objects have no members, need
  // not override these: each returns Unimplemented ("this language's
  // objects have no members from the host").
  virtual absl::StatusOr<bool> HasMember(const Value& object, absl::string_view name);
  virtual absl::StatusOr<Value> ReadMember(const Value& object, absl::string_view name);
  virtual absl::Status WriteMember(const Value& object, absl::string_view name,
                                   const Value& value);
  virtual absl::StatusOr<std::vector<std::string>> MemberKeys(const Value& object);
};

// Truffle's language instance: what one language keeps per engine and
// shares between the engine's contexts (SL: parsed sources with their call
// targets and compiled code). Made by Language::CreateInstance before the
// engine's first context of the language, destroyed after its last one and
// before the engine closes. Used on the guest thread only.
class LanguageInstance {
 public:
  virtual ~LanguageInstance() = default;
};

class Language {
 public:
  virtual ~Language() = default;

  // The id: the launcher's name, the options' group (--<id>.<Name>) and the
  // registry key, e.g. "sl".
  virtual absl::string_view id() const = 0;
  // The human name, e.g. "SimpleLanguage".
  virtual absl::string_view name() const = 0;
  // The extension of its source files, with the dot, e.g. ".sl".
  virtual absl::string_view file_extension() const = 0;
  // What the launcher's --help says after its usage line: how a program
  // runs, one or more lines each ending in '\n'.
  virtual absl::string_view launcher_description() const = 0;

  // The options schema: a default instance of the language's own proto2
  // message, written like EngineConfig (engine/config/option_registry.h),
  // or null if the language has no options.
  virtual const google::protobuf::Message* options_prototype() const {
    return nullptr;
  }

  // The language's instance on an engine whose contexts share code
  // (LanguageInstance), or null if the language shares nothing (the
  // default: each context has its own code).
  virtual std::unique_ptr<LanguageInstance> CreateInstance(runtime::Engine& engine) const {
    return nullptr;
  }
  // A context on `engine`, which outlives it. `instance`: what
  // CreateInstance made for this engine, shared with its other contexts, or
  // null (a context with code of its own). `options` is a validated
  // message of options_prototype()'s type (null when the language has
  // none). `owns_engine`: the context is the engine's only one, and its
  // end may close the engine (the launcher; never with an instance);
  // otherwise the context must leave the engine usable by other contexts
  // when it dies.
  virtual absl::StatusOr<std::unique_ptr<LanguageContext>> CreateContext(
      runtime::Engine& engine, LanguageInstance* instance,
      const google::protobuf::Message* options, const ContextStreams& streams,
      bool owns_engine) const = 0;
};

// The languages of the process. Registration happens once per language, at
// static initialization (MOREL_REGISTER_LANGUAGE) or explicitly; lookups
// are thread-safe.
class LanguageRegistry {
 public:
  // Fails (AlreadyExists) if a language with the same id is registered.
  static absl::Status Register(std::unique_ptr<Language> language);
  // Null if none.
  static const Language* Find(absl::string_view id);
  // The language whose file extension `path` ends with, or null.
  static const Language* ForFile(absl::string_view path);
  // Every registered language, by id.
  static std::vector<const Language*> All();
};

// MOREL_REGISTER_LANGUAGE's registration: aborts with a message if the id
// is taken (two libraries registering one language is a build mistake).
bool RegisterLanguageAtStartup(std::unique_ptr<Language> language);

// Parses command-line settings "--<id>.<Name>=<value>" for `language` into
// a new options message (null when the language has no options and no
// setting is given). `settings` are what follows "--<id>.", in order (the
// last wins): "<Name>=<value>", or "<Name>" alone for a boolean option
// (true). Errors name the option and what it expects, exactly as engine
// options do (config::OptionRegistry::SetFromFlag): a bare "<Name>" of
// another type "needs a value".
absl::StatusOr<std::unique_ptr<google::protobuf::Message>> ParseLanguageOptions(
    const Language& language, absl::Span<const std::string> settings);
// Checks an embedder's options message against `language`'s schema and
// ranges.
absl::Status ValidateLanguageOptions(const Language& language,
                                     const google::protobuf::Message& options);
// The --help section of `language`'s options.
std::string LanguageOptionsHelpText(const Language& language);

}  // namespace morel::api

// Registers a Language subclass at static initialization; put it in an
// alwayslink library.
#define MOREL_REGISTER_LANGUAGE(Class)                   \
  static const bool morel_language_registered_##Class = \
      ::morel::api::RegisterLanguageAtStartup(std::make_unique<Class>())

#endif  // MOREL_ENGINE_API_LANGUAGE_H_
