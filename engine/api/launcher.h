#ifndef MOREL_ENGINE_API_LAUNCHER_H_
#define MOREL_ENGINE_API_LAUNCHER_H_

// The generic launcher of a registered language (engine/api/language.h):
//
//   <id> [--engine.<Name>=<value> ...] [--<id>.<Name>=<value> ...] [file]
//   <id> --help
//
// Options: engine options as config::ParseCommandLine reads them (flags,
// MOREL_OPTIONS, --engine.Config), language options "--<id>.<Name>=<value>"
// (a bare --<id>.<Name> sets a boolean to true; any other option needs its
// value, as engine options do) validated against the language's schema.
// --help prints the usage, the engine options and the language's options.
// The program comes from `file`, or from standard input when there is
// none; it runs on a thread with a large stack (deep guest recursion ends
// in a guest error, not a crash), in one context that owns its engine.
//
// Exit status: 0 on success; 1 after a guest error or a syntax error (the
// message on stderr); n after the guest's exit(n); 2 on a bad command
// line, a rejected option or an unreadable file (config::kConfigErrorExitCode).
// Closing the context (SL: shutdown hooks) follows a normal end, a guest
// error and exit(n), but not a sandbox limit (ResourceExhausted).

#include <cstdio>
#include <string>

#include "engine/api/language.h"
#include "engine/config/engine_config.pb.h"

namespace morel::api {

// What a launcher binary fixes beyond its command line.
struct LauncherOptions {
  int warm_up_contexts = 0;  // ProgramRun::warm_up_contexts
};

// The launcher's main() for language `language_id`.
int LauncherMain(const char* language_id, int argc, char** argv,
                 const LauncherOptions& options = LauncherOptions());

// One program run as the launcher does it after reading its command line
// (also for tests and test runners that run programs in-process).
struct ProgramRun {
  const Language* language = nullptr;
  std::string source_text;
  std::string source_name;  // shown in messages: the file name without directory
  config::EngineConfig config;
  // Of the language's options schema; null for its defaults.
  const google::protobuf::Message* language_options = nullptr;
  std::FILE* out = stdout;
  std::FILE* err = stderr;
  std::FILE* in = stdin;
  // Code sharing under test: when positive, the program first runs in this
  // many other contexts of the same engine (output discarded, no input,
  // their errors ignored), all sharing the language's instance
  // (Language::CreateInstance), and then in the context whose outcome is
  // the run's, which reuses their call targets, profiles and compiled
  // code. A language without an instance is an error (exit status 2).
  int warm_up_contexts = 0;
};

// Returns the exit status above. Creates the engine and the context on a
// thread with a large stack and runs the program there.
int RunProgram(const ProgramRun& run);

}  // namespace morel::api

#endif  // MOREL_ENGINE_API_LAUNCHER_H_
