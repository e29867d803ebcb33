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
#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"

namespace morel::ir {

// One frame of a deoptimization: the evaluated frame state.
struct DeoptFrame {
  int64_t call_target_id = 0;
  int64_t resume_point = 0;
  // nullopt-free encoding: illegal locals are {0, 0} with `legal` false.
  struct Slot {
    bool legal = false;
    int64_t payload = 0, tag = 0;
    bool operator==(const Slot&) const = default;
  };
  std::vector<Slot> locals;
  std::vector<Slot> stack;
  bool operator==(const DeoptFrame&) const = default;
};

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
