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
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/types/span.h"
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

// The same generator with every choice read from `choices` (see
// testing/fuzz/byte_reader.h: once the bytes run out every choice is the
// smallest), for fuzzing (engine/opt/optimizer_fuzzer.cc): a mutated byte
// changes one decision.
std::unique_ptr<ir::Function> RandomFunctionFromBytes(absl::Span<const uint8_t> choices,
                                                     const RandomIrOptions& options = {});

// The number of instructions in the function's blocks (terminators
// included; block parameters and frame states not counted).
int64_t CountInstructions(const ir::Function& function);

// The objects of one run of ExecuteForComparison: results are compared by
// the objects' contents and identity, never by their addresses.
class ComparisonHeap {
 public:
  void* Allocate(int64_t bytes);
  // `x`, or the object at address `x` with its fields, objects numbered by
  // first appearance (@n), so two names of one object show.
  std::string Describe(int64_t x, std::map<int64_t, int>& seen) const;

 private:
  std::deque<std::vector<int64_t>> words_;
  std::map<int64_t, std::vector<int64_t>*> objects_;
};

// Runs `f` in the reference interpreter on `args` with a fresh
// ComparisonHeap (zeroing `*loop_counter` first, if given) and describes
// the result so that two runs compare as text: the returned values, or the
// deoptimization reason with every frame slot (objects by contents and
// identity), or the error.
std::string ExecuteForComparison(const ir::Function& f, const std::vector<int64_t>& args,
                                 int64_t* loop_counter = nullptr);

}  // namespace morel::opt::testing

#endif  // MOREL_ENGINE_OPT_TESTING_RANDOM_IR_H_
