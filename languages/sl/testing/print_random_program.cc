// Prints the SL program the differential fuzzer generates from a file of
// bytes (a corpus entry or a reproducer), so that a crash found by
// sl_differential_fuzzer can be run with the launcher and reduced:
//
//   bazel run //languages/sl/testing:print_random_program -- FILE > /tmp/p.sl

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "languages/sl/testing/random_program.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: print_random_program FILE\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "print_random_program: cannot read %s\n", argv[1]);
    return 1;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  const std::string program =
      morel::sl::testing::RandomSlProgramFromBytes(absl::MakeConstSpan(bytes));
  std::fwrite(program.data(), 1, program.size(), stdout);
  return 0;
}
