#include "nodes/heap_inline.h"

#include "gc.h"
#include "gc/gc_inline.h"
#include "nodes/heap.h"

namespace morel::heap {
namespace {

static_assert(GC_GRANULE_BYTES == 16 && kInlineFreeLists == GC_TINY_FREELISTS,
              "the size classes compiled code assumes");

// Trivially constructed (zero) thread_locals of the static TLS block: no
// initialization guard, one address per thread at a fixed offset.
thread_local void* heads[kInlineFreeLists];
thread_local int64_t refills = 0;

// Makes this thread's heads a collector root until the thread exits.
class HeadsRoot {
 public:
  void Ensure() {
    if (registered_) return;
    GC_add_roots(&heads[0], &heads[kInlineFreeLists]);
    registered_ = true;
  }
  ~HeadsRoot() {
    if (!registered_) return;
    for (void*& head : heads) head = nullptr;  // the listed objects become garbage
    GC_remove_roots(&heads[0], &heads[kInlineFreeLists]);
  }

 private:
  bool registered_ = false;
};
thread_local HeadsRoot heads_root;

}  // namespace

int InlineFreeList(size_t bytes) {
  Initialize();
  // The byte GC_MALLOC adds (interior pointers: one past the end is still
  // the object's), so a list's objects have the size GC_MALLOC gives.
  static const size_t extra = GC_get_all_interior_pointers() ? 1 : 0;
  if (bytes == 0 || GC_is_incremental_mode()) return -1;
  const size_t granules = (bytes + extra + GC_GRANULE_BYTES - 1) / GC_GRANULE_BYTES;
  return granules < kInlineFreeLists ? static_cast<int>(granules) : -1;
}

void* const* InlineFreeListHeads() { return heads; }

void* AllocateTracedInline(int64_t bytes) {
  const int list = InlineFreeList(static_cast<size_t>(bytes));
  if (list < 0) return GC_MALLOC(static_cast<size_t>(bytes));
  void** head = &heads[list];
  if (*head == nullptr) {
    heads_root.Ensure();
    // Stores the new list in *head, which the collector traces.
    GC_generic_malloc_many(static_cast<size_t>(list) * GC_GRANULE_BYTES, GC_I_NORMAL, head);
    ++refills;
    if (*head == nullptr) return GC_MALLOC(static_cast<size_t>(bytes));  // out of memory
  }
  void* object = *head;
  *head = *static_cast<void**>(object);
  *static_cast<void**>(object) = nullptr;
  return object;
}

int64_t InlineRefillsOnThisThread() { return refills; }

}  // namespace morel::heap
