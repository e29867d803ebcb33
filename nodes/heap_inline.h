#ifndef MOREL_NODES_HEAP_INLINE_H_
#define MOREL_NODES_HEAP_INLINE_H_

// Inline allocation of traced objects: what compiled code's `alloc` fast
// path pops (engine/codegen/lower.h HeapAllocation), after Boehm's
// gc_inline.h (GC_FAST_MALLOC_GRANS) but with Morel's own free lists, whose
// layout the backends may rely on:
//
//  * Every thread has kInlineFreeLists list heads in one thread_local array
//    of the static TLS block (nodes/ is linked into the program, never
//    dlopen'ed), so compiled code reaches head k at the same offset from
//    the thread pointer on every thread (InlineFreeListHeads).
//  * List k holds objects of k 16-byte granules (as the collector sizes
//    GC_MALLOC(n) for InlineFreeList(n) == k, the byte Boehm adds for
//    one-past-the-end pointers included). A head is null or the first
//    object; word 0 of each links to the next; every other word is zero
//    (GC_generic_malloc_many clears NORMAL-kind objects; gc_inline.h's
//    GC_MALLOC_WORDS clears only the link).
//  * Pop: object = head; head = object[0]; object[0] = 0. An empty list
//    calls AllocateTracedInline, which refills it through
//    GC_generic_malloc_many (a few KiB of objects at a time) and pops.
//
// Reachability. gc_inline.h asks that the list heads be traced: the heads
// are a collector root from a thread's first refill until it exits (the
// lists' objects then become garbage), so objects waiting in a list are
// never reclaimed under it, as Boehm's own thread-local lists are marked.
// They cost at most a block per size class per thread and hold nothing but
// their links. A popped object's link is cleared at once, so a live object
// never keeps the rest of the list, or anything else, alive. Compiled code
// keeps the object it pops and its successor in registers or in the head
// at every instruction, which the conservative collector scans when it
// stops the thread.
//
// The fast path needs a non-incremental collector (a manual-VDB collector
// would need GC_end_stubborn_change on every pop): in incremental mode
// InlineFreeList says -1 and compiled code always calls
// AllocateTracedInline (which then is GC_MALLOC).

#include <cstddef>
#include <cstdint>

namespace morel::heap {

// Lists 1..kInlineFreeLists-1 (24 granules, 384 bytes: Boehm's
// GC_TINY_FREELISTS); list 0 is unused.
inline constexpr int kInlineFreeLists = 25;

// The list compiled code pops for objects of `bytes`, or -1: no fast path
// (too large, or the collector is incremental). Initializes the collector.
int InlineFreeList(size_t bytes);

// This thread's heads: kInlineFreeLists words, at a fixed offset from the
// thread pointer (the runtime checks that it is the same on each thread).
void* const* InlineFreeListHeads();

// Compiled code's allocation function (HeapAllocation::allocate):
// zero-filled traced memory of `bytes`, taken from this thread's list for
// its size, which is refilled first if empty; larger objects come from
// GC_MALLOC. The thread must be registered with the collector.
void* AllocateTracedInline(int64_t bytes);

// How often this thread's lists were refilled (tests).
int64_t InlineRefillsOnThisThread();

}  // namespace morel::heap

#endif  // MOREL_NODES_HEAP_INLINE_H_
