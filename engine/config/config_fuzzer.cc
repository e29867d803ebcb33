// Fuzz target (testing/fuzz): the engine-configuration parsers. The first
// byte chooses the surface, the rest is its input:
//   even: command-line flags, one argument per line; a line
//         "MOREL_OPTIONS=..." is the environment variable instead;
//   odd:  an --engine.Config text-format file.
// Any input must give a configuration or a status (never crash). A
// configuration that is accepted must pass validation and read back
// identically through the other surfaces: printed as flags
// (--engine.Name=value per set field) and as text format.
// `--engine.Config=<file>` arguments are dropped: they name files on disk,
// and the text format is fuzzed directly.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/config/config_loader.h"
#include "engine/config/engine_config.pb.h"
#include "engine/config/option_registry.h"
#include "google/protobuf/text_format.h"
#include "testing/fuzz/fuzz_target.h"

namespace morel::config {
namespace {

using google::protobuf::FieldDescriptor;

// Every set field of `config` as an --engine.Name=value flag.
std::vector<std::string> AsFlags(const EngineConfig& config) {
  std::vector<std::string> flags;
  const auto* reflection = config.GetReflection();
  for (const OptionInfo& option : OptionRegistry::Get().options()) {
    const FieldDescriptor* field = option.field;
    if (!reflection->HasField(config, field)) continue;
    std::string value;
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        value = absl::StrCat(reflection->GetInt32(config, field));
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        value = absl::StrCat(reflection->GetInt64(config, field));
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        value = absl::StrCat(reflection->GetUInt32(config, field));
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        value = absl::StrCat(reflection->GetUInt64(config, field));
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        value = absl::StrFormat("%.17g", reflection->GetDouble(config, field));
        break;
      case FieldDescriptor::CPPTYPE_FLOAT:
        value = absl::StrFormat("%.9g", reflection->GetFloat(config, field));
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        value = reflection->GetBool(config, field) ? "true" : "false";
        break;
      case FieldDescriptor::CPPTYPE_STRING:
        value = reflection->GetString(config, field);
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        value = reflection->GetEnum(config, field)->name();
        break;
      case FieldDescriptor::CPPTYPE_MESSAGE:
        continue;
    }
    flags.push_back(absl::StrCat("--engine.", option.name, "=", value));
  }
  return flags;
}

void CheckReadsBack(const EngineConfig& config, absl::string_view input) {
  if (absl::Status valid = OptionRegistry::Get().Validate(config); !valid.ok()) {
    fuzz::FuzzFailure("an accepted configuration validates",
                      absl::StrCat(valid.ToString(), "\ninput:\n", input));
  }
  const std::string expected = config.SerializeAsString();
  std::vector<std::string> flags = AsFlags(config);
  auto from_flags = ParseCommandLine(flags, std::nullopt);
  if (!from_flags.ok() || from_flags->config.SerializeAsString() != expected ||
      !from_flags->arguments.empty()) {
    fuzz::FuzzFailure(
        "an accepted configuration reads back from its flags",
        absl::StrCat(from_flags.ok() ? "different configuration" : from_flags.status().ToString(),
                     "\nflags:\n", absl::StrJoin(flags, "\n"), "\nconfig:\n",
                     config.DebugString()));
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(config, &text);
  auto from_text = ParseConfigText(text, "printed.textproto");
  if (!from_text.ok() || from_text->SerializeAsString() != expected) {
    fuzz::FuzzFailure(
        "an accepted configuration reads back from its text format",
        absl::StrCat(from_text.ok() ? "different configuration" : from_text.status().ToString(),
                     "\ntext:\n", text));
  }
}

}  // namespace
}  // namespace morel::config

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morel::config;
  if (size == 0) return 0;
  const absl::string_view input = morel::fuzz::AsText(data + 1, size - 1);
  if (data[0] % 2 == 1) {
    auto config = ParseConfigText(input, "fuzz.textproto");
    if (config.ok()) CheckReadsBack(*config, input);
    return 0;
  }
  std::vector<std::string> args;
  std::optional<std::string> environment;
  for (absl::string_view line : absl::StrSplit(input, '\n')) {
    if (absl::ConsumePrefix(&line, "MOREL_OPTIONS=")) {
      environment = std::string(line);
      continue;
    }
    // Files are not fuzzed here (see above); neither is a Config option
    // given through MOREL_OPTIONS, which is an error anyway.
    if (absl::StartsWith(line, "--engine.Config")) continue;
    args.emplace_back(line);
  }
  auto command_line = ParseCommandLine(args, environment);
  if (command_line.ok()) CheckReadsBack(command_line->config, input);
  return 0;
}
