// EngineLog: the "[engine] " prefix, --engine.Log file output, errors.

#include "engine/runtime/engine_log.h"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"

namespace morel::runtime {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

TEST(EngineLogTest, LogPrefixesLinesAndWriteDoesNot) {
  std::string path = TempPath("prefix.log");
  absl::StatusOr<std::unique_ptr<EngineLog>> log = EngineLog::Open(path);
  ASSERT_TRUE(log.ok()) << log.status();
  (*log)->Log("opt done fib");
  (*log)->Write("raw text\n");
  (*log)->Log("");
  EXPECT_EQ(ReadFile(path), "[engine] opt done fib\nraw text\n[engine] \n");
}

TEST(EngineLogTest, OpenTruncatesTheFile) {
  std::string path = TempPath("truncate.log");
  { std::ofstream(path) << "old content\n"; }
  absl::StatusOr<std::unique_ptr<EngineLog>> log = EngineLog::Open(path);
  ASSERT_TRUE(log.ok());
  (*log)->Log("new");
  EXPECT_EQ(ReadFile(path), "[engine] new\n");
}

TEST(EngineLogTest, DefaultsToStandardError) {
  testing::internal::CaptureStderr();
  EngineLog log;
  log.Log("to stderr");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "[engine] to stderr\n");

  absl::StatusOr<std::unique_ptr<EngineLog>> empty = EngineLog::Open("");
  ASSERT_TRUE(empty.ok());
  testing::internal::CaptureStderr();
  (*empty)->Log("also stderr");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "[engine] also stderr\n");
}

TEST(EngineLogTest, EngineWritesToTheConfiguredLogFile) {
  std::string path = TempPath("engine.log");
  config::EngineConfig config;
  config.set_log(path);
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(config);
  ASSERT_TRUE(engine.ok()) << engine.status();
  (*engine)->log().Log("hello");
  EXPECT_EQ(ReadFile(path), "[engine] hello\n");
}

TEST(EngineLogTest, UnopenablePathIsAnErrorNamingTheOption) {
  config::EngineConfig config;
  config.set_log(TempPath("no/such/directory/engine.log"));
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(config);
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), absl::StatusCode::kInvalidArgument);
  std::string message(engine.status().message());
  EXPECT_NE(message.find("engine.Log"), std::string::npos) << message;
  EXPECT_NE(message.find("no/such/directory/engine.log"), std::string::npos) << message;
}

TEST(EngineLogTest, ConcurrentLinesStayWhole) {
  std::string path = TempPath("threads.log");
  absl::StatusOr<std::unique_ptr<EngineLog>> log = EngineLog::Open(path);
  ASSERT_TRUE(log.ok());
  constexpr int kThreads = 4;
  constexpr int kLines = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kLines; ++i) (*log)->Log(absl::StrCat("thread ", t, " line ", i));
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::vector<std::string> lines =
      absl::StrSplit(ReadFile(path), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), static_cast<size_t>(kThreads * kLines));
  int next[kThreads] = {};
  for (const std::string& line : lines) {
    int t = line.size() > 16 ? line[16] - '0' : -1;
    ASSERT_TRUE(t >= 0 && t < kThreads) << line;
    EXPECT_EQ(line, absl::StrCat("[engine] thread ", t, " line ", next[t]));
    ++next[t];
  }
}

}  // namespace
}  // namespace morel::runtime
