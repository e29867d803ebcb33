#include "engine/opt/filetest.h"

#include <sstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/ir/parser.h"
#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/opt/pipeline.h"

namespace morel::opt {
namespace {

constexpr absl::string_view kOutputMarker = "; output:";

// Content before the output marker.
absl::string_view InputPart(absl::string_view content) {
  size_t pos = content.find(kOutputMarker);
  while (pos != absl::string_view::npos && pos != 0 && content[pos - 1] != '\n') {
    pos = content.find(kOutputMarker, pos + 1);
  }
  return pos == absl::string_view::npos ? content : content.substr(0, pos);
}

std::string Header(absl::string_view content, absl::string_view key) {
  for (absl::string_view line : absl::StrSplit(InputPart(content), '\n')) {
    if (absl::ConsumePrefix(&line, ";") ) {
      line = absl::StripLeadingAsciiWhitespace(line);
      if (absl::ConsumePrefix(&line, key) && absl::ConsumePrefix(&line, ":")) {
        return std::string(absl::StripAsciiWhitespace(line));
      }
    }
  }
  return "";
}

}  // namespace

std::string RunFileTest(absl::string_view content) {
  ir::RuntimeRegistry registry;
  absl::string_view input = InputPart(content);
  auto functions = ir::ParseFunctions(input, &registry);
  if (!functions.ok()) return absl::StrCat("error: ", functions.status().message(), "\n");
  PipelineOptions options;
  options.verify_ir = true;
  std::string fuel = Header(content, "fuel");
  if (!fuel.empty() && !absl::SimpleAtoi(fuel, &options.optimization_fuel)) {
    return "error: bad '; fuel:' header\n";
  }
  auto pipeline = BuildPipeline(Header(content, "passes"), options);
  if (!pipeline.ok()) return absl::StrCat("error: ", pipeline.status().message(), "\n");
  std::string out;
  for (size_t i = 0; i < functions->size(); ++i) {
    ir::Function& f = *(*functions)[i];
    if (i > 0) out += "\n";
    absl::StatusOr<bool> r = (*pipeline)->Run(f);
    if (!r.ok()) {
      absl::StrAppend(&out, "error: ", r.status().message(), "\n");
      continue;
    }
    out += ir::PrintFunction(f);
  }
  return out;
}

std::string ExpectedOutput(absl::string_view content) {
  absl::string_view input = InputPart(content);
  if (input.size() == content.size()) return "";
  absl::string_view rest = content.substr(input.size() + kOutputMarker.size());
  absl::ConsumePrefix(&rest, "\n");
  std::string out;
  for (absl::string_view line : absl::StrSplit(rest, '\n')) {
    if (!absl::ConsumePrefix(&line, ";")) continue;
    absl::ConsumePrefix(&line, " ");
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

std::string BlessFileTest(absl::string_view content, absl::string_view actual) {
  std::string input(InputPart(content));
  while (!input.empty() && (input.back() == '\n' || input.back() == ' ')) input.pop_back();
  std::string out = absl::StrCat(input, "\n\n", kOutputMarker, "\n");
  absl::string_view body = actual;
  absl::ConsumeSuffix(&body, "\n");
  for (absl::string_view line : absl::StrSplit(body, '\n')) {
    absl::StrAppend(&out, line.empty() ? ";" : absl::StrCat("; ", line), "\n");
  }
  return out;
}

}  // namespace morel::opt
