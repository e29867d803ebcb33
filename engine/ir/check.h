#ifndef MOREL_ENGINE_IR_CHECK_H_
#define MOREL_ENGINE_IR_CHECK_H_

// MOREL_CHECK(cond) << nothing: aborts with file, line and the condition text
// when an internal invariant of the IR library is broken. Invariants are
// programming errors; malformed input (text, IR handed to the verifier) is
// reported through absl::Status instead.

#include "absl/base/internal/raw_logging.h"

#define MOREL_CHECK(cond) ABSL_RAW_CHECK(cond, #cond)
#define MOREL_CHECK_MSG(cond, msg) ABSL_RAW_CHECK(cond, msg)

#endif  // MOREL_ENGINE_IR_CHECK_H_
