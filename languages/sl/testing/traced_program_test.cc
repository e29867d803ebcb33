#include "languages/sl/testing/traced_program_test.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "languages/sl/runtime/value_printing.h"

namespace morel::sl::testing {

void TracedProgramTest::Start(config::EngineConfig config, absl::string_view program,
                              absl::string_view source_name, bool use_bytecode) {
  Stop();
  static int counter = 0;
  const char* dir = std::getenv("TEST_TMPDIR");
  log_path_ = absl::StrCat(dir != nullptr ? dir : "/tmp", "/engine_", ++counter, ".log");
  config.set_log(log_path_);
  config.set_trace_compilation(true);
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine = runtime::Engine::Create(config);
  ASSERT_TRUE(engine.ok()) << engine.status();
  engine_ = *std::move(engine);
  out_ = std::tmpfile();
  context_ = std::make_unique<SLContext>(engine_.get(), out_, stdin);
  context_->set_use_bytecode(use_bytecode);
  ASSERT_TRUE(context_->Load(program, source_name).ok());
}

void TracedProgramTest::Stop() {
  context_.reset();
  engine_.reset();
  if (out_ != nullptr) std::fclose(out_);
  out_ = nullptr;
}

std::string TracedProgramTest::Call(absl::string_view name, absl::Span<const Value> args) {
  return DisplayString(context_->Call(context_->functions().Lookup(name), args));
}

CallTarget& TracedProgramTest::TargetOf(absl::string_view name) {
  return *context_->functions().Lookup(name)->call_target();
}

std::vector<std::string> TracedProgramTest::LogLines(absl::string_view prefix) const {
  std::ifstream in(log_path_);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (absl::StartsWith(line, absl::StrCat("[engine] ", prefix))) lines.push_back(line);
  }
  return lines;
}

int TracedProgramTest::CountLogLines(absl::string_view needle) const {
  std::ifstream in(log_path_);
  int count = 0;
  for (std::string line; std::getline(in, line);) count += absl::StrContains(line, needle);
  return count;
}

std::string TracedProgramTest::Log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace morel::sl::testing
