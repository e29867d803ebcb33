#include "languages/sl/nodes/local_nodes.h"

#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/sl_error.h"

namespace morel::sl {

void ThrowUninitializedLocal(const SLReadLocalNode& node, const Frame& frame,
                             int slot) {
  // The reference fails internally here (sl_spec §4.1 IMPL-DEFINED).
  throw SLError(absl::StrCat("Uninitialized local variable: ",
                             frame.descriptor().name(slot),
                             Location(&node.source_section())),
                &node.source_section());
}

}  // namespace morel::sl
