// Registers "adder" (adder_language.h) at static initialization: link
// :adder to run it through the launcher or the embedding API.

#include "engine/api/language.h"
#include "testing/adder/adder_language.h"

namespace morel::adder {

MOREL_REGISTER_LANGUAGE(AdderLanguage);

}  // namespace morel::adder
