#include "engine/api/launcher.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/api/language.h"
#include "engine/config/config_loader.h"
#include "engine/runtime/engine.h"
#include "nodes/heap.h"

namespace morel::api {
namespace {

// Guest code's stack: reserved, committed only as recursion touches it.
// AddressSanitizer cannot unwind an exception across more than 64 MiB of
// stack (it skips unpoisoning and reports false stack-buffer-overflows), so
// sanitized builds use less.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kGuestStackBytes = size_t{48} << 20;
#else
constexpr size_t kGuestStackBytes = size_t{256} << 20;
#endif

struct Job {
  const ProgramRun* run;
  int status = 0;
};

void PrintError(const ProgramRun& run, absl::string_view message) {
  std::fflush(run.out);
  std::string line = absl::StrCat(message, "\n");
  std::fwrite(line.data(), 1, line.size(), run.err);
  std::fflush(run.err);
}

// The exit status of running the program in `context` (launcher.h).
int RunInContext(const ProgramRun& run, LanguageContext& context) {
  absl::Status ran = context.RunProgram(run.source_text, run.source_name);
  if (std::optional<int> exit_code = ExitStatusOf(ran)) {
    absl::Status closed = context.Close();
    if (!closed.ok() && !ExitStatusOf(closed).has_value()) PrintError(run, closed.message());
    return *exit_code;
  }
  if (ran.code() == absl::StatusCode::kResourceExhausted) {
    // A sandbox limit cancelled the program: the context ends without
    // running guest code again (its close actions included).
    PrintError(run, ran.message());
    return 1;
  }
  int status = 0;
  if (!ran.ok()) {
    PrintError(run, ran.message());
    status = 1;
  }
  absl::Status closed = context.Close();
  if (std::optional<int> exit_code = ExitStatusOf(closed)) return *exit_code;
  if (!closed.ok()) {
    PrintError(run, closed.message());
    return 1;
  }
  return status;
}

// ProgramRun::warm_up_contexts: the warm-up runs, then the real one, all in
// contexts sharing the language's instance on `engine`.
int RunSharingCode(const ProgramRun& run, runtime::Engine& engine,
                   const ContextStreams& streams) {
  std::unique_ptr<LanguageInstance> instance = run.language->CreateInstance(engine);
  if (instance == nullptr) {
    PrintError(run, absl::StrCat(run.language->name(), " does not share code between contexts"));
    return config::kConfigErrorExitCode;
  }
  std::FILE* discard = std::fopen("/dev/null", "r+");
  if (discard == nullptr) {
    PrintError(run, "cannot open /dev/null");
    return config::kConfigErrorExitCode;
  }
  ContextStreams quiet;
  quiet.out = discard;
  quiet.in = discard;
  // Kept until the real run ends: a source stays shared while a context
  // uses it.
  std::vector<std::unique_ptr<LanguageContext>> warm_up;
  int status = 0;
  for (int i = 0; i < run.warm_up_contexts && status == 0; ++i) {
    absl::StatusOr<std::unique_ptr<LanguageContext>> context = run.language->CreateContext(
        engine, instance.get(), run.language_options, quiet, /*owns_engine=*/false);
    if (!context.ok()) {
      PrintError(run, context.status().message());
      status = config::kConfigErrorExitCode;
      break;
    }
    // Only the real run's outcome counts.
    (*context)->RunProgram(run.source_text, run.source_name).IgnoreError();
    (*context)->Close().IgnoreError();
    warm_up.push_back(*std::move(context));
  }
  if (status == 0) {
    absl::StatusOr<std::unique_ptr<LanguageContext>> context = run.language->CreateContext(
        engine, instance.get(), run.language_options, streams, /*owns_engine=*/false);
    if (context.ok()) {
      status = RunInContext(run, **context);
    } else {
      PrintError(run, context.status().message());
      status = config::kConfigErrorExitCode;
    }
  }
  warm_up.clear();
  instance.reset();  // after its contexts, before the engine closes
  std::fclose(discard);
  return status;
}

void RunJob(void* raw) {
  Job& job = *static_cast<Job*>(raw);
  const ProgramRun& run = *job.run;
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine = runtime::Engine::Create(run.config);
  if (!engine.ok()) {
    PrintError(run, engine.status().message());
    job.status = config::kConfigErrorExitCode;
    return;
  }
  ContextStreams streams;
  streams.out = run.out;
  streams.in = run.in;
  if (run.warm_up_contexts > 0) {
    job.status = RunSharingCode(run, **engine, streams);
    (*engine)->Close();
    return;
  }
  absl::StatusOr<std::unique_ptr<LanguageContext>> context = run.language->CreateContext(
      **engine, /*instance=*/nullptr, run.language_options, streams, /*owns_engine=*/true);
  if (!context.ok()) {
    PrintError(run, context.status().message());
    job.status = config::kConfigErrorExitCode;
    return;
  }
  job.status = RunInContext(run, **context);
}

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int RunProgram(const ProgramRun& run) {
  Job job{&run};
  heap::RunOnLargeStack(kGuestStackBytes, RunJob, &job);
  return job.status;
}

int LauncherMain(const char* language_id, int argc, char** argv,
                 const LauncherOptions& launcher_options) {
  auto usage_error = [&](absl::string_view message) {
    absl::FPrintF(stderr, "%s: %s\n", language_id, message);
    return config::kConfigErrorExitCode;
  };
  const Language* language = LanguageRegistry::Find(language_id);
  if (language == nullptr) {
    return usage_error("this language is not registered (link its :language library)");
  }
  absl::StatusOr<config::CommandLine> command_line = config::ParseCommandLine(argc, argv);
  if (!command_line.ok()) return usage_error(command_line.status().message());
  const bool has_options = language->options_prototype() != nullptr;
  if (command_line->help) {
    absl::PrintF("Usage: %s [--engine.<Name>=<value> ...]%s [file%s]\n%s\n%s",
                 language->id(),
                 has_options ? absl::StrCat(" [--", language->id(), ".<Name>=<value> ...]")
                             : "",
                 language->file_extension(), language->launcher_description(),
                 config::EngineHelpText());
    absl::PrintF("\n%s", LanguageOptionsHelpText(*language));
    return 0;
  }
  const std::string option_prefix = absl::StrCat("--", language->id(), ".");
  std::vector<std::string> language_settings;  // "Name=value" or "Name"
  std::string file;
  for (const std::string& argument : command_line->arguments) {
    if (argument == "--disable-launcher-output") continue;  // always interactive
    if (absl::StartsWith(argument, option_prefix)) {
      language_settings.push_back(argument.substr(option_prefix.size()));
      continue;
    }
    if (absl::StartsWith(argument, "--")) {
      return usage_error(absl::StrFormat(
          "unknown option '%s' (engine options are --engine.<Name>=<value>%s; "
          "see --help)",
          argument,
          has_options ? absl::StrCat(", ", language->id(), " options --", language->id(),
                                     ".<Name>=<value>")
                      : ""));
    }
    if (!file.empty()) {
      return usage_error(
          absl::StrFormat("unexpected argument '%s' after '%s'", argument, file));
    }
    file = argument;
  }
  ProgramRun run;
  run.language = language;
  run.config = command_line->config;
  run.warm_up_contexts = launcher_options.warm_up_contexts;
  absl::StatusOr<std::unique_ptr<google::protobuf::Message>> options =
      ParseLanguageOptions(*language, language_settings);
  if (!options.ok()) return usage_error(options.status().message());
  std::unique_ptr<google::protobuf::Message> language_options = *std::move(options);
  run.language_options = language_options.get();
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
    if (working_directory != nullptr && file[0] != '/') {
      path = absl::StrCat(working_directory, "/", file);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return usage_error(absl::StrFormat("cannot read '%s'", file));
    std::stringstream text;
    text << in.rdbuf();
    run.source_text = text.str();
    run.source_name = BaseName(file);
  }
  return RunProgram(run);
}

}  // namespace morel::api
