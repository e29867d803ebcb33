// sl_shared_code_runner: the sl launcher (sl_main.cc), except that each
// program first runs in a warm-up context and then, for its outcome, in a
// second context of the same engine that shares the first one's code
// (sl_shared_code.h): call targets, profiles, splits and compiled code made
// during the warm-up serve the second run. The conformance tests of code
// sharing run the golden programs with it; their output must not change.

#include "engine/api/launcher.h"

int main(int argc, char** argv) {
  morel::api::LauncherOptions options;
  options.warm_up_contexts = 1;
  return morel::api::LauncherMain("sl", argc, argv, options);
}
