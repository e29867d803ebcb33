// Runs IR file tests (filetest.h). Usage:
//   filetests [--bless] file.ir...
// With --bless (under `bazel run`), rewrites each file's expected output in
// the source tree ($BUILD_WORKSPACE_DIRECTORY) from the actual output.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/opt/filetest.h"

namespace {

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void PrintDiff(const std::string& expected, const std::string& actual) {
  std::vector<std::string> e = absl::StrSplit(expected, '\n');
  std::vector<std::string> a = absl::StrSplit(actual, '\n');
  for (size_t i = 0; i < std::max(e.size(), a.size()); ++i) {
    std::string el = i < e.size() ? e[i] : "<end>";
    std::string al = i < a.size() ? a[i] : "<end>";
    if (el != al) {
      std::cerr << "  first difference at output line " << i + 1 << ":\n"
                << "    expected: " << el << "\n    actual:   " << al << "\n";
      break;
    }
  }
  std::cerr << "  --- actual output ---\n" << actual;
}

}  // namespace

int main(int argc, char** argv) {
  bool bless = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--bless") {
      bless = true;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: filetests [--bless] file.ir...\n";
    return 2;
  }
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  int failed = 0;
  for (const std::string& file : files) {
    std::string content = Read(file);
    if (content.empty()) {
      std::cerr << "FAIL " << file << ": cannot read or empty\n";
      ++failed;
      continue;
    }
    std::string actual = morel::opt::RunFileTest(content);
    if (bless) {
      std::string target = workspace != nullptr ? std::string(workspace) + "/" + file : file;
      std::ofstream out(target);
      out << morel::opt::BlessFileTest(content, actual);
      std::cout << "blessed " << target << "\n";
      continue;
    }
    std::string expected = morel::opt::ExpectedOutput(content);
    if (expected != actual) {
      std::cerr << "FAIL " << file << "\n";
      PrintDiff(expected, actual);
      ++failed;
    } else {
      std::cout << "PASS " << file << "\n";
    }
  }
  std::cout << files.size() - failed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}
