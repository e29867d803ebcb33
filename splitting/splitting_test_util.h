#ifndef MOREL_SPLITTING_SPLITTING_TEST_UTIL_H_
#define MOREL_SPLITTING_SPLITTING_TEST_UTIL_H_

// Helpers shared by the splitting tests: temporary files and log lines.

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace morel::splitting::testing {

inline std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

// The file's lines (without the final empty one).
inline std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> lines = absl::StrSplit(ReadFile(path), '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Lines that start with `prefix`.
inline std::vector<std::string> LinesStartingWith(const std::vector<std::string>& lines,
                                                  const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& line : lines) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  }
  return out;
}

}  // namespace morel::splitting::testing

#endif  // MOREL_SPLITTING_SPLITTING_TEST_UTIL_H_
