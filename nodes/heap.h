#ifndef MOREL_NODES_HEAP_H_
#define MOREL_NODES_HEAP_H_

// The guest heap: Boehm-Demers-Weiser conservative garbage collection.
//
// What the collector sees (roots): thread stacks and registers of registered
// threads, static data, and memory from AllocateTraced/AllocateRoot/
// TracedAllocator. What it does NOT see: ordinary new/malloc memory. The
// invariant every Morel structure keeps: a pointer to a collectable guest
// object is stored only on a stack, in collectable objects, or in
// root-allocated memory. Nodes are root-allocated (Node::operator new), so
// node fields may hold guest values.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace morel::heap {

// TODO(#13): programs that keep what they allocate (binary trees, lists)
// still spend about a quarter of their time collecting (binarytrees and
// linkedlist steady state, with SL's 80-byte objects), and about a tenth
// more getting blocks: after each collection Boehm frees the emptied blocks
// and coalesces them, so each new block of small objects searches its
// block free lists one by one up to the coalesced chunk (GC_allochblk_nth:
// 12% of linkedlist's cycles). Boehm marks every live object each cycle
// and its generational mode measured slower; a nursery for guest objects
// is the missing piece.

// Initializes the collector; idempotent and thread-safe. Called by the
// engine before any guest allocation. Sets the free-space divisor to 2
// (Boehm's default is 3: collect when allocation since the last collection
// reaches heap/3) unless GC_FREE_SPACE_DIVISOR is set, and starts with a
// 4 MiB heap unless GC_INITIAL_HEAP_SIZE is set, marks with one thread on
// a machine of two cores unless GC_MARKERS is set, and scans the static data
// of the executable and of Morel's own shared objects, not that of system
// libraries (heap.cc has the measurements); Boehm's other environment
// variables apply as usual.
void Initialize();

// The collector is Debian's libgc linked statically (third_party/
// boehm_gc.BUILD): its thread-local free lists are then read through %fs
// instead of a __tls_get_addr call per allocation (poly benchmark, CPU
// time 240 -> 221 ms).
//
// Collectable memory that may contain pointers (scanned conservatively).
void* AllocateTraced(size_t bytes);
// Collectable memory that never contains pointers (strings, number limbs).
void* AllocateAtomic(size_t bytes);
// Uncollectable, scanned memory: a root until FreeRoot.
void* AllocateRoot(size_t bytes);
void FreeRoot(void* pointer);

// MaxHeapMemory (engine/runtime/resource_limits.h): the collector may grow
// the heap by at most `growth_bytes` beyond its size now. An allocation that
// does not fit even after collecting calls `exceeded(argument)` once, lifts
// the limit and completes: no allocation fails, since compiled code and
// GMP allocate through paths that cannot raise an error; the runtime stops
// the guest at its next safepoint instead. One limit per process (the heap
// is shared): false if another owner holds one. Initialize()s first.
bool SetHeapLimit(size_t growth_bytes, void (*exceeded)(void*), void* argument);
// Removes `argument`'s limit (if it is the owner): the heap is unbounded again.
void ClearHeapLimit(void* argument);

// Runs `function` on a new thread with a stack of `stack_bytes` (reserved,
// committed as used) that the collector scans, and waits for it. Guest code
// runs there so deep recursion has room (StackLimit guards the end).
void RunOnLargeStack(size_t stack_bytes, void (*function)(void*), void* argument);

// Registers the calling thread with the collector for the scope's life (its
// stack and registers become roots, and it may allocate). For threads not
// started through RunOnLargeStack, e.g. compiler threads.
class ScopedThreadRegistration {
 public:
  ScopedThreadRegistration();
  ~ScopedThreadRegistration();
  ScopedThreadRegistration(const ScopedThreadRegistration&) = delete;
  ScopedThreadRegistration& operator=(const ScopedThreadRegistration&) = delete;

 private:
  bool registered_ = false;
};

// Runs `function(argument)` with the calling thread inactive for the
// collector (Boehm's GC_do_blocking): collections neither stop the thread
// nor scan the frames `function` uses (the caller's frames and registers
// still are). For waits that touch no collected memory and allocate none:
// a condition variable, a join. On a thread the collector does not know it
// just calls `function`.
void RunBlocking(void (*function)(void*), void* argument);
template <typename F>
void WhileBlocked(F&& function) {
  RunBlocking([](void* raw) { (*static_cast<std::remove_reference_t<F>*>(raw))(); },
              const_cast<void*>(static_cast<const void*>(&function)));
}

// Forces a full collection (tests, benchmarks).
void Collect();
// Bytes in the collected heap, including free blocks.
size_t HeapSize();

// What the collector did in this process since Initialize(), for
// --engine.PrintHeapStatistics and the benchmark runner. Counters are
// process-wide, whichever engine or thread allocated.
struct Statistics {
  // Bytes allocated through the collector: AllocateTraced, AllocateAtomic,
  // AllocateRoot and compiled code's inline free lists (heap_inline.h)
  // (Boehm's GC_get_total_bytes). A thread's free list of one size is
  // refilled a batch at a time and the batch counts when taken,
  // so the figure runs ahead of the objects handed out by at most a few KiB
  // per thread and size. Boehm counts no objects, only bytes.
  uint64_t allocated_bytes = 0;
  // Completed collections (automatic and Collect()).
  uint64_t collections = 0;
  // Wall time of those collections, from the moment the collecting thread
  // starts one (it holds the allocation lock; other threads wait for it or
  // are stopped) until it has marked and rebuilt the free lists. The
  // sweeping that later allocations do on the way (Boehm sweeps lazily)
  // is not included.
  uint64_t gc_nanoseconds = 0;
  // Wall time since Initialize().
  uint64_t elapsed_nanoseconds = 0;
  // Heap size now (GC_get_heap_size), and the free part of it.
  uint64_t heap_bytes = 0;
  uint64_t free_bytes = 0;
  // Threads that mark in a collection (the collecting thread included).
  int markers = 1;
  // Whether the collector runs in incremental (generational) mode.
  bool incremental = false;
};
Statistics GetStatistics();

// One line, no newline, `name=value` fields separated by spaces:
//   allocated_bytes=N collections=N gc_ms=X total_ms=X gc_percent=X
//   heap_bytes=N free_bytes=N markers=N incremental=0|1
// (times in milliseconds with three decimals, gc_percent = 100 * gc_ms /
// total_ms with two).
std::string FormatStatistics(const Statistics& statistics);

// A std allocator whose storage is a root: containers of guest values.
template <typename T>
struct TracedAllocator {
  using value_type = T;
  TracedAllocator() = default;
  template <typename U>
  TracedAllocator(const TracedAllocator<U>&) {}
  T* allocate(size_t n) {
    void* p = AllocateRoot(n * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { FreeRoot(p); }
  template <typename U>
  bool operator==(const TracedAllocator<U>&) const { return true; }
};

template <typename T>
using TracedVector = std::vector<T, TracedAllocator<T>>;

// Base for C++ objects that live outside the collected heap but hold guest
// values (nodes, caches): their storage is a root.
struct RootAllocated {
  static void* operator new(size_t bytes) {
    void* p = AllocateRoot(bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  static void operator delete(void* p) { FreeRoot(p); }
};

}  // namespace morel::heap

#endif  // MOREL_NODES_HEAP_H_
