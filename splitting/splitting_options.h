#ifndef MOREL_SPLITTING_SPLITTING_OPTIONS_H_
#define MOREL_SPLITTING_SPLITTING_OPTIONS_H_

// The splitting options (Truffle's EngineData fields). splitting/ owns them:
// the engine resolves them once from its EngineConfig
// (engine/runtime/splitting_config.h: `enabled` is Splitting && Mode !=
// latency, and the interpreter thresholds that TraceSplitting prints come
// from the compilation options, truffle_reference §4.2); a program using
// splitting/ alone sets them directly. The defaults are the EngineConfig's.

#include <string>

namespace morel::splitting {

struct SplittingOptions {
  bool enabled = true;
  bool allow_forced_splits = true;
  bool dump_decisions = false;
  double growth_limit = 1.5;
  int max_callee_size = 100;
  int max_propagation_depth = 5;
  bool trace_events = false;
  bool trace_splitting = false;
  bool trace_summary = false;
  // SplittingForceAll, and SplittingAllowForcedSplits: every direct call
  // node makes a forced split at its first call.
  bool force_all = false;
  // Where SplittingDumpDecisions writes (DumpPath + "/splitting").
  std::string dump_directory = "morel_dumps/splitting";

  // For the TraceSplitting properties (OptimizedCallTarget#getDebugProperties).
  bool multi_tier = true;
  int call_threshold_in_interpreter = 1;
  int call_and_loop_threshold_in_interpreter = 400;
};

}  // namespace morel::splitting

#endif  // MOREL_SPLITTING_SPLITTING_OPTIONS_H_
