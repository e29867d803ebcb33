#include "engine/codegen/code_cache.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace morel::codegen {
namespace {

absl::Status Errno(absl::string_view what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

}  // namespace

size_t CodeCache::PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

CodeCache::CodeCache(CodeCacheOptions options) : options_(options) {}

CodeCache::~CodeCache() {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [start, region] : live_) {
    munmap(reinterpret_cast<void*>(start), region.mapped_size);
  }
  for (const auto& [size, start] : free_) munmap(reinterpret_cast<void*>(start), size);
}

absl::StatusOr<CodeRegion> CodeCache::Install(const CodeBuffer& buffer) {
  return InstallImpl(absl::MakeConstSpan(buffer.bytes()), &buffer);
}

absl::StatusOr<CodeRegion> CodeCache::InstallBytes(absl::Span<const uint8_t> bytes) {
  return InstallImpl(bytes, nullptr);
}

absl::StatusOr<CodeRegion> CodeCache::InstallImpl(absl::Span<const uint8_t> bytes,
                                                  const CodeBuffer* relocs) {
  if (bytes.empty()) return absl::InvalidArgumentError("no code to install");
  const size_t page = PageSize();
  const size_t need = (bytes.size() + page - 1) / page * page;
  std::lock_guard<std::mutex> lock(mu_);
  void* mem = nullptr;
  size_t mapped = need;
  auto it = free_.lower_bound(need);
  if (it != free_.end()) {
    mapped = it->first;
    mem = reinterpret_cast<void*>(it->second);
    free_.erase(it);
    free_bytes_ -= mapped;
    if (mprotect(mem, mapped, PROT_READ | PROT_WRITE) != 0) return Errno("mprotect RW");
  } else {
    mem = mmap(nullptr, need, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return Errno("mmap");
  }
  uint8_t* code = static_cast<uint8_t*>(mem);
  std::memcpy(code, bytes.data(), bytes.size());
  std::memset(code + bytes.size(), 0, mapped - bytes.size());
  if (relocs != nullptr) {
    absl::Status s = relocs->Relocate(reinterpret_cast<uint64_t>(code),
                                      absl::MakeSpan(code, bytes.size()));
    if (!s.ok()) {
      munmap(mem, mapped);
      return s;
    }
  }
  if (mprotect(mem, mapped, PROT_READ | PROT_EXEC) != 0) {
    absl::Status s = Errno("mprotect RX");
    munmap(mem, mapped);
    return s;
  }
  __builtin___clear_cache(reinterpret_cast<char*>(code),
                          reinterpret_cast<char*>(code + bytes.size()));
  CodeRegion region{code, bytes.size(), mapped};
  live_[reinterpret_cast<uintptr_t>(code)] = region;
  generation_.fetch_add(1, std::memory_order_release);
  return region;
}

absl::Status CodeCache::Free(const uint8_t* start) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(reinterpret_cast<uintptr_t>(start));
  if (it == live_.end()) return absl::NotFoundError("no installed code starts there");
  const size_t mapped = it->second.mapped_size;
  void* mem = const_cast<uint8_t*>(start);
  live_.erase(it);
  generation_.fetch_add(1, std::memory_order_release);
  if (free_bytes_ + mapped <= options_.max_cached_free_bytes) {
    if (mprotect(mem, mapped, PROT_NONE) != 0) return Errno("mprotect NONE");
    free_.emplace(mapped, reinterpret_cast<uintptr_t>(start));
    free_bytes_ += mapped;
    return absl::OkStatus();
  }
  if (munmap(mem, mapped) != 0) return Errno("munmap");
  return absl::OkStatus();
}

absl::StatusOr<CodeRegion> CodeCache::Lookup(const void* pc) const {
  const uintptr_t p = reinterpret_cast<uintptr_t>(pc);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.upper_bound(p);
  if (it == live_.begin()) return absl::NotFoundError("pc is not in the code cache");
  --it;
  if (p >= it->first + it->second.size) return absl::NotFoundError("pc is not in the code cache");
  return it->second;
}

size_t CodeCache::live_regions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return live_.size();
}

size_t CodeCache::cached_free_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return free_bytes_;
}

}  // namespace morel::codegen
