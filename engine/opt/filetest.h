#ifndef MOREL_ENGINE_OPT_FILETEST_H_
#define MOREL_ENGINE_OPT_FILETEST_H_

// IR file tests (Cranelift "precise output" style). A test file is IR text
// with a header and its expected output at the end, all in comments:
//
//   ; passes: canonicalize,dce     (optional; none = parse, verify, print)
//   ; fuel: 3                      (optional OptimizationFuel)
//   ; free-form description
//   func @f(i64) -> (i64) { ... }
//
//   ; output:
//   ; func @f(i64) -> (i64) {
//   ; ...
//
// The runner parses the functions, runs the pipeline on each with VerifyIR
// on, and prints them (or "error: <message>" for a parse, verification or
// pass error). The expected section must match exactly; bless mode
// rewrites it from the actual output.

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace morel::opt {

// The actual output for a test file's content.
std::string RunFileTest(absl::string_view content);

// The expected output recorded in `content` (empty if there is none).
std::string ExpectedOutput(absl::string_view content);

// `content` with its expected-output section replaced by `actual`.
std::string BlessFileTest(absl::string_view content, absl::string_view actual);

}  // namespace morel::opt

#endif  // MOREL_ENGINE_OPT_FILETEST_H_
