// morel_config: prints the effective engine configuration for the options it
// is given (MOREL_OPTIONS, --engine.Config=file, --engine.Name=value), one
// "engine.Name = value" line per option, marking the ones that differ from
// the schema default. --help prints every option. A bad option prints one
// line naming it and exits with status 2.

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/config/config_loader.h"
#include "engine/config/option_registry.h"
#include "google/protobuf/text_format.h"

int main(int argc, char** argv) {
  using morel::config::OptionRegistry;
  absl::StatusOr<morel::config::CommandLine> command_line =
      morel::config::ParseCommandLine(argc, argv);
  if (!command_line.ok()) {
    absl::FPrintF(stderr, "morel_config: %s\n", command_line.status().message());
    return morel::config::kConfigErrorExitCode;
  }
  if (command_line->help) {
    absl::PrintF("%s", morel::config::EngineHelpText());
    return 0;
  }
  if (!command_line->arguments.empty()) {
    absl::FPrintF(stderr,
                  "morel_config: unexpected argument '%s' (only --engine.* "
                  "options and --help are accepted)\n",
                  command_line->arguments.front());
    return morel::config::kConfigErrorExitCode;
  }
  const auto& config = command_line->config;
  const auto* reflection = config.GetReflection();
  for (const auto& option : OptionRegistry::Get().options()) {
    std::string value;
    google::protobuf::TextFormat::PrintFieldValueToString(config, option.field,
                                                          -1, &value);
    absl::PrintF("engine.%s = %s%s\n", option.name, value,
                 reflection->HasField(config, option.field) ? "  (set)" : "");
  }
  return 0;
}
