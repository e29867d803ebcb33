#ifndef MOREL_ENGINE_CODEGEN_CODE_CACHE_H_
#define MOREL_ENGINE_CODEGEN_CODE_CACHE_H_

// CodeCache: executable memory for installed code, with W^X: a page is never
// writable and executable at the same time.
//
// Mechanism (single mapping, no memfd): every installed function gets its own
// page-rounded region. Install maps it PROT_READ|PROT_WRITE (or takes a freed
// region and mprotects it RW), copies and relocates the code, then mprotects
// it PROT_READ|PROT_EXEC and flushes the instruction cache. Regions are never
// written again while executable; code is immutable once installed.
//
// Free (invalidated code) makes the region PROT_NONE at once, so a stale
// jump faults instead of running someone else's code, and keeps it for reuse
// by a later Install of at most its size, as long as the cached free bytes
// stay within CodeCacheOptions::max_cached_free_bytes; otherwise it is
// munmapped. The caller guarantees no thread still executes freed code (the
// runtime deoptimizes activations first).
//
// Thread-safe: all methods may be called concurrently.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/codegen/code_buffer.h"

namespace morel::codegen {

struct CodeCacheOptions {
  size_t max_cached_free_bytes = size_t{1} << 20;
};

struct CodeRegion {
  const uint8_t* start = nullptr;
  size_t size = 0;         // bytes of code
  size_t mapped_size = 0;  // page-rounded region
};

class CodeCache {
 public:
  explicit CodeCache(CodeCacheOptions options = {});
  ~CodeCache();  // unmaps every region, live or free
  CodeCache(const CodeCache&) = delete;
  CodeCache& operator=(const CodeCache&) = delete;

  // Copies `buffer` (labels resolved) into executable memory and applies its
  // address-dependent relocations.
  absl::StatusOr<CodeRegion> Install(const CodeBuffer& buffer);
  // Installs raw position-independent bytes.
  absl::StatusOr<CodeRegion> InstallBytes(absl::Span<const uint8_t> bytes);
  // Frees the region starting at `start` (see the class comment).
  absl::Status Free(const uint8_t* start);

  // The live region containing `pc`, if any (e.g. to map a return address
  // to its function).
  absl::StatusOr<CodeRegion> Lookup(const void* pc) const;

  size_t live_regions() const;
  size_t cached_free_bytes() const;
  // Counts every Install/InstallBytes and Free that succeeded. Whoever
  // caches something derived from installed code (an emulator's
  // translations, backend_aarch64/testing) compares it with the value it
  // last saw: code at an address may have been replaced since.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  static size_t PageSize();

 private:
  absl::StatusOr<CodeRegion> InstallImpl(absl::Span<const uint8_t> bytes, const CodeBuffer* relocs);

  const CodeCacheOptions options_;
  // A std::mutex rather than absl::Mutex: ThreadSanitizer intercepts
  // pthread mutexes, while Debian's Abseil is not built with it.
  mutable std::mutex mu_;
  // Guarded by mu_:
  std::map<uintptr_t, CodeRegion> live_;
  std::multimap<size_t, uintptr_t> free_;  // mapped_size -> start
  size_t free_bytes_ = 0;
  std::atomic<uint64_t> generation_{0};
};

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_CODE_CACHE_H_
