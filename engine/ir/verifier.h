#ifndef MOREL_ENGINE_IR_VERIFIER_H_
#define MOREL_ENGINE_IR_VERIFIER_H_

// The IR verifier. Checks, in this order of reporting:
//
// Function and blocks
//   - there is an entry block; its parameters match the function's
//     parameter types; no branch targets the entry block;
//   - every block is non-empty and ends in exactly one terminator, with no
//     terminator before the end;
//   - every instruction's block() is the block that lists it.
// Instructions
//   - operand count and types per the opcode table (type_rules.h); result
//     count and types per the table (a call returns at most 2 values);
//   - the type suffix, callee, frame state and reason are present where the
//     format needs them; a runtime callee that may deoptimize has a lazy
//     frame state; guards, safepoints and deopts reference eager frame
//     states, calls lazy ones; only guards and deopts carry a deopt
//     action other than the default (`keep_code`);
//   - only loads and stores carry an alias class (alias_class.h);
//   - jump/br: the right number of targets, each a block of this function,
//     with one argument per parameter of the matching type;
//   - return: values match the function's result types.
// Values and dominance
//   - every use (operands, block arguments, frame-state inputs of the
//     instruction's frame state and its parents) refers to a value that is
//     still attached to this function;
//   - in reachable blocks, every use is dominated by its definition (same
//     block: defined earlier; block parameter: its block dominates). Uses in
//     unreachable blocks are not dominance-checked (DCE removes them).
// Frame states
//   - locals/stack entries are (i64, i64) pairs (locals may be illegal);
//     the parent chain is acyclic and stays within the function.
//
// All errors found are reported, one per line, each naming the block and
// printing the offending instruction, e.g.
//   block2: v7 = iadd v1, v5: operand types differ (i64 vs i32)

#include "absl/status/status.h"
#include "engine/ir/function.h"

namespace morel::ir {

// OK, or InvalidArgument listing every error found.
absl::Status Verify(const Function& function);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_VERIFIER_H_
