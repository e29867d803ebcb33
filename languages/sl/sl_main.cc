// sl: the SimpleLanguage launcher.
//
//   sl [--engine.Name=value ...] [file.sl]     (stdin when no file)
//   sl --help
//
// Exit status: 0 on success, 1 on a guest error (message on stderr), n after
// exit(n), 2 on a bad command line or unreadable file.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/config/config_loader.h"
#include "languages/sl/sl_launcher.h"

namespace {

constexpr char kUsage[] =
    "Usage: sl [--engine.<Name>=<value> ...] [file.sl]\n"
    "Runs a SimpleLanguage program: registers its functions and calls main().\n"
    "Reads the program from standard input when no file is given.\n\n";

int UsageError(const std::string& message) {
  absl::FPrintF(stderr, "sl: %s\n", message);
  return morel::config::kConfigErrorExitCode;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int main(int argc, char** argv) {
  absl::StatusOr<morel::config::CommandLine> command_line =
      morel::config::ParseCommandLine(argc, argv);
  if (!command_line.ok()) return UsageError(std::string(command_line.status().message()));
  if (command_line->help) {
    absl::PrintF("%s%s", kUsage, morel::config::EngineHelpText());
    return 0;
  }
  std::string file;
  for (const std::string& argument : command_line->arguments) {
    if (argument == "--disable-launcher-output") continue;  // always interactive
    if (absl::StartsWith(argument, "--")) {
      return UsageError(absl::StrFormat(
          "unknown option '%s' (engine options are --engine.<Name>=<value>; "
          "see --help)",
          argument));
    }
    if (!file.empty()) {
      return UsageError(absl::StrFormat("unexpected argument '%s' after '%s'",
                                        argument, file));
    }
    file = argument;
  }

  morel::sl::ProgramRun run;
  run.config = command_line->config;
  if (file.empty()) {
    std::stringstream text;
    text << std::cin.rdbuf();
    run.source_text = text.str();
    run.source_name = "<stdin>";
  } else {
    // `bazel run` starts us in the runfiles tree; relative paths mean the
    // directory the user ran bazel from.
    const char* working_directory = std::getenv("BUILD_WORKING_DIRECTORY");
    std::string path = file;
    if (working_directory != nullptr && !file.empty() && file[0] != '/') {
      path = absl::StrCat(working_directory, "/", file);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return UsageError(absl::StrFormat("cannot read '%s'", file));
    std::stringstream text;
    text << in.rdbuf();
    run.source_text = text.str();
    run.source_name = BaseName(file);
  }
  return morel::sl::RunProgram(run);
}
