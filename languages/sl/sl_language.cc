#include "languages/sl/sl_language.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/runtime/engine.h"
#include "languages/sl/builtins.h"
#include "languages/sl/nodes/property_nodes.h"
#include "languages/sl/runtime/sl_error.h"
#include "languages/sl/runtime/sl_function.h"
#include "languages/sl/runtime/sl_object.h"
#include "languages/sl/runtime/sl_string.h"
#include "languages/sl/runtime/value_printing.h"
#include "languages/sl/runtime/values.h"
#include "languages/sl/sl_context.h"
#include "languages/sl/options/sl_options.pb.h"
#include "languages/sl/sl_shared_code.h"
#include "nodes/guest_error.h"

namespace morel::sl {
namespace {

// Runs `body` (returning absl::Status or StatusOr), turning SL's exit(n)
// and guest errors into statuses (engine/api/language.h's codes).
template <typename R, typename F>
R Guarded(F&& body) {
  try {
    return body();
  } catch (const SLExit& exit) {
    return api::ExitStatus(exit.status());
  } catch (const SLError& error) {
    absl::Status status = api::StatusOfCurrentGuestException();
    if (error.line() > 0) {
      api::SetGuestLocation(status, {error.source_name(), error.line(), error.column()});
    }
    return status;
  } catch (const GuestError&) {
    return api::StatusOfCurrentGuestException();
  }
}

// SL's instance on an engine: the code its contexts share.
class SLInstance : public api::LanguageInstance {
 public:
  explicit SLInstance(runtime::Engine& engine) : code_(engine) {}
  SLSharedCode& code() { return code_; }

 private:
  SLSharedCode code_;
};

// A syntax error's status with its location attached as data (the message,
// "Error(s) parsing script:\n-- line L col C: ...", sl_spec §4.3, names it
// too).
absl::Status LocatedSyntaxError(absl::Status status, absl::string_view source_name) {
  constexpr absl::string_view kPrefix = "Error(s) parsing script:\n-- line ";
  absl::string_view message = status.message();
  if (status.code() != absl::StatusCode::kInvalidArgument ||
      !absl::ConsumePrefix(&message, kPrefix)) {
    return status;
  }
  int line = 0;
  int column = 0;
  size_t col = message.find(" col ");
  size_t colon = message.find(':');
  if (col == absl::string_view::npos || colon == absl::string_view::npos || colon < col ||
      !absl::SimpleAtoi(message.substr(0, col), &line) ||
      !absl::SimpleAtoi(message.substr(col + 5, colon - col - 5), &column)) {
    return status;
  }
  api::SetGuestLocation(status, {std::string(source_name), line, column});
  return status;
}

class SLLanguageContext : public api::LanguageContext {
 public:
  SLLanguageContext(runtime::Engine& engine, SLSharedCode* shared,
                    const api::ContextStreams& streams, bool owns_engine, bool use_bytecode)
      : context_(&engine, streams.out, streams.in, owns_engine, shared) {
    context_.set_use_bytecode(use_bytecode);
  }

  absl::StatusOr<Value> Eval(absl::string_view text, absl::string_view source_name) override {
    return Guarded<absl::StatusOr<Value>>([&]() -> absl::StatusOr<Value> {
      absl::Status loaded = context_.Load(text, source_name).status();
      if (!loaded.ok()) return LocatedSyntaxError(std::move(loaded), source_name);
      return NullValue();
    });
  }

  absl::Status RunProgram(absl::string_view text, absl::string_view source_name) override {
    return Guarded<absl::Status>([&]() -> absl::Status {
      absl::StatusOr<SLFunction*> main = context_.Load(text, source_name);
      if (!main.ok()) return LocatedSyntaxError(main.status(), source_name);
      if (*main == nullptr) {
        return absl::AbortedError("No function main() defined in SL source file.");
      }
      Value result = context_.Call(*main, {});
      if (!IsNull(result)) context_.Print(absl::StrCat(DisplayString(result), "\n"));
      return absl::OkStatus();
    });
  }

  absl::StatusOr<Value> LookupFunction(absl::string_view name) override {
    SLFunction* function = context_.functions().Find(name);
    if (function == nullptr || function->call_target() == nullptr) {
      return absl::NotFoundError(absl::StrCat("Undefined function: ", name));
    }
    return function->AsValue();
  }

  absl::StatusOr<Value> Call(const Value& callee, absl::Span<const Value> args) override {
    if (!IsFunction(callee)) {
      return absl::InvalidArgumentError(absl::StrCat("not a function: ", TypeErrorValue(callee)));
    }
    return Guarded<absl::StatusOr<Value>>([&]() -> absl::StatusOr<Value> {
      SLFunction* function = callee.As<SLFunction>();
      if (function->call_target() == nullptr) ThrowUndefinedFunction(callee);
      return context_.Call(function, args);
    });
  }

  CallTarget* CallTargetOf(const Value& function) override {
    return IsFunction(function) ? function.As<SLFunction>()->call_target() : nullptr;
  }

  api::HostValue ToHost(const Value& value) override {
    api::HostValue host;
    if (value.IsLong()) {  // the common case first: no text to format
      host.kind = api::HostValue::Kind::kNumber;
      host.int64 = value.AsLong();
      host.float64 = static_cast<double>(value.AsLong());
      return host;
    }
    host.text = DisplayString(value);
    if (IsNull(value)) {
      host.kind = api::HostValue::Kind::kNull;
    } else if (value.IsBoolean()) {
      host.kind = api::HostValue::Kind::kBoolean;
      host.boolean = value.AsBoolean();
    } else if (value.Is(kBigIntegerTag)) {
      // Normalized: always outside int64's range.
      host.kind = api::HostValue::Kind::kNumber;
      host.fits_int64 = false;
      host.float64 = std::strtod(host.text.c_str(), nullptr);
    } else if (IsString(value)) {
      host.kind = api::HostValue::Kind::kString;
    } else if (IsFunction(value)) {
      host.kind = api::HostValue::Kind::kFunction;
    } else if (IsObject(value)) {
      host.kind = api::HostValue::Kind::kObject;
    } else {
      host.kind = api::HostValue::Kind::kOther;
    }
    return host;
  }

  absl::StatusOr<Value> FromHost(const api::HostValue& value) override {
    switch (value.kind) {
      case api::HostValue::Kind::kNull:
        return NullValue();
      case api::HostValue::Kind::kBoolean:
        return Value::Boolean(value.boolean);
      case api::HostValue::Kind::kNumber:
        if (!value.is_integer) {
          return absl::InvalidArgumentError(
              absl::StrCat("SL has no floating-point numbers (got ", value.DisplayText(), ")"));
        }
        if (!value.fits_int64) {
          // Host-made numbers are int64 (HostValue::Int64); SL's big
          // numbers reach the host as guest values and come back as such.
          return absl::InvalidArgumentError(absl::StrCat(
              "an integer outside int64 (", value.DisplayText(), ") must be a guest value"));
        }
        return Value::Long(value.int64);
      case api::HostValue::Kind::kString:
        return StringValue(value.text);
      default:
        return absl::InvalidArgumentError(
            "only null, booleans, integers and strings convert to SL values");
    }
  }

  absl::Status Close() override {
    return Guarded<absl::Status>([&]() -> absl::Status {
      context_.RunShutdownHooks();
      return absl::OkStatus();
    });
  }

  // Members are properties (sl_spec §6.9), read and written by the
  // runtime functions the property nodes use: a member name is the key
  // String, so "1" is o[1] as in guest code.
  absl::StatusOr<bool> HasMember(const Value& object, absl::string_view name) override {
    if (absl::Status is_object = CheckObject(object); !is_object.ok()) return is_object;
    Value ignored;
    return object.As<SLObject>()->Get(name, &ignored);
  }

  absl::StatusOr<Value> ReadMember(const Value& object, absl::string_view name) override {
    if (absl::Status is_object = CheckObject(object); !is_object.ok()) return is_object;
    return Guarded<absl::StatusOr<Value>>([&]() -> absl::StatusOr<Value> {
      // "Undefined property: <name>" when absent. (The node argument only
      // names the caller; there is none.)
      return ReadPropertyGeneric(/*node=*/nullptr, object, StringValue(name));
    });
  }

  absl::Status WriteMember(const Value& object, absl::string_view name,
                           const Value& value) override {
    if (absl::Status is_object = CheckObject(object); !is_object.ok()) return is_object;
    return Guarded<absl::Status>([&]() -> absl::Status {
      WritePropertyGeneric(object, StringValue(name), value);
      return absl::OkStatus();
    });
  }

  // SLObject::Keys's order: array indices ascending, then the other keys
  // in the order they were added (byte order past Shape::kMaxProperties).
  absl::StatusOr<std::vector<std::string>> MemberKeys(const Value& object) override {
    if (absl::Status is_object = CheckObject(object); !is_object.ok()) return is_object;
    return object.As<SLObject>()->Keys();
  }

 private:
  static absl::Status CheckObject(const Value& value) {
    if (IsObject(value)) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat("not an object: ", TypeErrorValue(value)));
  }

  SLContext context_;
};

}  // namespace

absl::string_view SLLanguage::launcher_description() const {
  return "Runs a SimpleLanguage program: registers its functions and calls "
         "main().\n"
         "Reads the program from standard input when no file is given.\n";
}

std::unique_ptr<api::LanguageInstance> SLLanguage::CreateInstance(runtime::Engine& engine) const {
  return std::make_unique<SLInstance>(engine);
}

const google::protobuf::Message* SLLanguage::options_prototype() const {
  return &SLOptions::default_instance();
}

absl::StatusOr<std::unique_ptr<api::LanguageContext>> SLLanguage::CreateContext(
    runtime::Engine& engine, api::LanguageInstance* instance,
    const google::protobuf::Message* options, const api::ContextStreams& streams,
    bool owns_engine) const {
  SLOptions parsed;
  if (options != nullptr) parsed.CopyFrom(*options);
  SLSharedCode* shared = nullptr;
  if (instance != nullptr) {
    shared = &static_cast<SLInstance*>(instance)->code();
    if (owns_engine || &shared->engine() != &engine) {
      return absl::InvalidArgumentError(
          "a context of shared code neither owns its engine nor uses another's "
          "instance");
    }
    // Contexts of one engine share code: one interpreter for all of them
    // (Truffle SL: the option is read when a context is created, and
    // contexts sharing an engine must agree on it).
    if (shared->contexts_created() > 0 && shared->use_bytecode() != parsed.use_bytecode()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "option sl.UseBytecode: ", parsed.use_bytecode() ? "true" : "false",
          ", but the engine's other contexts use ", shared->use_bytecode() ? "true" : "false",
          " (contexts sharing an engine agree on it)"));
    }
    shared->set_use_bytecode(parsed.use_bytecode());
    shared->NoteContextCreated();
  }
  return std::make_unique<SLLanguageContext>(engine, shared, streams, owns_engine,
                                             parsed.use_bytecode());
}

}  // namespace morel::sl
