#ifndef MOREL_ENGINE_CONFIG_CONFIG_LOADER_H_
#define MOREL_ENGINE_CONFIG_CONFIG_LOADER_H_

// Builds the effective EngineConfig from its sources, in increasing
// precedence (DESIGN §3):
//   1. schema defaults (engine_config.proto);
//   2. the MOREL_OPTIONS environment variable: "--engine.Name=value" tokens
//      separated by whitespace;
//   3. --engine.Config=file.textproto: a text-format EngineConfig, only the
//      fields it sets;
//   4. --engine.Name=value flags (--engine.Name alone sets a boolean to true);
//   5. an EngineConfig given by an embedder: the fields it sets.
// Any error (unknown option, bad value, out of range, unreadable or malformed
// file) is an absl::Status naming the option or file and line; no partially
// applied configuration is ever returned.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/config/engine_config.pb.h"

namespace morel::config {

// The name of the environment variable read by ParseCommandLine.
inline constexpr char kOptionsEnvironmentVariable[] = "MOREL_OPTIONS";

// Exit status of a launcher whose configuration is rejected.
inline constexpr int kConfigErrorExitCode = 2;

struct ConfigSources {
  // The value of MOREL_OPTIONS, if set.
  std::optional<std::string> environment;
  // Command-line arguments starting with "--engine.", in order. At most the
  // "--engine.Config=<path>" ones name files; the file is read from disk.
  std::vector<std::string> flags;
  // Fields set here win over every other source.
  const EngineConfig* embedder = nullptr;
};

absl::StatusOr<EngineConfig> BuildEngineConfig(const ConfigSources& sources);

// Parses a text-format EngineConfig. Errors read "<file_name>:<line>:<col>: ...".
absl::StatusOr<EngineConfig> ParseConfigText(absl::string_view text,
                                             absl::string_view file_name);

// Reads and parses a text-format EngineConfig file.
absl::StatusOr<EngineConfig> ReadConfigFile(const std::string& path);

// What a launcher gets from its command line.
struct CommandLine {
  EngineConfig config;
  // Arguments that are neither engine options nor help requests, in order.
  std::vector<std::string> arguments;
  // "--help" or "--help:engine" was given: print EngineHelpText() and exit.
  bool help = false;
};

// Splits `args` (without the program name) into engine options and other
// arguments and builds the configuration. Everything after a "--" argument
// is passed through untouched.
absl::StatusOr<CommandLine> ParseCommandLine(
    absl::Span<const std::string> args,
    std::optional<std::string> environment,
    const EngineConfig* embedder = nullptr);

// Convenience for main(): reads MOREL_OPTIONS from the process environment.
absl::StatusOr<CommandLine> ParseCommandLine(int argc, const char* const* argv);

// The text printed for --help / --help:engine.
std::string EngineHelpText();

}  // namespace morel::config

#endif  // MOREL_ENGINE_CONFIG_CONFIG_LOADER_H_
