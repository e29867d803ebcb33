#include "engine/config/option_registry.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/check.h"

namespace morel::config {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Reflection;

// Words written in upper case in option names (Truffle spells OSRCompilationThreshold).
bool IsAcronym(absl::string_view word) {
  return word == "osr" || word == "ir" || word == "ast" || word == "gc" || word == "cpu";
}

// What a quantity option accepts, for error messages.
std::string QuantitySyntax(OptionSpec::Unit unit) {
  return unit == OptionSpec::DURATION ? "a duration such as 500ms, 10s, 2m, 1h or 1d"
                                      : "a size such as 4096B, 64KB, 100MB or 2GB";
}

std::string FormatDouble(double value) {
  std::string text = absl::StrFormat("%g", value);
  return text;
}

size_t EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      size_t substitute =
          diagonal + (absl::ascii_tolower(a[i - 1]) ==
                              absl::ascii_tolower(b[j - 1])
                          ? 0
                          : 1);
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

const char* CategoryTitle(OptionSpec::Category category) {
  switch (category) {
    case OptionSpec::USER:
      return "User options";
    case OptionSpec::EXPERT:
      return "Expert options (compiler and runtime tuning)";
    case OptionSpec::DEBUG:
      return "Debug options (tracing, dumps, stress modes)";
  }
  return "Options";
}

// Appends `text` to `out`, wrapped at `width` columns, every line indented.
void AppendWrapped(std::string& out, absl::string_view text, int indent,
                   int width) {
  std::string line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() && indent + line.size() + 1 + word.size() >
                             static_cast<size_t>(width)) {
      absl::StrAppend(&out, std::string(indent, ' '), line, "\n");
      line.clear();
    }
    if (!line.empty()) line += ' ';
    absl::StrAppend(&line, word);
  }
  if (!line.empty()) absl::StrAppend(&out, std::string(indent, ' '), line, "\n");
}

// A schema field without what every option needs is a bug in the schema,
// not bad input.
void CheckOption(bool condition, const google::protobuf::FieldDescriptor* field) {
  MOREL_CHECK_MSG(condition,
                  absl::StrCat(field->file()->name(), ": field ", field->full_name(),
                               " needs a (morel.config.option) annotation and must be a "
                               "singular scalar or enum"));
}

}  // namespace

std::string FieldNameToOptionName(absl::string_view field_name) {
  std::string name;
  for (absl::string_view word : absl::StrSplit(field_name, '_', absl::SkipEmpty())) {
    if (IsAcronym(word)) {
      absl::StrAppend(&name, absl::AsciiStrToUpper(word));
    } else {
      std::string part(word);
      part[0] = absl::ascii_toupper(part[0]);
      absl::StrAppend(&name, part);
    }
  }
  return name;
}

std::string OptionInfo::TypeName() const {
  if (field->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
    std::vector<std::string> names;
    const auto* type = field->enum_type();
    for (int i = 0; i < type->value_count(); ++i) {
      names.push_back(type->value(i)->name());
    }
    return absl::StrJoin(names, "|");
  }
  if (spec.has_usage()) return spec.usage();
  return field->cpp_type_name();
}

std::string OptionInfo::DefaultText() const {
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_BOOL:
      return field->default_value_bool() ? "true" : "false";
    case FieldDescriptor::CPPTYPE_INT32:
      return absl::StrCat(field->default_value_int32());
    case FieldDescriptor::CPPTYPE_INT64:
      return absl::StrCat(field->default_value_int64());
    case FieldDescriptor::CPPTYPE_UINT32:
      return absl::StrCat(field->default_value_uint32());
    case FieldDescriptor::CPPTYPE_UINT64:
      return absl::StrCat(field->default_value_uint64());
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return FormatDouble(field->default_value_double());
    case FieldDescriptor::CPPTYPE_FLOAT:
      return FormatDouble(field->default_value_float());
    case FieldDescriptor::CPPTYPE_STRING:
      return field->default_value_string();
    case FieldDescriptor::CPPTYPE_ENUM:
      return field->default_value_enum()->name();
    case FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  return "";
}

const OptionRegistry& OptionRegistry::Get() {
  static const OptionRegistry* registry =
      new OptionRegistry(EngineConfig::descriptor(), "engine");
  return *registry;
}

OptionRegistry::OptionRegistry(const google::protobuf::Descriptor* schema,
                               std::string group)
    : schema_(schema), group_(std::move(group)) {
  const auto* descriptor = schema;
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor* field = descriptor->field(i);
    // The schema is ours: a field without metadata, a repeated or a message
    // field is a mistake in engine_config.proto, caught by every test.
    CheckOption(field->options().HasExtension(option), field);
    CheckOption(!field->is_repeated() &&
                    field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE,
                field);
    options_.push_back(OptionInfo{FieldNameToOptionName(field->name()), field,
                                  field->options().GetExtension(option)});
  }
}

const OptionInfo* OptionRegistry::Find(absl::string_view name) const {
  for (const OptionInfo& option : options_) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

std::string OptionRegistry::Suggest(absl::string_view name) const {
  const OptionInfo* best = nullptr;
  size_t best_distance = std::numeric_limits<size_t>::max();
  for (const OptionInfo& option : options_) {
    size_t distance = EditDistance(name, option.name);
    if (distance < best_distance) {
      best_distance = distance;
      best = &option;
    }
  }
  size_t tolerance = std::max<size_t>(2, name.size() / 3);
  if (best == nullptr || best_distance > tolerance) return "";
  return best->name;
}

absl::Status OptionRegistry::CheckRange(const OptionInfo& option,
                                        double value) const {
  bool too_small = option.spec.has_min() && value < option.spec.min();
  bool too_large = option.spec.has_max() && value > option.spec.max();
  if (!too_small && !too_large) return absl::OkStatus();
  std::string expected;
  if (option.spec.has_min() && option.spec.has_max()) {
    expected = absl::StrCat("between ", FormatDouble(option.spec.min()),
                            " and ", FormatDouble(option.spec.max()));
  } else if (option.spec.has_min()) {
    expected = absl::StrCat(">= ", FormatDouble(option.spec.min()));
  } else {
    expected = absl::StrCat("<= ", FormatDouble(option.spec.max()));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("option ", group_, ".", option.name, ": value ",
                   FormatDouble(value), " is out of range (expected ",
                   expected, ")"));
}

absl::Status OptionRegistry::CheckQuantity(const OptionInfo& option,
                                           absl::string_view value) const {
  absl::StatusOr<int64_t> parsed = ParseQuantity(option.spec.unit(), value);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "option ", group_, ".", option.name, ": invalid value '", value, "' (expected ",
        QuantitySyntax(option.spec.unit()), ", or empty for no limit)"));
  }
  if (*parsed >= 0 && option.spec.has_min() && *parsed < option.spec.min()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "option ", group_, ".", option.name, ": value '", value, "' is out of range (expected at least ",
        FormatDouble(option.spec.min()),
        option.spec.unit() == OptionSpec::DURATION ? "ms" : "B", ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ParseQuantity(OptionSpec::Unit unit, absl::string_view text) {
  if (text.empty()) return -1;
  size_t digits = 0;
  while (digits < text.size() && absl::ascii_isdigit(text[digits])) ++digits;
  absl::string_view suffix = text.substr(digits);
  int64_t number;
  if (digits == 0 || digits > 15 || !absl::SimpleAtoi(text.substr(0, digits), &number)) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not ", QuantitySyntax(unit)));
  }
  int64_t scale = 0;
  if (unit == OptionSpec::DURATION) {
    if (suffix == "ms") scale = 1;
    if (suffix == "s") scale = 1000;
    if (suffix == "m") scale = 60 * 1000;
    if (suffix == "h") scale = 60 * 60 * 1000;
    if (suffix == "d") scale = 24 * 60 * 60 * 1000;
  } else if (unit == OptionSpec::BYTE_SIZE) {
    if (suffix == "B") scale = 1;
    if (suffix == "KB") scale = int64_t{1} << 10;
    if (suffix == "MB") scale = int64_t{1} << 20;
    if (suffix == "GB") scale = int64_t{1} << 30;
  }
  // 15 digits times at most 2^36 (1d in ms is < 2^27; 1 GB is 2^30) would
  // overflow; cap the product well inside int64.
  if (scale == 0 || number > (int64_t{1} << 62) / scale) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not ", QuantitySyntax(unit)));
  }
  return number * scale;
}

absl::Status OptionRegistry::SetFromFlag(google::protobuf::Message& config,
                                         absl::string_view setting) const {
  size_t equals = setting.find('=');
  if (equals != absl::string_view::npos) {
    return Set(config, setting.substr(0, equals), setting.substr(equals + 1));
  }
  const OptionInfo* option = Find(setting);
  if (option != nullptr && option->field->cpp_type() != FieldDescriptor::CPPTYPE_BOOL) {
    return absl::InvalidArgumentError(absl::StrCat("option ", group_, ".", setting,
                                                   " needs a value: --", group_, ".",
                                                   setting, "=<", option->TypeName(), ">"));
  }
  return Set(config, setting, "true");
}

absl::Status OptionRegistry::Set(google::protobuf::Message& config,
                                 absl::string_view name,
                                 absl::string_view value) const {
  if (absl::Status s = CheckSchema(config); !s.ok()) return s;
  const OptionInfo* option = Find(name);
  if (option == nullptr) {
    std::string message = absl::StrCat("unknown option ", group_, ".", name);
    std::string suggestion = Suggest(name);
    if (!suggestion.empty()) {
      absl::StrAppend(&message, "; did you mean ", group_, ".", suggestion, "?");
    } else {
      absl::StrAppend(&message, " (--help lists every option)");
    }
    return absl::InvalidArgumentError(message);
  }
  const FieldDescriptor* field = option->field;
  const Reflection* reflection = config.GetReflection();
  auto invalid = [&](absl::string_view expected) {
    return absl::InvalidArgumentError(
        absl::StrCat("option ", group_, ".", option->name, ": invalid value '",
                     value, "' (expected ", expected, ")"));
  };
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_BOOL: {
      if (absl::EqualsIgnoreCase(value, "true")) {
        reflection->SetBool(&config, field, true);
      } else if (absl::EqualsIgnoreCase(value, "false")) {
        reflection->SetBool(&config, field, false);
      } else {
        return invalid("true or false");
      }
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_INT32: {
      int64_t parsed;
      if (!absl::SimpleAtoi(value, &parsed) ||
          parsed < std::numeric_limits<int32_t>::min() ||
          parsed > std::numeric_limits<int32_t>::max()) {
        return invalid("a 32-bit integer");
      }
      if (absl::Status s = CheckRange(*option, parsed); !s.ok()) return s;
      reflection->SetInt32(&config, field, static_cast<int32_t>(parsed));
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      int64_t parsed;
      if (!absl::SimpleAtoi(value, &parsed)) return invalid("a 64-bit integer");
      if (absl::Status s = CheckRange(*option, static_cast<double>(parsed));
          !s.ok()) {
        return s;
      }
      reflection->SetInt64(&config, field, parsed);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      double parsed;
      if (!absl::SimpleAtod(value, &parsed) || !std::isfinite(parsed)) {
        return invalid("a finite number");
      }
      if (absl::Status s = CheckRange(*option, parsed); !s.ok()) return s;
      reflection->SetDouble(&config, field, parsed);
      return absl::OkStatus();
    }
    case FieldDescriptor::CPPTYPE_STRING:
      if (option->spec.unit() != OptionSpec::NO_UNIT) {
        if (absl::Status s = CheckQuantity(*option, value); !s.ok()) return s;
      }
      reflection->SetString(&config, field, std::string(value));
      return absl::OkStatus();
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto* type = field->enum_type();
      for (int i = 0; i < type->value_count(); ++i) {
        if (absl::EqualsIgnoreCase(type->value(i)->name(), value)) {
          reflection->SetEnum(&config, field, type->value(i));
          return absl::OkStatus();
        }
      }
      std::vector<std::string> names;
      for (int i = 0; i < type->value_count(); ++i) {
        names.push_back(type->value(i)->name());
      }
      return invalid(absl::StrCat("one of ", absl::StrJoin(names, ", ")));
    }
    default:
      break;
  }
  return absl::InternalError(
      absl::StrCat("option ", group_, ".", option->name, " has an unsupported type"));
}

absl::Status OptionRegistry::CheckSchema(
    const google::protobuf::Message& config) const {
  if (config.GetDescriptor() == schema_) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(group_, " options are a ", schema_->full_name(),
                   ", not a ", config.GetDescriptor()->full_name()));
}

absl::Status OptionRegistry::Validate(
    const google::protobuf::Message& config) const {
  if (absl::Status s = CheckSchema(config); !s.ok()) return s;
  const Reflection* reflection = config.GetReflection();
  for (const OptionInfo& option : options_) {
    if (!reflection->HasField(config, option.field)) continue;
    double value;
    switch (option.field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        value = reflection->GetInt32(config, option.field);
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        value = static_cast<double>(reflection->GetInt64(config, option.field));
        break;
      case FieldDescriptor::CPPTYPE_STRING:
        if (option.spec.unit() != OptionSpec::NO_UNIT) {
          absl::Status s =
              CheckQuantity(option, reflection->GetString(config, option.field));
          if (!s.ok()) return s;
        }
        continue;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        value = reflection->GetDouble(config, option.field);
        if (!std::isfinite(value)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "option ", group_, ".", option.name, ": value must be finite"));
        }
        break;
      default:
        continue;
    }
    if (absl::Status s = CheckRange(option, value); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::string OptionRegistry::HelpText() const {
  std::string out =
      group_ != "engine"
          ? absl::StrCat(
                schema_->full_name(), " options of language '", group_,
                "'. Set them as --", group_, ".<Name>=<value> (a bare --",
                group_, ".<Name> sets a boolean option to true), or in an "
                "embedder's options message.\n")
          : "Engine options. Set them as --engine.<Name>=<value> (a bare "
      "--engine.<Name> sets a boolean option to true), in the MOREL_OPTIONS "
      "environment variable (the same syntax, separated by spaces), or in a "
      "text-format EngineConfig file named by --engine.Config=<file.textproto>. "
      "Precedence, lowest first: defaults, MOREL_OPTIONS, the config file, "
      "command-line flags, an embedder's EngineConfig.\n";
  if (options_.empty()) absl::StrAppend(&out, "(none)\n");
  std::string wrapped;
  AppendWrapped(wrapped, out, 0, 80);
  out = wrapped;
  for (OptionSpec::Category category :
       {OptionSpec::USER, OptionSpec::EXPERT, OptionSpec::DEBUG}) {
    std::vector<const OptionInfo*> in_category;
    for (const OptionInfo& option : options_) {
      if (option.spec.category() == category) in_category.push_back(&option);
    }
    if (in_category.empty() && group_ != "engine") continue;
    std::sort(in_category.begin(), in_category.end(),
              [](const OptionInfo* a, const OptionInfo* b) {
                return a->name < b->name;
              });
    absl::StrAppend(&out, "\n", CategoryTitle(category), ":\n");
    for (const OptionInfo* option : in_category) {
      std::string default_text = option->DefaultText();
      absl::StrAppend(&out, "  --", group_, ".", option->name, "=<",
                      option->TypeName(), ">  (default: ",
                      default_text.empty() ? "not set" : default_text, ")\n");
      std::string help = option->spec.help();
      if ((option->spec.has_min() || option->spec.has_max()) &&
          option->spec.unit() == OptionSpec::NO_UNIT) {
        absl::StrAppend(&help, " Range: ",
                        option->spec.has_min() ? FormatDouble(option->spec.min())
                                               : "",
                        "..",
                        option->spec.has_max() ? FormatDouble(option->spec.max())
                                               : "",
                        ".");
      }
      AppendWrapped(out, help, 6, 80);
    }
  }
  return out;
}

}  // namespace morel::config
