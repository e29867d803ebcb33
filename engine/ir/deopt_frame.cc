#include "engine/ir/deopt_frame.h"

#include <cstring>

#include "base/check.h"

namespace morel::ir {

void MaterializeDeoptObjects(absl::Span<const DeoptObject> objects,
                             const std::function<void*(int64_t)>& allocate,
                             absl::Span<void*> addresses, std::vector<DeoptFrame>& frames) {
  MOREL_CHECK(addresses.size() == objects.size());
  // All objects first: fields may name any object, cycles included.
  for (size_t i = 0; i < objects.size(); ++i) {
    addresses[i] = objects[i].is_existing ? reinterpret_cast<void*>(objects[i].existing)
                                          : allocate(objects[i].size);
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    if (objects[i].is_existing) continue;
    char* base = static_cast<char*>(addresses[i]);
    for (const DeoptObject::Field& field : objects[i].fields) {
      int64_t bits = field.object >= 0
                         ? reinterpret_cast<int64_t>(addresses.at(field.object))
                         : field.bits;
      std::memcpy(base + field.offset, &bits, ByteWidth(field.type));
    }
  }
  for (DeoptFrame& frame : frames) {
    for (std::vector<DeoptFrame::Slot>* slots : {&frame.locals, &frame.stack}) {
      for (DeoptFrame::Slot& slot : *slots) {
        if (slot.object < 0) continue;
        slot.payload = reinterpret_cast<int64_t>(addresses.at(slot.object));
        slot.object = -1;
      }
    }
  }
}

}  // namespace morel::ir
