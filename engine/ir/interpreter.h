#ifndef MOREL_ENGINE_IR_INTERPRETER_H_
#define MOREL_ENGINE_IR_INTERPRETER_H_

// A reference interpreter for the IR, for tests: it runs a function on
// concrete arguments and reports what it returned or where it deoptimized.
// Differential tests compare a function before and after optimization.
// Pure opcodes use semantics.h (the constant folder's definitions); load and
// store access host memory at ptr + offset; calls go to caller-provided
// hooks.

#include <cstdint>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/ir/deopt_frame.h"
#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"

namespace morel::ir {

struct ExecutionResult {
  enum class Kind { kReturned, kDeoptimized };
  Kind kind = Kind::kReturned;
  std::vector<int64_t> values;     // kReturned
  std::string reason;              // kDeoptimized
  // kDeoptimized: the guard's/deopt's action (whether the code stays).
  DeoptAction action = DeoptAction::kInvalidate;
  std::vector<DeoptFrame> frames;  // kDeoptimized: innermost first, then parents
  // kDeoptimized: the virtual objects the frames name (DeoptFrame::Slot::
  // object), not yet allocated (MaterializeDeoptObjects).
  std::vector<DeoptObject> objects;
  bool operator==(const ExecutionResult&) const = default;
};

std::string DebugString(const ExecutionResult& result);

struct InterpreterOptions {
  // Instructions executed before giving up (ResourceExhausted).
  int64_t max_steps = 1000000;
  std::function<absl::StatusOr<std::vector<int64_t>>(const RuntimeFunction&,
                                                     absl::Span<const int64_t>)>
      call_runtime;
  std::function<absl::StatusOr<std::vector<int64_t>>(int64_t target,
                                                     absl::Span<const int64_t>)>
      call_target;
  // `alloc`: zero-filled memory of the given size (a guest heap's traced
  // allocation). Unset: `alloc` is undefined.
  std::function<void*(int64_t bytes)> allocate;
  // Where the SSA values live. Empty: the interpreter's own memory. Else
  // caller-owned storage of at least ValueTableSize(function) words, which
  // the interpreter clears and uses for every SSA value, the arguments of
  // the call being made and block arguments being copied. A runtime whose
  // values can be pointers to garbage-collected objects passes memory its
  // collector scans (Morel's IR tier: a heap::TracedVector) and keeps it
  // until it has used the result: then no value the function still holds
  // is freed by a collection while a hook runs (and allocates), and the
  // returned values and deopt slots stay reachable after Interpret returns,
  // e.g. while the runtime resumes in its interpreter (as a deoptimizing
  // native frame stays on the stack during the resume).
  absl::Span<int64_t> value_table;
  // If set, every call_target/call_runtime hook runs with `*lazy_frames`
  // pointing at the call's evaluated lazy frame state (innermost first), or
  // null if the call has none; null again after the hook. A runtime's stack
  // walk materializes the activation from it while the callee runs.
  const std::vector<DeoptFrame>** lazy_frames = nullptr;
  // `safepoint`: if set, the word it polls (the runtime's safepoint word,
  // as compiled code polls it); non-zero deoptimizes at the safepoint's
  // frame state with reason "safepoint" and DeoptAction::kKeepCode. Unset:
  // `safepoint` does nothing.
  const std::atomic<int64_t>* safepoint_word = nullptr;
};

// Words `value_table` must hold for `function`.
size_t ValueTableSize(const Function& function);

// Runs `function` (which should verify). Errors: FailedPrecondition for
// undefined behavior (sdiv by zero, `unreachable` reached, a call without a
// hook), ResourceExhausted when out of steps.
absl::StatusOr<ExecutionResult> Interpret(const Function& function,
                                          absl::Span<const int64_t> args,
                                          const InterpreterOptions& options = {});

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_INTERPRETER_H_
