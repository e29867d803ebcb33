// Registers SimpleLanguage ("sl") in the language registry
// (engine/api/language.h). Linked with alwayslink by //languages/sl:language.

#include "languages/sl/sl_language.h"

namespace morel::sl {
namespace {

MOREL_REGISTER_LANGUAGE(SLLanguage);

}  // namespace
}  // namespace morel::sl
