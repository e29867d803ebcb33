#include "engine/config/config_loader.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/config/option_registry.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

namespace morel::config {
namespace {

constexpr absl::string_view kEnginePrefix = "--engine.";
constexpr absl::string_view kConfigOption = "Config";

// Keeps the first error protobuf's text parser reports, with its position.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (has_error_) return;
    has_error_ = true;
    line_ = line;
    column_ = column;
    message_ = message;
  }

  bool has_error() const { return has_error_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  bool has_error_ = false;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

// Protobuf names unknown fields as `... has no field named "x".`; point at the
// closest real field, since typos are the usual cause.
std::string FieldSuggestion(const std::string& message) {
  constexpr char kMarker[] = "has no field named \"";
  size_t start = message.find(kMarker);
  if (start == std::string::npos) return "";
  start += sizeof(kMarker) - 1;
  size_t end = message.find('"', start);
  if (end == std::string::npos) return "";
  std::string unknown = message.substr(start, end - start);
  // Suggest() works on option names; map the field name both ways.
  std::string suggestion =
      OptionRegistry::Get().Suggest(FieldNameToOptionName(unknown));
  if (suggestion.empty()) return "";
  const OptionInfo* option = OptionRegistry::Get().Find(suggestion);
  return absl::StrCat(" Did you mean ", option->field->name(), "?");
}

// Applies one "--engine.Name[=value]" token (prefix already checked).
absl::Status ApplyFlag(EngineConfig& config, absl::string_view token) {
  return OptionRegistry::Get().SetFromFlag(config, token.substr(kEnginePrefix.size()));
}

bool IsConfigFlag(absl::string_view token) {
  absl::string_view body = token.substr(kEnginePrefix.size());
  return body == kConfigOption ||
         absl::StartsWith(body, absl::StrCat(kConfigOption, "="));
}

absl::Status WithPrefix(absl::string_view prefix, const absl::Status& status) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(prefix, status.message()));
}

}  // namespace

absl::StatusOr<EngineConfig> ParseConfigText(absl::string_view text,
                                             absl::string_view file_name) {
  EngineConfig config;
  FirstErrorCollector errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  bool parsed = parser.ParseFromString(std::string(text), &config);
  if (!parsed || errors.has_error()) {
    std::string message =
        errors.has_error() ? errors.message() : "malformed EngineConfig";
    // Quote the offending line: protobuf's messages do not always name the
    // field ("Expected integer, got: abc"). "Invalid value for ..." errors are
    // reported at the token after the value, which may start the next line;
    // point back at the line holding the value.
    std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
    int line = errors.line();
    int column = errors.column();
    if (absl::StartsWith(message, "Invalid value for")) {
      while (line > 0 && line < static_cast<int>(lines.size()) &&
             absl::StripAsciiWhitespace(lines[line].substr(0, column)).empty()) {
        --line;
        // The value is the line's last token.
        absl::string_view text_line = absl::StripTrailingAsciiWhitespace(lines[line]);
        size_t space = text_line.find_last_of(" \t:");
        column = space == absl::string_view::npos ? 0 : static_cast<int>(space + 1);
      }
    }
    std::string quoted;
    if (line >= 0 && line < static_cast<int>(lines.size()) &&
        !absl::StripAsciiWhitespace(lines[line]).empty()) {
      quoted = absl::StrCat(" (in \"", absl::StripAsciiWhitespace(lines[line]),
                            "\")");
    }
    return absl::InvalidArgumentError(
        absl::StrCat(file_name, ":", line + 1, ":", column + 1, ": ", message,
                     FieldSuggestion(message), quoted));
  }
  if (absl::Status status = OptionRegistry::Get().Validate(config);
      !status.ok()) {
    return WithPrefix(absl::StrCat(file_name, ": "), status);
  }
  return config;
}

absl::StatusOr<EngineConfig> ReadConfigFile(const std::string& path) {
  if (path.empty()) {
    return absl::InvalidArgumentError(
        "option engine.Config needs a file: --engine.Config=<file.textproto>");
  }
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("option engine.Config: cannot read '",
                                            path, "': ", std::strerror(errno)));
  }
  std::stringstream contents;
  contents << in.rdbuf();
  if (in.bad()) {
    return absl::DataLossError(
        absl::StrCat("option engine.Config: error reading '", path, "'"));
  }
  return ParseConfigText(contents.str(), path);
}

absl::StatusOr<EngineConfig> BuildEngineConfig(const ConfigSources& sources) {
  EngineConfig result;
  if (sources.environment.has_value()) {
    for (absl::string_view token :
         absl::StrSplit(*sources.environment, absl::ByAnyChar(" \t\n"),
                        absl::SkipEmpty())) {
      std::string prefix = absl::StrCat(kOptionsEnvironmentVariable, ": ");
      if (!absl::StartsWith(token, kEnginePrefix)) {
        return absl::InvalidArgumentError(
            absl::StrCat(prefix, "'", token,
                         "' is not an engine option (expected "
                         "--engine.<Name>=<value>)"));
      }
      if (IsConfigFlag(token)) {
        return absl::InvalidArgumentError(absl::StrCat(
            prefix, "engine.Config is accepted only on the command line"));
      }
      if (absl::Status s = ApplyFlag(result, token); !s.ok()) {
        return WithPrefix(prefix, s);
      }
    }
  }
  // Config files come next in precedence, whatever their position among the
  // flags; several files apply in order.
  for (const std::string& flag : sources.flags) {
    if (!IsConfigFlag(flag)) continue;
    absl::string_view body = absl::string_view(flag).substr(kEnginePrefix.size());
    std::string path(body.size() > kConfigOption.size()
                         ? body.substr(kConfigOption.size() + 1)
                         : "");
    absl::StatusOr<EngineConfig> file = ReadConfigFile(path);
    if (!file.ok()) return file.status();
    result.MergeFrom(*file);
  }
  EngineConfig from_flags;
  for (const std::string& flag : sources.flags) {
    if (!absl::StartsWith(flag, kEnginePrefix)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", flag, "' is not an engine option"));
    }
    if (IsConfigFlag(flag)) continue;
    if (absl::Status s = ApplyFlag(from_flags, flag); !s.ok()) return s;
  }
  result.MergeFrom(from_flags);
  if (sources.embedder != nullptr) {
    if (absl::Status s = OptionRegistry::Get().Validate(*sources.embedder);
        !s.ok()) {
      return WithPrefix("embedder EngineConfig: ", s);
    }
    result.MergeFrom(*sources.embedder);
  }
  return result;
}

absl::StatusOr<CommandLine> ParseCommandLine(
    absl::Span<const std::string> args, std::optional<std::string> environment,
    const EngineConfig* embedder) {
  CommandLine command_line;
  ConfigSources sources;
  sources.environment = std::move(environment);
  sources.embedder = embedder;
  bool options_ended = false;
  for (const std::string& arg : args) {
    if (options_ended) {
      command_line.arguments.push_back(arg);
    } else if (arg == "--") {
      options_ended = true;
    } else if (arg == "--help" || arg == "--help:engine") {
      command_line.help = true;
    } else if (absl::StartsWith(arg, kEnginePrefix)) {
      sources.flags.push_back(arg);
    } else {
      command_line.arguments.push_back(arg);
    }
  }
  absl::StatusOr<EngineConfig> config = BuildEngineConfig(sources);
  if (!config.ok()) return config.status();
  command_line.config = *std::move(config);
  return command_line;
}

absl::StatusOr<CommandLine> ParseCommandLine(int argc,
                                             const char* const* argv) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  std::optional<std::string> environment;
  if (const char* value = std::getenv(kOptionsEnvironmentVariable)) {
    environment = value;
  }
  return ParseCommandLine(args, std::move(environment));
}

std::string EngineHelpText() { return OptionRegistry::Get().HelpText(); }

}  // namespace morel::config
