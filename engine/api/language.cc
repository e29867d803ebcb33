#include "engine/api/language.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/config/option_registry.h"
#include "nodes/guest_error.h"

namespace morel::api {
namespace {

constexpr char kExitPayloadUrl[] = "type.morel/morel.api.GuestExit";

struct Registry {
  std::mutex lock;
  std::map<std::string, std::unique_ptr<Language>, std::less<>> languages;
};

Registry& GetRegistry() {
  static Registry* registry = new Registry();
  return *registry;
}

// One OptionRegistry per language with options, built on first use.
const config::OptionRegistry* OptionsOf(const Language& language) {
  const google::protobuf::Message* prototype = language.options_prototype();
  if (prototype == nullptr) return nullptr;
  static std::mutex lock;
  static auto* registries =
      new std::map<const Language*, std::unique_ptr<config::OptionRegistry>>();
  std::lock_guard<std::mutex> hold(lock);
  std::unique_ptr<config::OptionRegistry>& registry = (*registries)[&language];
  if (registry == nullptr) {
    registry = std::make_unique<config::OptionRegistry>(
        prototype->GetDescriptor(), std::string(language.id()));
  }
  return registry.get();
}

}  // namespace

HostValue HostValue::Boolean(bool value) {
  HostValue v;
  v.kind = Kind::kBoolean;
  v.boolean = value;
  v.text = value ? "true" : "false";
  return v;
}

HostValue HostValue::Int64(int64_t value) {
  HostValue v;
  v.kind = Kind::kNumber;
  v.int64 = value;
  v.float64 = static_cast<double>(value);
  return v;
}

std::string HostValue::DisplayText() const {
  if (kind == Kind::kNumber && is_integer && fits_int64) return absl::StrCat(int64);
  return text;
}

HostValue HostValue::Double(double value) {
  HostValue v;
  v.kind = Kind::kNumber;
  v.is_integer = false;
  v.fits_int64 = false;
  v.float64 = value;
  v.text = absl::StrCat(value);
  return v;
}

HostValue HostValue::String(std::string value) {
  HostValue v;
  v.kind = Kind::kString;
  v.text = std::move(value);
  return v;
}

absl::Status ExitStatus(int exit_code) {
  absl::Status status =
      absl::CancelledError(absl::StrCat("the guest called exit(", exit_code, ")"));
  status.SetPayload(kExitPayloadUrl, absl::Cord(absl::StrCat(exit_code)));
  return status;
}

std::optional<int> ExitStatusOf(const absl::Status& status) {
  if (status.code() != absl::StatusCode::kCancelled) return std::nullopt;
  auto payload = status.GetPayload(kExitPayloadUrl);
  int code;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &code)) {
    return std::nullopt;
  }
  return code;
}

void SetGuestLocation(absl::Status& status, const GuestLocation& location) {
  status.SetPayload(kGuestLocationPayload,
                    absl::Cord(absl::StrCat(location.line, ":", location.column, ":",
                                            location.source)));
}

std::optional<GuestLocation> GuestLocationOf(const absl::Status& status) {
  auto payload = status.GetPayload(kGuestLocationPayload);  // absl::optional<Cord>
  if (!payload.has_value()) return std::nullopt;
  // "line:column:source"; the source name may contain ':'.
  std::vector<std::string> parts =
      absl::StrSplit(std::string(*payload), absl::MaxSplits(':', 2));
  GuestLocation location;
  if (parts.size() != 3 || !absl::SimpleAtoi(parts[0], &location.line) ||
      !absl::SimpleAtoi(parts[1], &location.column)) {
    return std::nullopt;
  }
  location.source = std::move(parts[2]);
  return location;
}

absl::Status StatusOfCurrentGuestException() {
  try {
    throw;
  } catch (const ResourceLimitError& error) {
    return absl::ResourceExhaustedError(error.message());
  } catch (const GuestError& error) {
    return absl::AbortedError(error.message());
  }
}

namespace {

absl::Status NoMembers() {
  return absl::UnimplementedError("this language's objects have no members from the host");
}

}  // namespace

absl::StatusOr<bool> LanguageContext::HasMember(const Value&, absl::string_view) {
  return NoMembers();
}

absl::StatusOr<Value> LanguageContext::ReadMember(const Value&, absl::string_view) {
  return NoMembers();
}

absl::Status LanguageContext::WriteMember(const Value&, absl::string_view, const Value&) {
  return NoMembers();
}

absl::StatusOr<std::vector<std::string>> LanguageContext::MemberKeys(const Value&) {
  return NoMembers();
}

absl::Status LanguageRegistry::Register(std::unique_ptr<Language> language) {
  if (language == nullptr) return absl::InvalidArgumentError("null language");
  Registry& registry = GetRegistry();
  std::lock_guard<std::mutex> hold(registry.lock);
  std::string id(language->id());
  if (id.empty() || id == "engine") {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid language id '", id, "'"));
  }
  if (registry.languages.count(id) != 0) {
    return absl::AlreadyExistsError(
        absl::StrCat("language '", id, "' is already registered"));
  }
  registry.languages.emplace(id, std::move(language));
  return absl::OkStatus();
}

bool RegisterLanguageAtStartup(std::unique_ptr<Language> language) {
  std::string id(language->id());
  absl::Status status = LanguageRegistry::Register(std::move(language));
  if (!status.ok()) {
    absl::FPrintF(stderr, "cannot register language '%s': %s\n", id,
                  status.ToString());
    std::abort();
  }
  return true;
}

const Language* LanguageRegistry::Find(absl::string_view id) {
  Registry& registry = GetRegistry();
  std::lock_guard<std::mutex> hold(registry.lock);
  auto it = registry.languages.find(id);
  return it == registry.languages.end() ? nullptr : it->second.get();
}

const Language* LanguageRegistry::ForFile(absl::string_view path) {
  Registry& registry = GetRegistry();
  std::lock_guard<std::mutex> hold(registry.lock);
  for (const auto& [id, language] : registry.languages) {
    if (!language->file_extension().empty() &&
        absl::EndsWith(path, language->file_extension())) {
      return language.get();
    }
  }
  return nullptr;
}

std::vector<const Language*> LanguageRegistry::All() {
  Registry& registry = GetRegistry();
  std::lock_guard<std::mutex> hold(registry.lock);
  std::vector<const Language*> all;
  for (const auto& [id, language] : registry.languages) all.push_back(language.get());
  return all;
}

absl::StatusOr<std::unique_ptr<google::protobuf::Message>> ParseLanguageOptions(
    const Language& language, absl::Span<const std::string> settings) {
  // No settings: the defaults, without the registry (building it builds the
  // options' descriptors, a millisecond of every process's start-up).
  if (settings.empty()) {
    const google::protobuf::Message* prototype = language.options_prototype();
    if (prototype == nullptr) return std::unique_ptr<google::protobuf::Message>();
    return std::unique_ptr<google::protobuf::Message>(prototype->New());
  }
  const config::OptionRegistry* registry = OptionsOf(language);
  if (registry == nullptr) {
    absl::string_view name = absl::string_view(settings[0]).substr(0, settings[0].find('='));
    return absl::InvalidArgumentError(absl::StrCat("unknown option ", language.id(), ".",
                                                   name, " (language '", language.id(),
                                                   "' has no options)"));
  }
  std::unique_ptr<google::protobuf::Message> options(
      language.options_prototype()->New());
  for (const std::string& setting : settings) {
    if (absl::Status s = registry->SetFromFlag(*options, setting); !s.ok()) return s;
  }
  return options;
}

absl::Status ValidateLanguageOptions(const Language& language,
                                     const google::protobuf::Message& options) {
  const config::OptionRegistry* registry = OptionsOf(language);
  if (registry == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("language '", language.id(), "' has no options"));
  }
  return registry->Validate(options);
}

std::string LanguageOptionsHelpText(const Language& language) {
  const config::OptionRegistry* registry = OptionsOf(language);
  if (registry == nullptr) {
    return absl::StrCat(language.name(), " (", language.id(), ") has no options.\n");
  }
  return registry->HelpText();
}

}  // namespace morel::api
