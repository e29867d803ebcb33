// sl: the SimpleLanguage launcher, the generic launcher of
// engine/api/launcher.h for the language "sl".
//
//   sl [--engine.Name=value ...] [file.sl]     (stdin when no file)
//   sl --help
//
// Exit status: 0 on success, 1 on a guest error (message on stderr), n after
// exit(n), 2 on a bad command line or unreadable file.

#include "engine/api/launcher.h"

int main(int argc, char** argv) { return morel::api::LauncherMain("sl", argc, argv); }
