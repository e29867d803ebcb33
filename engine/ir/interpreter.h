#ifndef MOREL_ENGINE_IR_INTERPRETER_H_
#define MOREL_ENGINE_IR_INTERPRETER_H_

// A reference interpreter for the IR, for tests: it runs a function on
// concrete arguments and reports what it returned or where it deoptimized.
// Differential tests compare a function before and after optimization.
// Pure opcodes use semantics.h (the constant folder's definitions); load and
// store access host memory at ptr + offset; calls go to caller-provided
// hooks.

#include <cstdint>
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
  std::vector<DeoptFrame> frames;  // kDeoptimized: innermost first, then parents
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
};

// Runs `function` (which should verify). Errors: FailedPrecondition for
// undefined behavior (sdiv by zero, `unreachable` reached, a call without a
// hook), ResourceExhausted when out of steps.
absl::StatusOr<ExecutionResult> Interpret(const Function& function,
                                          absl::Span<const int64_t> args,
                                          const InterpreterOptions& options = {});

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_INTERPRETER_H_
