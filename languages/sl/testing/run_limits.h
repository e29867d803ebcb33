#ifndef MOREL_LANGUAGES_SL_TESTING_RUN_LIMITS_H_
#define MOREL_LANGUAGES_SL_TESTING_RUN_LIMITS_H_

// The sandbox limits of differential runs (differential_test,
// sl_differential_fuzzer): every run has a heap and a CPU time limit (the
// engine's sandbox options), so that a generated program whose strings or
// numbers grow without bound ends with a clear error instead of running
// for minutes. A program over the interpreter's limits is not compared;
// the compiled modes get more room, so one over its limits where the
// interpreter was not is a mismatch.

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace morel::sl::testing {

// Added to the interpreter's (the baseline's) flags.
inline const std::vector<std::string>& InterpreterLimitFlags() {
  static const auto* flags =
      new std::vector<std::string>{"--engine.MaxHeapMemory=512MB", "--engine.MaxCPUTime=10s"};
  return *flags;
}
// Added to every compiled mode's flags.
inline const std::vector<std::string>& ModeLimitFlags() {
  static const auto* flags =
      new std::vector<std::string>{"--engine.MaxHeapMemory=1GB", "--engine.MaxCPUTime=60s"};
  return *flags;
}

// Whether a run ended over one of those limits (`err`: what it printed on
// stderr, or stdout and stderr together).
inline bool ExceededALimit(int status, absl::string_view err) {
  return status != 0 && absl::StrContains(err, "limit of ") && absl::StrContains(err, " exceeded.");
}

}  // namespace morel::sl::testing

#endif  // MOREL_LANGUAGES_SL_TESTING_RUN_LIMITS_H_
