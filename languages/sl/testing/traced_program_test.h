#ifndef MOREL_LANGUAGES_SL_TESTING_TRACED_PROGRAM_TEST_H_
#define MOREL_LANGUAGES_SL_TESTING_TRACED_PROGRAM_TEST_H_

// A test fixture for engine behaviour seen from SL: one engine whose
// TraceCompilation log goes to a file of its own, one SL context with a
// loaded program, and helpers to call its functions and read the log.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/config/engine_config.pb.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "languages/sl/sl_context.h"

namespace morel::sl::testing {

class TracedProgramTest : public ::testing::Test {
 protected:
  // Creates the engine (`config` plus a log file and TraceCompilation) and
  // a context (running functions in the bytecode interpreter when
  // `use_bytecode`, --sl.UseBytecode), and loads `program` as
  // `source_name`. Ends an earlier start.
  void Start(config::EngineConfig config, absl::string_view program, absl::string_view source_name,
             bool use_bytecode = false);
  // Destroys the context, then the engine (which joins its compiler threads).
  void Stop();
  void TearDown() override { Stop(); }

  // Calls the loaded function `name`; its result as SL displays it.
  std::string Call(absl::string_view name, absl::Span<const Value> args);
  CallTarget& TargetOf(absl::string_view name);

  // The log's lines that start with `prefix` ("opt done", ...), in order.
  std::vector<std::string> LogLines(absl::string_view prefix) const;
  // How many log lines contain `needle`.
  int CountLogLines(absl::string_view needle) const;
  std::string Log() const;

  runtime::Engine& engine() { return *engine_; }
  SLContext& context() { return *context_; }

 private:
  std::string log_path_;
  std::unique_ptr<runtime::Engine> engine_;
  std::FILE* out_ = nullptr;
  std::unique_ptr<SLContext> context_;
};

}  // namespace morel::sl::testing

#endif  // MOREL_LANGUAGES_SL_TESTING_TRACED_PROGRAM_TEST_H_
