#ifndef MOREL_ENGINE_RUNTIME_INLINING_H_
#define MOREL_ENGINE_RUNTIME_INLINING_H_

// The inlining phase of a compilation (Truffle's AgnosticInliningPhase,
// truffle_reference §2.1), joining the partial evaluator (engine/pe) and the
// call-tree inliner (inliner/):
//
//   1. the root is partially evaluated on its own: its size and call sites
//      make the call tree's root (every direct call a Cutoff child);
//   2. the policy (Default for the last tier, TrivialOnly for the first, or
//      the one named by InliningPolicy / FirstTierInliningPolicy) expands
//      Cutoff nodes -- each expansion partially evaluates the callee on its
//      own and reports its IR node count after dead-code elimination and
//      its call sites -- and marks some Expanded nodes Inlined;
//   3. the root is partially evaluated again, this time evaluating the body
//      of every Inlined call into the graph (PartialEvaluator::TryInline):
//      arguments become SSA values, so constant arguments fold; a call
//      site of an inlined graph that this evaluation never reaches (folded
//      away) becomes Removed; a callee whose evaluation bails out stays a
//      call (BailedOut).
//
// Sizes are IR instruction counts after partial evaluation, never AST node
// counts. Exploring costs one extra partial evaluation of the root and one
// of every expanded callee (the figures are in the closing note of #12).
// TODO(#12): keep the explored graphs and copy them into the caller (as
// Truffle's CallTree does) instead of evaluating Inlined callees again in
// step 3; today that second evaluation is most of the inliner's compile
// time. The root is evaluated twice even when nothing is inlined (most
// first-tier compilations): its explored graph cannot be reused as it is,
// because exploration measures it without the first tier's profiling
// prologue and after DCE (the `pe` dump shows the graph before it).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/ir/runtime_function.h"
#include "engine/pe/partial_evaluator.h"
#include "inliner/call_tree.h"
#include "inliner/inlining_policy.h"
#include "nodes/call_target.h"

namespace morel::runtime {

struct InliningSettings {
  inliner::InliningOptions options;
  // The policy's name ("" chooses by tier: inliner::CreatePolicy).
  std::string policy;
  bool first_tier = false;
  bool trace = false;          // TraceInlining
  bool trace_details = false;  // TraceInliningDetails
  bool dump_call_tree = false;  // Graphviz before/after (DumpCallTree)
};

// What the phase reports for the compilation's traces.
struct InliningReport {
  int inlined_y = 0;  // "opt done |Inlined xY zN"
  int inlined_n = 0;
  std::vector<std::string> trace;     // TraceInlining lines, without "[engine] "
  std::vector<CallTarget*> dequeue;   // "Target inlined into only caller"
  std::string dot_before, dot_after;  // dump_call_tree
};

// Partially evaluates `target` with the inlining phase (steps 1-3 above).
// The caller holds the target's tree lock; each callee's is tried while it
// is evaluated (a callee another compilation holds is not inlined).
absl::StatusOr<std::unique_ptr<pe::Compilation>> PartiallyEvaluateWithInlining(
    CallTarget& target, ir::RuntimeRegistry& runtime, const pe::PartialEvaluator::Options& options,
    const InliningSettings& settings, InliningReport* report);

}  // namespace morel::runtime

#endif  // MOREL_ENGINE_RUNTIME_INLINING_H_
