#include "nodes/heap.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "gc.h"

namespace morel::heap {
namespace {

uint64_t NowNanoseconds() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

// Set once by Initialize().
uint64_t start_nanoseconds = 0;
uint64_t start_total_bytes = 0;
uint64_t start_collections = 0;

// Collection time, from Boehm's collection events. They come from the
// collecting thread with the allocation lock held, so the nesting state is
// only touched under that lock; the total is read by GetStatistics()
// without it. A full collection is START ... END, with the world stopped
// (PRE_STOP_WORLD ... POST_START_WORLD) and the free lists rebuilt
// (RECLAIM_START ... RECLAIM_END) inside it; in incremental mode the last
// two also occur on their own. The outermost pair is timed.
int event_depth = 0;
uint64_t event_start_nanoseconds = 0;
std::atomic<uint64_t> gc_nanoseconds{0};

void OnCollectionEvent(GC_EventType event) {
  switch (event) {
    case GC_EVENT_START:
    case GC_EVENT_PRE_STOP_WORLD:
    case GC_EVENT_RECLAIM_START:
      if (event_depth++ == 0) event_start_nanoseconds = NowNanoseconds();
      break;
    case GC_EVENT_END:
    case GC_EVENT_POST_START_WORLD:
    case GC_EVENT_RECLAIM_END:
      if (event_depth > 0 && --event_depth == 0) {
        gc_nanoseconds.fetch_add(NowNanoseconds() - event_start_nanoseconds,
                                 std::memory_order_relaxed);
      }
      break;
    default:
      break;
  }
}

// Which writable data segments of loaded objects are roots: the
// executable's and those of objects outside the system library directories
// (Morel's own shared objects: backend plugins, the libraries of Bazel's
// test binaries), not those of the system's libraries (libc, libstdc++,
// LLVM, Abseil, protobuf, GMP, ...). Guest pointers are stored only on
// stacks, in collected objects and in root-allocated memory (heap.h's
// invariant), never in a system library's static data. Boehm otherwise scans
// ~0.9 MB of them at every collection (LLVM's alone 0.6 MB, its relocated
// read-only data excluded): the cheapest collection took 257 us instead of
// 53 us (records benchmark, nothing live).
int ScanStaticData(const char* object, void* /*start*/, size_t /*bytes*/) {
  if (object == nullptr || object[0] == '\0') return 1;  // the executable
  for (const char* system : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"}) {
    if (std::strncmp(object, system, std::strlen(system)) == 0) return 0;
  }
  return 1;
}

}  // namespace

void Initialize() {
  static std::once_flag once;
  std::call_once(once, [] {
    GC_register_has_static_roots_callback(ScanStaticData);
    // One marker thread on a machine of two cores (Boehm starts one per
    // core). Marking in parallel there gained nothing measurable for a
    // large live set (binarytrees depth 17, 150 MB heap: 2.42 s per
    // iteration with two markers, 2.46 s with one, 15 ms per collection
    // either way, while other processes ran) and cost for the small live
    // sets the benchmarks keep: waking and waiting for the helper, which
    // competes with the compiler thread for the second core (steady state,
    // markers 2 -> 1: records 20.5 -> 19.3 ms, linkedlist 21.5 -> 19.7 ms,
    // sieve 4.30 -> 4.19 ms, binarytrees 33.3 -> 33.2 ms).
    // Larger machines keep Boehm's default (not measured). GC_MARKERS in the
    // environment wins.
    if (std::getenv("GC_MARKERS") == nullptr && std::getenv("GC_NPROCS") == nullptr &&
        sysconf(_SC_NPROCESSORS_ONLN) <= 2) {
      GC_set_markers_count(1);
    }
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
    // memory on the live set. Measured again with SL's 80-byte objects
    // (whole process, median of 5 paired runs): divisor 1 changes nothing
    // on linkedlist, binarytrees, particles, points, poly, richards and
    // vectors (0.98-1.02x; binarytrees' peak 70 -> 117 MB), since their
    // collections come from a full heap, not from the divisor.
    // GC_FREE_SPACE_DIVISOR in the environment wins.
    if (std::getenv("GC_FREE_SPACE_DIVISOR") == nullptr) GC_set_free_space_divisor(2);
    // Start with a 4 MiB heap instead of Boehm's 64 KiB growing slowly: a
    // program allocating short-lived strings otherwise collects every ~600
    // KiB, and each collection costs ~0.15 ms of root scanning however
    // little is live. Measured (poly benchmark, opt, 2 cores): 306
    // collections, 0.29 s -> 49 collections, 0.24 s; 8-32 MiB gained
    // nothing more (less cache locality). Again with 80-byte objects: 8 MiB
    // gives linkedlist 0.95x and points 1.12x, 16 MiB points 1.24x, the
    // others within 5%. GC_INITIAL_HEAP_SIZE wins.
    constexpr size_t kInitialHeapBytes = size_t{4} << 20;
    if (std::getenv("GC_INITIAL_HEAP_SIZE") == nullptr &&
        GC_get_heap_size() < kInitialHeapBytes) {
      GC_expand_hp(kInitialHeapBytes - GC_get_heap_size());
    }
    start_nanoseconds = NowNanoseconds();
    start_total_bytes = GC_get_total_bytes();
    start_collections = GC_get_gc_no();
    GC_set_on_collection_event(OnCollectionEvent);
  });
}

namespace {

// The MaxHeapMemory owner, guarded by HeapLimitLock().
std::mutex& HeapLimitLock() {
  static auto* lock = new std::mutex();
  return *lock;
}
struct HeapLimit {
  void (*exceeded)(void*) = nullptr;
  void* argument = nullptr;
};
HeapLimit heap_limit;
// Whether a limit is set (read by the warning filter, which may run under
// the collector's lock, so it takes no lock of ours).
std::atomic<bool> heap_limit_active{false};

// Boehm calls this (without its allocation lock) when an allocation fails
// under the maximum heap size: report once, lift the limit, allocate.
void* OnOutOfMemory(size_t bytes) {
  HeapLimit limit;
  {
    std::lock_guard<std::mutex> guard(HeapLimitLock());
    limit = heap_limit;
    heap_limit = HeapLimit{};
    heap_limit_active.store(false, std::memory_order_relaxed);
    GC_set_max_heap_size(0);  // unbounded
  }
  if (limit.exceeded != nullptr) limit.exceeded(limit.argument);
  // Pointer-free or not, a fresh object is zero-filled by GC_MALLOC; the
  // caller cleared what it needs for atomic objects.
  return GC_MALLOC(bytes);
}

// While a limit is set, Boehm's "Out of Memory! ... Returning NULL!"
// warning (printed before it calls OnOutOfMemory) is not news: the runtime
// reports the limit itself. Every other warning goes where it went before.
GC_warn_proc previous_warn_proc = nullptr;
void FilterOutOfMemoryWarning(char* message, GC_word argument) {
  if (heap_limit_active.load(std::memory_order_relaxed) &&
      std::strncmp(message, "GC Warning: Out of Memory!", 26) == 0) {
    return;
  }
  if (previous_warn_proc != nullptr) previous_warn_proc(message, argument);
}

}  // namespace

bool SetHeapLimit(size_t growth_bytes, void (*exceeded)(void*), void* argument) {
  Initialize();
  std::lock_guard<std::mutex> guard(HeapLimitLock());
  if (heap_limit.exceeded != nullptr) return false;
  heap_limit = HeapLimit{exceeded, argument};
  heap_limit_active.store(true, std::memory_order_relaxed);
  GC_set_oom_fn(OnOutOfMemory);
  if (previous_warn_proc == nullptr) {
    previous_warn_proc = GC_get_warn_proc();
    GC_set_warn_proc(FilterOutOfMemoryWarning);
  }
  GC_set_max_heap_size(GC_get_heap_size() + growth_bytes);
  return true;
}

void ClearHeapLimit(void* argument) {
  std::lock_guard<std::mutex> guard(HeapLimitLock());
  if (heap_limit.argument != argument) return;
  heap_limit = HeapLimit{};
  heap_limit_active.store(false, std::memory_order_relaxed);
  GC_set_max_heap_size(0);
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
  // While guest code runs on the new thread this one only waits: a
  // collection need not stop it (nor an idle compiler thread,
  // compile_queue.cc). Stopping a thread is a signal and two context
  // switches, slow when the cores are busy; with the static data filter
  // above, steady state (records, linkedlist, sieve, binarytrees, 2 cores
  // shared with other processes): 24.1 -> 20.5 ms, 23.7 -> 21.5 ms, 5.5 ->
  // 4.3 ms, 38.1 -> 33.3 ms; the median collection of records 195-220 us
  // -> 124-145 us.
  WhileBlocked([&] { pthread_join(thread, nullptr); });
}

void RunBlocking(void (*function)(void*), void* argument) {
  if (!GC_thread_is_registered()) {
    function(argument);
    return;
  }
  Trampoline trampoline{function, argument};
  GC_do_blocking(RunTrampoline, &trampoline);
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

Statistics GetStatistics() {
  Initialize();
  Statistics statistics;
  GC_word heap_bytes = 0, free_bytes = 0, total_bytes = 0;
  GC_get_heap_usage_safe(&heap_bytes, &free_bytes, nullptr, nullptr, &total_bytes);
  statistics.allocated_bytes = total_bytes - start_total_bytes;
  statistics.collections = GC_get_gc_no() - start_collections;
  statistics.gc_nanoseconds = gc_nanoseconds.load(std::memory_order_relaxed);
  statistics.elapsed_nanoseconds = NowNanoseconds() - start_nanoseconds;
  statistics.heap_bytes = heap_bytes;
  statistics.free_bytes = free_bytes;
  statistics.markers = GC_get_parallel() + 1;
  statistics.incremental = GC_is_incremental_mode() != 0;
  return statistics;
}

std::string FormatStatistics(const Statistics& statistics) {
  double gc_ms = static_cast<double>(statistics.gc_nanoseconds) / 1e6;
  double total_ms = static_cast<double>(statistics.elapsed_nanoseconds) / 1e6;
  double percent = total_ms > 0 ? 100.0 * gc_ms / total_ms : 0.0;
  char line[512];
  std::snprintf(line, sizeof line,
                "allocated_bytes=%" PRIu64 " collections=%" PRIu64
                " gc_ms=%.3f total_ms=%.3f gc_percent=%.2f heap_bytes=%" PRIu64
                " free_bytes=%" PRIu64 " markers=%d incremental=%d",
                statistics.allocated_bytes, statistics.collections, gc_ms, total_ms, percent,
                statistics.heap_bytes, statistics.free_bytes, statistics.markers,
                statistics.incremental ? 1 : 0);
  return line;
}

}  // namespace morel::heap
