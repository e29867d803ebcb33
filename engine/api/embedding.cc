#include "engine/api/embedding.h"

#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "engine/config/option_registry.h"
#include "engine/runtime/compiler.h"
#include "engine/runtime/native_tier.h"
#include "nodes/call_target.h"
#include "nodes/heap.h"

namespace morel::api {

// The runtime engine and its guest lock, shared by the api::Engine and its
// contexts: it dies with the last of them.
struct EngineCore {
  std::unique_ptr<runtime::Engine> engine;
  // Held while guest code runs or guest values are touched (the thread
  // rules of embedding.h).
  std::mutex guest_lock;
  // Each language's instance on this engine (Language::CreateInstance),
  // made with its first context; guarded by guest_lock.
  absl::flat_hash_map<const Language*, std::unique_ptr<LanguageInstance>> instances;
  ~EngineCore() {
    if (engine != nullptr) {
      heap::ScopedThreadRegistration registration;
      instances.clear();  // after every context, before the engine closes
      engine->Close();
      engine.reset();
    }
  }
};

struct ContextCore {
  std::shared_ptr<EngineCore> engine;
  const Language* language = nullptr;
  std::unique_ptr<LanguageContext> context;  // null once closed
};

// A guest value kept alive for the host: the slot is collector-root memory
// (heap::AllocateRoot), so the value survives collections for as long as a
// Value refers to the handle.
struct GuestHandle {
  std::weak_ptr<ContextCore> owner;
  morel::Value* slot = nullptr;

  GuestHandle(std::weak_ptr<ContextCore> context, const morel::Value& value)
      : owner(std::move(context)),
        slot(static_cast<morel::Value*>(heap::AllocateRoot(sizeof(morel::Value)))) {
    *slot = value;
  }
  ~GuestHandle() { heap::FreeRoot(slot); }
  GuestHandle(const GuestHandle&) = delete;
  GuestHandle& operator=(const GuestHandle&) = delete;
};

namespace {

const char* KindName(HostValue::Kind kind) {
  switch (kind) {
    case HostValue::Kind::kNull:
      return "null";
    case HostValue::Kind::kBoolean:
      return "a boolean";
    case HostValue::Kind::kNumber:
      return "a number";
    case HostValue::Kind::kString:
      return "a string";
    case HostValue::Kind::kFunction:
      return "a function";
    case HostValue::Kind::kObject:
      return "an object";
    case HostValue::Kind::kOther:
      return "a guest value";
  }
  return "a value";
}

absl::Status WrongKind(const HostValue& value, absl::string_view wanted) {
  return absl::InvalidArgumentError(
      absl::StrCat("expected ", wanted, ", got ", KindName(value.kind), " (",
                   value.DisplayText(), ")"));
}

absl::Status ClosedError() {
  return absl::FailedPreconditionError("the context is closed");
}

}  // namespace

// ---- Value

absl::StatusOr<int64_t> Value::AsInt64() const {
  if (!IsNumber()) return WrongKind(host_, "a number");
  if (!host_.is_integer || !host_.fits_int64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the number ", host_.DisplayText(), " does not fit in int64 (use NumberText)"));
  }
  return host_.int64;
}

absl::StatusOr<double> Value::AsDouble() const {
  if (!IsNumber()) return WrongKind(host_, "a number");
  return host_.float64;
}

absl::StatusOr<bool> Value::AsBoolean() const {
  if (!IsBoolean()) return WrongKind(host_, "a boolean");
  return host_.boolean;
}

absl::StatusOr<std::string> Value::AsString() const {
  if (!IsString()) return WrongKind(host_, "a string");
  return host_.text;
}

absl::StatusOr<std::string> Value::NumberText() const {
  if (!IsNumber()) return WrongKind(host_, "a number");
  return host_.DisplayText();
}

// ---- Engine

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(
    const config::EngineConfig& config) {
  if (absl::Status valid = config::OptionRegistry::Get().Validate(config); !valid.ok()) {
    return valid;
  }
  heap::ScopedThreadRegistration registration;
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine =
      runtime::Engine::Create(config);
  if (!engine.ok()) return engine.status();
  auto core = std::make_shared<EngineCore>();
  core->engine = *std::move(engine);
  return std::unique_ptr<Engine>(new Engine(std::move(core)));
}

Engine::~Engine() = default;

absl::StatusOr<std::unique_ptr<Context>> Engine::CreateContext(
    absl::string_view language_id, const ContextOptions& options) {
  const Language* language = LanguageRegistry::Find(language_id);
  if (language == nullptr) {
    std::string known;
    for (const Language* each : LanguageRegistry::All()) {
      absl::StrAppend(&known, known.empty() ? "" : ", ", each->id());
    }
    return absl::NotFoundError(absl::StrCat("no language '", language_id,
                                            "' is registered (registered: ",
                                            known.empty() ? "none" : known, ")"));
  }
  if (options.language_options != nullptr) {
    if (absl::Status valid = ValidateLanguageOptions(*language, *options.language_options);
        !valid.ok()) {
      return valid;
    }
  }
  heap::ScopedThreadRegistration registration;
  std::lock_guard<std::mutex> hold(core_->guest_lock);
  // The language's instance: every context of the language on this engine
  // shares it (and so its code: Truffle's code sharing).
  std::unique_ptr<LanguageInstance>& instance = core_->instances[language];
  if (instance == nullptr) instance = language->CreateInstance(*core_->engine);
  absl::StatusOr<std::unique_ptr<LanguageContext>> context =
      language->CreateContext(*core_->engine, instance.get(), options.language_options,
                              options.streams, /*owns_engine=*/false);
  if (!context.ok()) return context.status();
  auto core = std::make_shared<ContextCore>();
  core->engine = core_;
  core->language = language;
  core->context = *std::move(context);
  return std::unique_ptr<Context>(new Context(std::move(core)));
}

const config::EngineConfig& Engine::config() const { return core_->engine->config(); }

runtime::CompilationStatistics Engine::compilation_statistics() const {
  return core_->engine->compilation_statistics();
}

void Engine::WaitForCompilations() {
  heap::ScopedThreadRegistration registration;
  core_->engine->WaitForCompilations();
}

runtime::Engine& Engine::runtime() { return *core_->engine; }

// ---- Context

Context::~Context() {
  if (core_->context != nullptr) Close().IgnoreError();
}

const Language& Context::language() const { return *core_->language; }

Value Context::ToApi(const morel::Value& value) {
  Value result(core_->context->ToHost(value));
  // Plain data converts back to an equal guest value (FromHost); the rest
  // must stay the guest value itself.
  const HostValue& host = result.host_;
  bool plain = host.kind == HostValue::Kind::kNull || host.kind == HostValue::Kind::kBoolean ||
               host.kind == HostValue::Kind::kString ||
               (host.kind == HostValue::Kind::kNumber &&
                (!host.is_integer || host.fits_int64));
  if (!plain) result.handle_ = std::make_shared<GuestHandle>(core_, value);
  return result;
}

absl::StatusOr<morel::Value> Context::ToGuest(const Value& value) {
  if (value.handle_ != nullptr) {
    // Same control block as core_ (no lock(): no atomic increments per
    // argument); a closed or dead context never matches the live core_.
    const std::weak_ptr<ContextCore>& owner = value.handle_->owner;
    if (owner.owner_before(core_) || core_.owner_before(owner)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a guest value of another context (", value.ToString(),
          ") cannot be used in this one"));
    }
    return *value.handle_->slot;
  }
  return core_->context->FromHost(value.host_);
}

absl::StatusOr<morel::Value> Context::ObjectToGuest(const Value& object) {
  if (!object.IsObject()) return WrongKind(object.host_, "an object");
  return ToGuest(object);
}

template <typename F>
std::invoke_result_t<F&, LanguageContext&> Context::WithGuest(F&& body) {
  heap::ScopedThreadRegistration registration;
  std::lock_guard<std::mutex> hold(core_->engine->guest_lock);
  if (core_->context == nullptr) return ClosedError();
  return body(*core_->context);
}

absl::StatusOr<Value> Context::Eval(absl::string_view source,
                                    absl::string_view source_name) {
  return WithGuest([&](LanguageContext& guest) -> absl::StatusOr<Value> {
    absl::StatusOr<morel::Value> result = guest.Eval(source, source_name);
    if (!result.ok()) return result.status();
    return ToApi(*result);
  });
}

absl::StatusOr<Value> Context::GetFunction(absl::string_view name) {
  return WithGuest([&](LanguageContext& guest) -> absl::StatusOr<Value> {
    absl::StatusOr<morel::Value> function = guest.LookupFunction(name);
    if (!function.ok()) return function.status();
    return ToApi(*function);
  });
}

absl::StatusOr<Value> Context::Call(const Value& function,
                                    absl::Span<const Value> args) {
  return WithGuest([&](LanguageContext& guest) -> absl::StatusOr<Value> {
    if (!function.IsFunction()) return WrongKind(function.host_, "a function");
    absl::StatusOr<morel::Value> callee = ToGuest(function);
    if (!callee.ok()) return callee.status();
    // Converted arguments (a string just allocated, say) are referenced only
    // from here until the callee has them: on the stack, or in root memory
    // for many, where the collector sees them (ordinary heap memory it does
    // not scan).
    constexpr size_t kInlineArgs = 8;
    morel::Value inline_args[kInlineArgs];
    heap::TracedVector<morel::Value> many_args;
    morel::Value* guest_args = inline_args;
    if (args.size() > kInlineArgs) {
      many_args.resize(args.size());
      guest_args = many_args.data();
    }
    for (size_t i = 0; i < args.size(); ++i) {
      absl::StatusOr<morel::Value> arg = ToGuest(args[i]);
      if (!arg.ok()) {
        return absl::Status(arg.status().code(),
                            absl::StrCat("argument ", i + 1, ": ", arg.status().message()));
      }
      guest_args[i] = *arg;
    }
    absl::StatusOr<morel::Value> result =
        guest.Call(*callee, absl::Span<const morel::Value>(guest_args, args.size()));
    if (!result.ok()) return result.status();
    return ToApi(*result);
  });
}

absl::StatusOr<Context::CompilationState> Context::GetCompilationState(
    const Value& function) {
  return WithGuest([&](LanguageContext& guest) -> absl::StatusOr<CompilationState> {
    if (!function.IsFunction()) return WrongKind(function.host_, "a function");
    absl::StatusOr<morel::Value> callee = ToGuest(function);
    if (!callee.ok()) return callee.status();
    CallTarget* target = guest.CallTargetOf(*callee);
    if (target == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("the function ", function.ToString(), " is not defined"));
    }
    CompilationState state;
    state.call_target = target->name();
    state.calls = target->call_count();
    InstalledCode* code = target->installed_code();
    if (code != nullptr) {
      state.compiled = true;
      if (auto* native = dynamic_cast<runtime::NativeCode*>(code)) {
        state.machine_code = true;
        state.tier = native->compilation().tier;
      } else if (auto* ir = dynamic_cast<runtime::IrTierCode*>(code)) {
        state.tier = ir->compilation().tier;
      }
    }
    return state;
  });
}

absl::StatusOr<bool> Context::HasMember(const Value& object, absl::string_view name) {
  return WithGuest([&](LanguageContext& guest) -> absl::StatusOr<bool> {
    absl::StatusOr<morel::Value> guest_object = ObjectToGuest(object);
    if (!guest_object.ok()) return guest_object.status();
    return guest.HasMember(*guest_object, name);
  });
}

absl::StatusOr<Value> Context::GetMember(const Value& object, absl::string_view name) {
  return WithGuest([&](LanguageContext& guest) -> absl::StatusOr<Value> {
    absl::StatusOr<morel::Value> guest_object = ObjectToGuest(object);
    if (!guest_object.ok()) return guest_object.status();
    absl::StatusOr<morel::Value> member = guest.ReadMember(*guest_object, name);
    if (!member.ok()) return member.status();
    return ToApi(*member);
  });
}

absl::Status Context::PutMember(const Value& object, absl::string_view name,
                                const Value& value) {
  return WithGuest([&](LanguageContext& guest) -> absl::Status {
    absl::StatusOr<morel::Value> guest_object = ObjectToGuest(object);
    if (!guest_object.ok()) return guest_object.status();
    // On the stack, where the collector sees it, until the object has it.
    absl::StatusOr<morel::Value> guest_value = ToGuest(value);
    if (!guest_value.ok()) {
      return absl::Status(guest_value.status().code(),
                          absl::StrCat("the value of member '", name,
                                       "': ", guest_value.status().message()));
    }
    return guest.WriteMember(*guest_object, name, *guest_value);
  });
}

absl::StatusOr<std::vector<std::string>> Context::GetMemberKeys(const Value& object) {
  return WithGuest([&](LanguageContext& guest) -> absl::StatusOr<std::vector<std::string>> {
    absl::StatusOr<morel::Value> guest_object = ObjectToGuest(object);
    if (!guest_object.ok()) return guest_object.status();
    return guest.MemberKeys(*guest_object);
  });
}

absl::Status Context::Close() {
  return WithGuest([&](LanguageContext& guest) -> absl::Status {
    absl::Status closed = guest.Close();
    core_->context.reset();  // `guest` with it
    return closed;
  });
}

}  // namespace morel::api
