#ifndef MOREL_NODES_DIRECTIVES_H_
#define MOREL_NODES_DIRECTIVES_H_

// Compiler directives (Truffle's CompilerDirectives), with their meaning in
// the two places node code runs:
//
//   directive                             interpreter (C++ compiler)            partial evaluator
//   TransferToInterpreter()               no-op; the path is cold               deoptimize here, keep the code
//   TransferToInterpreterAndInvalidate()  no-op; the path is cold               deoptimize and invalidate the code
//   InInterpreter()                       true                                  false (the branch folds away)
//   MOREL_BOUNDARY                        out of line, never inlined            a call the PE does not enter
//   MOREL_INLINING_CUTOFF                 never inlined into its callers        (no meaning: the PE runs node
//                                                                               templates, it inlines no C++)
//   MOREL_SLOW_PATH                       out of line and cold                  (as BOUNDARY)
//   MOREL_FAST_PATH                       always inlined into its caller        (no meaning, as CUTOFF)
//   MOREL_FAST_LAMBDA                     the same, for a lambda                (no meaning, as CUTOFF)
//   MOREL_NO_STACK_PROTECTOR              no stack canary                       (no meaning)
//
// MOREL_NO_STACK_PROTECTOR is for the interpreter's call path (a node's
// Execute, CallTarget::Call), whose only stack arrays are guest Values
// (alloca'd arguments and frame slots, never text): the toolchain's
// -fstack-protector gave each call two canary checks, 12 of its about 260
// instructions (callgrind, fib).
//
// testing/host_inlining checks the optimized build: the SL nodes' fast paths
// and the bytecode dispatch loop keep no call but to children and to
// functions marked here (or runtime calls, guest calls and throws).
//
// There is no loop-explosion directive: the partial evaluator runs every C++
// loop of a node's template at compile time, so a loop over compilation-final
// data (children, specializations) is always unrolled, and one over run-time
// data cannot be written in a template at all.
//
// `bazel run //tools/host_inlining` prints what GCC inlined into each of those
// fast paths and why it left the rest.
//
// The bytecode interpreter switch is a type, not a macro: a root derived from
// bytecode::BytecodeRootNodeWith<InlinedOperations<Op...>> runs a dispatch
// loop with those operations' fast paths inlined, at most
// kMaxInlinedOperations classes (nodes/bytecode/bytecode_switch.h).
//
// Specialization bodies reach the same directives through their context
// (InterpreterContext::RewriteOn, Call<&F>); these free forms are for
// hand-written node code.

namespace morel {

[[gnu::cold]] inline void TransferToInterpreter() {}
[[gnu::cold]] inline void TransferToInterpreterAndInvalidate() {}
inline constexpr bool InInterpreter() { return true; }

}  // namespace morel

#define MOREL_BOUNDARY [[gnu::noinline]]
#define MOREL_SLOW_PATH [[gnu::noinline, gnu::cold]]
#define MOREL_INLINING_CUTOFF [[gnu::noinline]]
// For a function on a node's fast path that the host compiler would rather
// keep out of line (a guard with several cases called from a loop over cache
// entries): testing/host_inlining fails when such a call stays a call.
#define MOREL_FAST_PATH [[gnu::always_inline]] inline
// The same for a lambda (after its parameter list): a continuation on the
// fast path, e.g. ExecuteEach's (nodes/execution.h).
#define MOREL_FAST_LAMBDA __attribute__((always_inline))
#define MOREL_NO_STACK_PROTECTOR [[gnu::no_stack_protector]]
#define MOREL_LIKELY(x) __builtin_expect(!!(x), 1)
#define MOREL_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif  // MOREL_NODES_DIRECTIVES_H_
