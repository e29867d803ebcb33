#include "osr/osr_host.h"

#include "absl/strings/str_cat.h"
#include "base/check.h"

namespace morel::osr {

Value OsrHost::RunBytecodeOsrCode(CallTarget& target, InstalledCode&, Frame&) {
  MOREL_UNREACHABLE(absl::StrCat("this OSR host runs no bytecode OSR code (", target.name(), ")"));
}

}  // namespace morel::osr
