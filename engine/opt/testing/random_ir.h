#ifndef MOREL_ENGINE_OPT_TESTING_RANDOM_IR_H_
#define MOREL_ENGINE_OPT_TESTING_RANDOM_IR_H_

// Test support: a seeded generator of valid IR that gives the optimizer
// work — straight-line arithmetic (often against fresh constants, for
// folding and identities), overflow checks, comparisons, selects, safe
// divisions, i32 round trips, guards with frame states, redundant
// recomputations of earlier pure instructions (for GVN), and a forward CFG
// (jump, br with block arguments, return of a digest of every available
// value, deopt). Functions are `(i64, i64, i64) -> (i64)`; each block may
// use the entry block's values and its own. The defaults give small
// functions of 1 to 6 blocks.
//
// Used by random_ir_test (optimized and unoptimized IR must agree in the
// reference interpreter) and, at a larger size, by ir_benchmark.

#include <cstdint>
#include <memory>

#include "engine/ir/function.h"

namespace morel::opt::testing {

struct RandomIrOptions {
  // The number of blocks is drawn from [min_blocks, max_blocks].
  int min_blocks = 1;
  int max_blocks = 6;
  // Each block gets [min_block_steps, max_block_steps] generator steps before
  // its terminator; a step appends 0 to 5 instructions (about 2 on average).
  int min_block_steps = 2;
  int max_block_steps = 12;
  // Every block but the last ends in a jump or br to the next block, so
  // the whole function is reachable (until a br on a constant is folded);
  // only the last block returns or deopts. Off: any terminator, to any
  // later block — large functions are then mostly unreachable.
  bool all_blocks_reachable = false;
  // Also objects: `alloc`, i64 and ptr fields stored and loaded back,
  // objects stored into objects, address comparisons, objects in guard
  // frame states (as i64 payloads), and objects escaping into `escape_slot`
  // (a word the caller owns, written through a pconst). Addresses never
  // reach the integers a function returns, so results do not depend on
  // where objects are allocated; run with InterpreterOptions::allocate.
  bool objects = false;
  const void* escape_slot = nullptr;
  // Loops: a block may branch back to an earlier block that dominates it,
  // while `*loop_counter` (a word the caller zeroes before each run,
  // incremented at every back edge) is below 6 -- so every run ends.
  int64_t* loop_counter = nullptr;
};

// The same seed and options always give the same function.
std::unique_ptr<ir::Function> RandomFunction(uint32_t seed, const RandomIrOptions& options = {});

// The number of instructions in the function's blocks (terminators
// included; block parameters and frame states not counted).
int64_t CountInstructions(const ir::Function& function);

}  // namespace morel::opt::testing

#endif  // MOREL_ENGINE_OPT_TESTING_RANDOM_IR_H_
