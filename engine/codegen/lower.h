#ifndef MOREL_ENGINE_CODEGEN_LOWER_H_
#define MOREL_ENGINE_CODEGEN_LOWER_H_

// Lowering: engine/ir (SSA, block parameters, frame states) -> machine IR
// (machine_function.h) plus a DeoptMap (deopt_map.h). Target-independent: it
// asks the Backend only for its RegisterInfo (argument/return registers,
// caller-saved set) and IsLegalImmediate.
//
// Contract (see README.md for the full list):
//   * Values: one vreg per IR value; integers are kept in canonical form in
//     64-bit registers (i1 = 0/1, i32 sign-extended, types.h), so narrow
//     arithmetic is 64-bit arithmetic followed by re-normalization.
//     Constants are rematerialized at each use (kMovImm, or an immediate
//     operand when IsLegalImmediate), and are constants in deopt states.
//   * Entry: `mov vN, <argument register N>`. Return: up to 2 values in the
//     return registers (rax:rdx on x86_64).
//   * Block parameters: copies in the predecessor (through fresh temporaries
//     when an argument is itself a parameter of the target); a `br` edge
//     that passes arguments gets its own edge block (critical edges split).
//   * call_runtime: arguments in the argument registers, kCall to
//     RuntimeFunction::address, results from the return registers.
//   * call_target <id>(args): if LoweringOptions::resolve_call_target gives
//     an address, a direct call with the args in the argument registers
//     (more args than registers: Unimplemented); otherwise a call of
//     LoweringOptions::call_target_dispatch as
//       `ValuePair dispatch(int64_t id, const uint64_t* operands, int64_t n)`
//     with the call's n operands stored in the function's outgoing-argument
//     area (MachineFunction::ReserveOutgoingArea, MOp::kOutgoingArea) --
//     any number of them; for guest values (payload, tag) pairs the area is
//     an array of `struct Value {uint64_t bits, tag;}` -- and `operands`
//     null when n = 0. Results in the return registers.
//   * guard: kDeoptIf with a DeoptState; `iadd/isub/imul` +
//     `*_overflows` + `not` + `guard` (i64) fuse into add.ovf/sub.ovf/mul.ovf
//     whose overflow exit is the guard's deopt; a guard on a single-use icmp
//     becomes one compare-and-exit. `deopt` is kDeopt; a call with a lazy
//     frame state carries its DeoptState on the kCall.
//   * `unreachable` is a kDeopt with an entry of cause kUnreachable (decoding
//     it fails), never a silent fall-through. `safepoint` polls
//     LoweringOptions::safepoint_word: a load and a kDeoptIf (word != 0)
//     whose exit resumes at the eager frame state with reason "safepoint"
//     and DeoptAction::kKeepCode (DeoptEntry::Cause::kSafepoint); without a
//     word it emits nothing (code that cannot be interrupted).
//   * alloc N: kAlloc (machine_function.h) with LoweringOptions::heap's
//     allocator and, if it offers one for N bytes, the thread-pointer offset
//     of the free list the inline fast path pops.
//   * sdiv/srem rely on the IR contract that the divisor is neither 0 nor
//     -1 with a MIN dividend (the partial evaluator guards them).
//   * Unimplemented (a status naming the opcode, never a miscompile): any f64
//     value (fadd..fdiv, bitcast/load/store of f64, f64 parameters), i1/i32
//     load and store (the machine IR has only 64-bit memory operations),
//     more parameters, or operands of a call_runtime or a resolved
//     call_target, than argument registers, more than 2 results.

#include <cstdint>
#include <functional>
#include <optional>

#include "absl/status/statusor.h"
#include "engine/codegen/backend.h"
#include "engine/codegen/deopt_map.h"
#include "engine/codegen/machine_function.h"
#include "engine/ir/function.h"

namespace morel::codegen {

// How compiled code allocates (`alloc N`): the engine injects its heap, so
// lowering and backends never see it.
//
// The fast path follows Boehm's gc_inline.h (GC_FAST_MALLOC_GRANS): each
// thread has free lists of ready objects, one per size class, whose heads
// lie at fixed offsets from the thread pointer (the static TLS block). A
// list is null (empty) or its first object; each object's word 0 links to
// the next (null at the end) and every other word is zero; every object is
// at least as large as the sizes the list serves and traced by the
// collector, and the heads are memory the collector scans. Compiled code
// pops the head, stores the link as the new head and clears the link word;
// on an empty list it calls `allocate`, which may refill the list.
struct HeapAllocation {
  // `void* allocate(int64_t bytes)`: a new zero-filled object of at least
  // `bytes` that the collector traces (may collect, so the collector must
  // find the caller's values in its registers and frame: Morel's is
  // conservative). Never null. Required if the function has an `alloc`.
  const void* allocate = nullptr;
  // The inline fast path (optional): for `bytes`, the offset from the
  // thread pointer of the calling thread's free-list head for objects of
  // that size, or nullopt (call `allocate` directly).
  std::function<std::optional<int32_t>(int64_t bytes)> free_list_head;
};

struct LoweringOptions {
  // The runtime's call_target dispatcher (see above). Required if the
  // function has a call_target that resolve_call_target does not resolve.
  const void* call_target_dispatch = nullptr;
  // Optional: installed code for a target id (a direct call), or nullptr.
  std::function<const void*(int64_t target_id)> resolve_call_target;
  // `alloc` (see HeapAllocation).
  HeapAllocation heap;
  // The 64-bit word `safepoint` polls (NodeRuntime::safepoint_word()): non-zero
  // asks compiled code to leave for the interpreter. Null: no poll.
  const void* safepoint_word = nullptr;
};

struct LoweredFunction {
  MachineFunction mf;
  DeoptMap deopt_map;  // not resolved yet (no code)
};

// `function` should verify (ir::Verify). Unreachable blocks are dropped.
absl::StatusOr<LoweredFunction> Lower(const ir::Function& function, const Backend& backend,
                                      const LoweringOptions& options = {});

}  // namespace morel::codegen

#endif  // MOREL_ENGINE_CODEGEN_LOWER_H_
