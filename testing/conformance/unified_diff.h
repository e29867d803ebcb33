#ifndef MOREL_TESTING_CONFORMANCE_UNIFIED_DIFF_H_
#define MOREL_TESTING_CONFORMANCE_UNIFIED_DIFF_H_

// UnifiedDiff: a line-by-line unified diff of two texts, the format of
// `diff -u` (`--- a` / `+++ b` headers, `@@ -l,n +l,n @@` hunks, `\ No
// newline at end of file` after a last line without one), for the reports
// of the golden-file runners.

#include <string>

#include "absl/strings/string_view.h"

namespace morel::conformance {

// The diff from `expected` (lines marked `-`) to `actual` (`+`), with
// `context` unchanged lines around each change; just the two header lines
// when the texts are equal. The edit script is a longest common
// subsequence; when the differing middle parts are very large (more than
// 4M line pairs) it degrades to deleting all of one and inserting the other.
std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        absl::string_view expected_name, absl::string_view actual_name,
                        size_t context = 3);

}  // namespace morel::conformance

#endif  // MOREL_TESTING_CONFORMANCE_UNIFIED_DIFF_H_
