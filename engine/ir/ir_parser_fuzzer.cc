// Fuzz target (testing/fuzz): IR text -> parser -> verifier -> printer ->
// parser. Any bytes must parse or fail with a status (never crash); a
// function that parses must verify or fail with a status; a function that
// verifies must print to text that parses and verifies again and prints
// identically (the printer and the parser agree on every verified function).

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/ir/function.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/runtime_function.h"
#include "engine/ir/verifier.h"
#include "testing/fuzz/fuzz_target.h"

namespace morel::ir {
namespace {

std::string Print(const Function& f) { return PrintRuntimeDeclarations(f) + PrintFunction(f); }

void CheckRoundTrip(const Function& f, absl::string_view input) {
  const std::string printed = Print(f);
  RuntimeRegistry registry;
  auto reparsed = ParseFunction(printed, &registry);
  if (!reparsed.ok()) {
    fuzz::FuzzFailure("a printed verified function parses",
                      absl::StrCat(reparsed.status().ToString(), "\nprinted:\n", printed,
                                   "input:\n", input));
  }
  absl::Status verified = Verify(**reparsed);
  if (!verified.ok()) {
    fuzz::FuzzFailure("a printed verified function verifies",
                      absl::StrCat(verified.ToString(), "\nprinted:\n", printed));
  }
  const std::string again = Print(**reparsed);
  if (again != printed) {
    fuzz::FuzzFailure("print(parse(print(f))) == print(f)",
                      absl::StrCat("first:\n", printed, "second:\n", again));
  }
}

}  // namespace
}  // namespace morel::ir

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace morel::ir;
  const absl::string_view text = morel::fuzz::AsText(data, size);
  RuntimeRegistry registry;
  auto functions = ParseFunctions(text, &registry);
  if (!functions.ok()) return 0;
  for (const std::unique_ptr<Function>& f : *functions) {
    if (Verify(*f).ok()) CheckRoundTrip(*f, text);
  }
  return 0;
}
