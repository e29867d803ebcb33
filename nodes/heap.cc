#include "nodes/heap.h"

#include <pthread.h>

#include <cstdlib>
#include <mutex>

#include "gc.h"

namespace morel::heap {

void Initialize() {
  static std::once_flag once;
  std::call_once(once, [] {
    GC_INIT();
    // Threads created through GC_pthread_create (gc.h redirects
    // pthread_create when GC_THREADS is defined) register themselves; others
    // may register explicitly.
    GC_allow_register_threads();
    // Grow the heap a bit more eagerly than Boehm's default (divisor 3):
    // guest programs allocate many short-lived strings and objects, and
    // fewer collections pay. Measured (opt, 2 cores): the poly benchmark
    // 0.66 s -> 0.57 s, a 300k-object live set 0.96 s/171 MB -> 0.80 s/
    // 191 MB; divisor 1 is faster still (0.47 s, 0.65 s) but costs +43%
    // memory on the live set. GC_FREE_SPACE_DIVISOR in the environment wins.
    if (std::getenv("GC_FREE_SPACE_DIVISOR") == nullptr) GC_set_free_space_divisor(2);
    // Start with a 4 MiB heap instead of Boehm's 64 KiB growing slowly: a
    // program allocating short-lived strings otherwise collects every ~600
    // KiB, and each collection costs ~0.15 ms of root scanning however
    // little is live. Measured (poly benchmark, opt, 2 cores): 306
    // collections, 0.29 s -> 49 collections, 0.24 s; 8-32 MiB gained
    // nothing more (less cache locality). GC_INITIAL_HEAP_SIZE wins.
    constexpr size_t kInitialHeapBytes = size_t{4} << 20;
    if (std::getenv("GC_INITIAL_HEAP_SIZE") == nullptr &&
        GC_get_heap_size() < kInitialHeapBytes) {
      GC_expand_hp(kInitialHeapBytes - GC_get_heap_size());
    }
  });
}

void* AllocateTraced(size_t bytes) { return GC_MALLOC(bytes); }
void* AllocateAtomic(size_t bytes) { return GC_MALLOC_ATOMIC(bytes); }
void* AllocateRoot(size_t bytes) {
  Initialize();
  return GC_MALLOC_UNCOLLECTABLE(bytes);
}
void FreeRoot(void* pointer) { GC_FREE(pointer); }
namespace {
struct Trampoline {
  void (*function)(void*);
  void* argument;
};
void* RunTrampoline(void* raw) {
  auto* trampoline = static_cast<Trampoline*>(raw);
  trampoline->function(trampoline->argument);
  return nullptr;
}
}  // namespace

void RunOnLargeStack(size_t stack_bytes, void (*function)(void*), void* argument) {
  Initialize();
  Trampoline trampoline{function, argument};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, stack_bytes);
  pthread_t thread;
  // gc.h (with GC_THREADS) routes pthread_create through the collector, so
  // the new thread's stack is scanned.
  if (pthread_create(&thread, &attributes, RunTrampoline, &trampoline) != 0) {
    pthread_attr_destroy(&attributes);
    function(argument);  // no thread: run here, with the stack we have
    return;
  }
  pthread_attr_destroy(&attributes);
  pthread_join(thread, nullptr);
}

ScopedThreadRegistration::ScopedThreadRegistration() {
  Initialize();
  if (GC_thread_is_registered()) return;
  struct GC_stack_base base;
  if (GC_get_stack_base(&base) != GC_SUCCESS) return;
  registered_ = GC_register_my_thread(&base) == GC_SUCCESS;
}

ScopedThreadRegistration::~ScopedThreadRegistration() {
  if (registered_) GC_unregister_my_thread();
}

void Collect() { GC_gcollect(); }
size_t HeapSize() { return GC_get_heap_size(); }

}  // namespace morel::heap
