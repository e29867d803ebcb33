#include "testing/conformance/unified_diff.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace morel::conformance {
namespace {

struct Line {
  std::string text;
  bool newline;  // false only for a last line without a trailing newline
};

bool operator==(const Line& a, const Line& b) { return a.newline == b.newline && a.text == b.text; }

std::vector<Line> SplitLines(const std::string& text) {
  std::vector<Line> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back({text.substr(start), false});
      break;
    }
    lines.push_back({text.substr(start, end - start), true});
    start = end + 1;
  }
  return lines;
}

enum class Op { kKeep, kDelete, kInsert };

// Longest-common-subsequence edit script after stripping the common prefix
// and suffix (outputs usually differ in a few lines).
std::vector<Op> EditScript(const std::vector<Line>& a, const std::vector<Line>& b) {
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  const size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  std::vector<Op> ops(prefix, Op::kKeep);
  if (n * m > 4'000'000) {
    ops.insert(ops.end(), n, Op::kDelete);
    ops.insert(ops.end(), m, Op::kInsert);
  } else {
    // lcs[i][j] = LCS length of a[prefix+i..] and b[prefix+j..].
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        lcs[i][j] = a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1
                                                   : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
        ops.push_back(Op::kKeep);
        ++i;
        ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        ops.push_back(Op::kDelete);
        ++i;
      } else {
        ops.push_back(Op::kInsert);
        ++j;
      }
    }
  }
  ops.insert(ops.end(), suffix, Op::kKeep);
  return ops;
}

}  // namespace

std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        absl::string_view expected_name, absl::string_view actual_name,
                        size_t context) {
  const std::vector<Line> a = SplitLines(expected), b = SplitLines(actual);
  const std::vector<Op> ops = EditScript(a, b);
  std::string diff = absl::StrCat("--- ", expected_name, "\n+++ ", actual_name, "\n");
  // Positions (in a and b) of each op.
  std::vector<std::pair<size_t, size_t>> pos;
  size_t i = 0, j = 0;
  for (Op op : ops) {
    pos.push_back({i, j});
    if (op != Op::kInsert) ++i;
    if (op != Op::kDelete) ++j;
  }
  size_t k = 0;
  while (k < ops.size()) {
    if (ops[k] == Op::kKeep) {
      ++k;
      continue;
    }
    // A hunk: from `context` keeps before the change to `context` keeps after
    // the last change that is within 2*context of the previous one.
    size_t begin = k >= context ? k - context : 0;
    while (begin < k && ops[begin] != Op::kKeep) ++begin;
    size_t end = k;
    while (true) {
      while (end < ops.size() && ops[end] != Op::kKeep) ++end;
      size_t keeps = 0;
      while (end + keeps < ops.size() && ops[end + keeps] == Op::kKeep) ++keeps;
      if (end + keeps < ops.size() && keeps <= 2 * context) {
        end += keeps;
        continue;
      }
      end += std::min(keeps, context);
      break;
    }
    size_t a_start = pos[begin].first, b_start = pos[begin].second;
    size_t a_count = 0, b_count = 0;
    for (size_t x = begin; x < end; ++x) {
      if (ops[x] != Op::kInsert) ++a_count;
      if (ops[x] != Op::kDelete) ++b_count;
    }
    absl::StrAppendFormat(&diff, "@@ -%d,%d +%d,%d @@\n", a_count ? a_start + 1 : a_start, a_count,
                          b_count ? b_start + 1 : b_start, b_count);
    for (size_t x = begin; x < end; ++x) {
      const Line& line = ops[x] == Op::kInsert ? b[pos[x].second] : a[pos[x].first];
      char mark = ops[x] == Op::kKeep ? ' ' : ops[x] == Op::kDelete ? '-' : '+';
      absl::StrAppend(&diff, std::string(1, mark), line.text, "\n");
      if (!line.newline) diff += "\\ No newline at end of file\n";
    }
    k = end;
  }
  return diff;
}

}  // namespace morel::conformance
