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
#include <memory>
#include <new>
#include <vector>

namespace morel::heap {

// Initializes the collector; idempotent and thread-safe. Called by the
// engine before any guest allocation. Sets the free-space divisor to 2
// (Boehm's default is 3: collect when allocation since the last collection
// reaches heap/3) unless GC_FREE_SPACE_DIVISOR is set, and starts with a
// 4 MiB heap unless GC_INITIAL_HEAP_SIZE is set; Boehm's other environment
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

// Forces a full collection (tests, benchmarks).
void Collect();
// Bytes in the collected heap, including free blocks.
size_t HeapSize();

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
