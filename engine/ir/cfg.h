#ifndef MOREL_ENGINE_IR_CFG_H_
#define MOREL_ENGINE_IR_CFG_H_

// Control-flow graph queries over a Function's layout: predecessors,
// reverse postorder, reachability. Computed on demand (nothing is cached in
// the IR, so passes never see stale CFG data).

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/ir/function.h"

namespace morel::ir {

// Predecessor edges of every block, in layout order of the predecessor; a
// block appears twice in a list if both arms of a br target the block.
// Edges from blocks without a terminator are ignored.
absl::flat_hash_map<const Block*, std::vector<Block*>> ComputePredecessors(
    const Function& function);

// The blocks reachable from the entry, in reverse postorder (entry first).
std::vector<Block*> ReversePostorder(const Function& function);

}  // namespace morel::ir

#endif  // MOREL_ENGINE_IR_CFG_H_
