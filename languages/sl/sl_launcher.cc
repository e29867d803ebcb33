#include "languages/sl/sl_launcher.h"

#include "engine/api/launcher.h"
#include "languages/sl/sl_language.h"

namespace morel::sl {

int RunProgram(const ProgramRun& run) {
  static const SLLanguage* language = new SLLanguage();
  api::ProgramRun generic;
  generic.language = language;
  generic.source_text = run.source_text;
  generic.source_name = run.source_name;
  generic.config = run.config;
  generic.out = run.out;
  generic.err = run.err;
  generic.in = run.in;
  return api::RunProgram(generic);
}

}  // namespace morel::sl
