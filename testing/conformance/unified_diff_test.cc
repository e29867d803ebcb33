// UnifiedDiff: hunks, context, merged nearby changes, additions to an empty
// text and a missing final newline.

#include "testing/conformance/unified_diff.h"

#include <string>

#include "gtest/gtest.h"

namespace morel::conformance {
namespace {

TEST(UnifiedDiffTest, EqualTextsGiveOnlyTheHeaders) {
  EXPECT_EQ(UnifiedDiff("a\nb\n", "a\nb\n", "x", "y"), "--- x\n+++ y\n");
}

TEST(UnifiedDiffTest, OneChangedLineWithThreeLinesOfContext) {
  EXPECT_EQ(UnifiedDiff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n", "a", "b"),
            "--- a\n+++ b\n"
            "@@ -2,7 +2,7 @@\n"
            " 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiffTest, FarApartChangesMakeTwoHunksAndNearOnesOne) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += std::to_string(i) + "\n";
    b += (i == 2 || i == 18 ? "x" : std::to_string(i)) + "\n";
  }
  EXPECT_EQ(UnifiedDiff(a, b, "a", "b"),
            "--- a\n+++ b\n"
            "@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n 4\n 5\n"
            "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+x\n 19\n 20\n");
  EXPECT_EQ(UnifiedDiff("1\n2\n3\n4\n5\n6\n", "x\n2\n3\n4\n5\nx\n", "a", "b"),
            "--- a\n+++ b\n@@ -1,6 +1,6 @@\n-1\n+x\n 2\n 3\n 4\n 5\n-6\n+x\n");
}

TEST(UnifiedDiffTest, InsertionIntoAnEmptyText) {
  EXPECT_EQ(UnifiedDiff("", "something\n", "a", "b"),
            "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+something\n");
}

TEST(UnifiedDiffTest, MissingFinalNewlineIsADifference) {
  EXPECT_EQ(UnifiedDiff("end\n", "end", "a", "b"),
            "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-end\n+end\n\\ No newline at end of file\n");
}

TEST(UnifiedDiffTest, ContextIsAParameter) {
  EXPECT_EQ(UnifiedDiff("1\n2\n3\n", "1\nx\n3\n", "a", "b", /*context=*/0),
            "--- a\n+++ b\n@@ -2,1 +2,1 @@\n-2\n+x\n");
}

}  // namespace
}  // namespace morel::conformance
