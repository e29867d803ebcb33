// Fuzz target (testing/fuzz): any bytes as an SL source unit. ParseProgram
// must return a program or an error in the format of sl_spec §4.3, never
// crash. The grammar-aware variant is sl_grammar_fuzzer.cc.

#include <cstdint>
#include <string>

#include "absl/strings/match.h"
#include "languages/sl/parser/ast_printer.h"
#include "languages/sl/parser/parser.h"
#include "testing/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto program = morel::sl::ParseProgram(morel::fuzz::AsText(data, size), "fuzz.sl");
  if (program.ok()) {
    morel::sl::PrintProgram(**program);
  } else if (!absl::StartsWith(program.status().message(), "Error(s) parsing script:\n-- line ")) {
    morel::fuzz::FuzzFailure("parse errors read \"Error(s) parsing script:\\n-- line L col C: ...\"",
                             program.status().ToString());
  }
  return 0;
}
