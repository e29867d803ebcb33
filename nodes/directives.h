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
//   MOREL_INLINING_CUTOFF                 nothing                               do not inline through this call
//   MOREL_EXPLODE_LOOP                    nothing                               unroll: the loop runs over
//                                                                               compilation-final data
//   MOREL_SLOW_PATH                       out of line and cold                  (as BOUNDARY)
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
#define MOREL_INLINING_CUTOFF
#define MOREL_EXPLODE_LOOP
#define MOREL_LIKELY(x) __builtin_expect(!!(x), 1)
#define MOREL_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif  // MOREL_NODES_DIRECTIVES_H_
