#include "osr/osr_entry_tags.h"

#include <utility>

namespace morel::osr {

void OsrEntryTags::Record(const Frame& frame) {
  const int size = frame.descriptor().size();
  std::vector<ValueTag> tags(static_cast<size_t>(size));
  for (int slot = 0; slot < size; ++slot) tags[slot] = frame.Get(slot).tag;
  std::lock_guard<std::mutex> guard(mutex_);
  tags_ = std::move(tags);
}

std::vector<ValueTag> OsrEntryTags::Get() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return tags_;
}

}  // namespace morel::osr
