#ifndef MOREL_LANGUAGES_SL_SL_LAUNCHER_H_
#define MOREL_LANGUAGES_SL_SL_LAUNCHER_H_

// Runs a whole SL program the way the `sl` launcher does (sl_spec §1):
// register the source's functions, call `main` with no arguments, print its
// result unless NULL, run the shutdown hooks. Guest errors print their
// message to `err` and give status 1; exit(n) gives n. The generic
// launcher's api::RunProgram (engine/api/launcher.h) with SL's language, for
// tests and test runners that run SL programs in-process.

#include <cstdio>
#include <string>

#include "engine/config/engine_config.pb.h"

namespace morel::sl {

struct ProgramRun {
  std::string source_text;
  std::string source_name;  // shown in messages: the file name without directory
  config::EngineConfig config;
  std::FILE* out = stdout;
  std::FILE* err = stderr;
  std::FILE* in = stdin;
};

// Returns the process exit status. Runs guest code on a thread with a large
// stack so deep recursion ends in a guest error, not a crash.
int RunProgram(const ProgramRun& run);

}  // namespace morel::sl

#endif  // MOREL_LANGUAGES_SL_SL_LAUNCHER_H_
