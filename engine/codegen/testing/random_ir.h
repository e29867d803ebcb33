#ifndef MOREL_ENGINE_CODEGEN_TESTING_RANDOM_IR_H_
#define MOREL_ENGINE_CODEGEN_TESTING_RANDOM_IR_H_

// Test support: a seeded generator of valid, terminating, UB-free IR for
// differential tests of lowering (and of anything else that must preserve
// the reference interpreter's behaviour). Functions are
// `(i64, i64, i64) -> (i64, i64)` built from nested regions: straight-line
// code (every integer opcode lowering supports, at i1/i32/i64; overflow
// checks as values and as the iadd+iadd_overflows+not+guard pattern;
// division by safe divisors; select; guards with frame states, stack
// entries, illegal locals and inlined parents), if/else diamonds joining
// through block parameters, counted loops carrying values in block
// parameters, runtime calls (optionally with lazy frame states),
// call_target, 64-bit loads/stores to a caller-provided buffer, and
// optionally allocations and virtual objects in frame states. Guards
// mostly hold, sometimes fail; functions end in `return` or `deopt`.

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/ir/function.h"
#include "engine/ir/runtime_function.h"

namespace morel::codegen::testing {

struct RandomIrOptions {
  // (i64, i64) -> (i64) and (i64, i64) -> (i64, i64); null: no such calls.
  const ir::RuntimeFunction* call1 = nullptr;
  const ir::RuntimeFunction* call2 = nullptr;
  // call_target ids 1..n with these operand counts (a target has a fixed
  // arity, as in the runtime); results are (i64, i64). Empty: none.
  std::vector<int> call_target_arities;
  // 8 int64_t words loads and stores may use; null: no memory operations.
  int64_t* memory = nullptr;
  // `alloc` (objects of 8..64 bytes whose i64 fields are written and read,
  // linked through a ptr field at offset 0 that is compared with null) and
  // virtual objects in eager frame states (i64, i32 and constant fields,
  // fields naming other virtual objects or themselves, one object named by
  // several slots and frames). No result or deopt value depends on an
  // address. Off: the same functions as before for every seed.
  bool objects = false;
};

std::unique_ptr<ir::Function> RandomFunction(uint32_t seed, const RandomIrOptions& options);

}  // namespace morel::codegen::testing

#endif  // MOREL_ENGINE_CODEGEN_TESTING_RANDOM_IR_H_
