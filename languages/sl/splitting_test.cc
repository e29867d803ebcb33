// Splitting on SL: the splitting guide's example (DOC/splitting/Splitting.md,
// truffle_reference §5). `add` is called only from `double`, which has two
// callers, so the `+` going polymorphic marks `double` and, via the parent,
// `add`. The copies of `double` are split first; each then splits `add`, so
// every copy of `add` holds a monomorphic `+`. `add` stays marked, so a call
// site created later gets its own copy too. Also: the summary is printed
// when the engine closes, after normal ends, errors and exit(n).

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/runtime/engine.h"
#include "gtest/gtest.h"
#include "languages/sl/nodes/arithmetic_nodes.h"
#include "languages/sl/sl_context.h"
#include "languages/sl/sl_launcher.h"
#include "nodes/call_nodes.h"
#include "nodes/heap.h"

namespace morel::sl {
namespace {

constexpr char kGuideExample[] = R"(
function add(arg1, arg2) {
  return arg1 + arg2;
}

function double(arg1) {
  return add(arg1, arg1);
}

function callsDouble() {
  double(1);
  double("foo");
}

function main() {
  i = 0;
  while (i < 10) {
    callsDouble();
    i = i + 1;
  }
  return add(1, 2);
}
)";

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

template <typename T>
std::vector<T*> NodesOf(CallTarget* target) {
  std::vector<T*> found;
  target->root_node()->ForEachNode([&](Node& node) {
    if (auto* typed = dynamic_cast<T*>(&node)) found.push_back(typed);
  });
  return found;
}

std::vector<CallTarget*> SplitsOf(runtime::Engine& engine, CallTarget* source) {
  std::vector<CallTarget*> splits;
  for (CallTarget* target : engine.call_targets()) {
    if (target->source_call_target() == source) splits.push_back(target);
  }
  return splits;
}

// Runs `body` on a large-stack thread the collector knows, as the launcher does.
void OnGuestThread(const std::function<void()>& body) {
  heap::RunOnLargeStack(
      size_t{64} << 20, [](void* f) { (*static_cast<const std::function<void()>*>(f))(); },
      const_cast<std::function<void()>*>(&body));
}

TEST(SLSplittingTest, GuideExampleMonomorphizesAdd) {
  config::EngineConfig config;
  config.set_trace_splitting(true);
  config.set_log(TempPath("guide.log"));
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine = runtime::Engine::Create(config);
  ASSERT_TRUE(engine.ok()) << engine.status();
  OnGuestThread([&] {
    SLContext context(engine->get(), stdout, stdin);
    absl::StatusOr<SLFunction*> main = context.Load(kGuideExample, "guide.sl");
    ASSERT_TRUE(main.ok()) << main.status();
    EXPECT_EQ(context.Call(*main, {}), Value::Long(3));

    CallTarget* add = context.functions().Find("add")->call_target();
    CallTarget* twice = context.functions().Find("double")->call_target();
    CallTarget* calls_double = context.functions().Find("callsDouble")->call_target();
    CallTarget* main_target = (*main)->call_target();
    EXPECT_TRUE(twice->needs_split());
    EXPECT_TRUE(add->needs_split());
    EXPECT_FALSE(calls_double->needs_split());

    // The original `+` went polymorphic before the marks.
    std::vector<SLAddNode*> original = NodesOf<SLAddNode>(add);
    ASSERT_EQ(original.size(), 1u);
    EXPECT_EQ(original[0]->specializer().ActiveNames(), "AddLong,Concat");

    // Both call sites in callsDouble call their own copy of double.
    std::vector<DirectCallNode*> double_calls = NodesOf<DirectCallNode>(calls_double);
    ASSERT_EQ(double_calls.size(), 2u);
    std::vector<CallTarget*> double_splits = SplitsOf(**engine, twice);
    ASSERT_EQ(double_splits.size(), 2u);
    for (DirectCallNode* call : double_calls) {
      EXPECT_TRUE(call->IsCallTargetCloned());
      EXPECT_EQ(call->current_call_target()->source_call_target(), twice);
    }

    // Three copies of add: one per copy of double, one for main's add(1, 2).
    std::vector<CallTarget*> add_splits = SplitsOf(**engine, add);
    ASSERT_EQ(add_splits.size(), 3u);
    std::vector<std::string> states;
    for (CallTarget* split : add_splits) {
      EXPECT_EQ(split->name(), absl::StrCat("add <split-", split->id(), ">"));
      std::vector<SLAddNode*> plus = NodesOf<SLAddNode>(split);
      ASSERT_EQ(plus.size(), 1u);
      EXPECT_EQ(plus[0]->specializer().ActiveCount(), 1) << split->name();
      states.push_back(plus[0]->specializer().ActiveNames());
      DirectCallNode* caller = split->single_call_node();
      ASSERT_NE(caller, nullptr);
      CallTarget* caller_target = caller->GetRootNode()->call_target();
      EXPECT_TRUE(caller_target == main_target ||
                  caller_target->source_call_target() == twice)
          << caller_target->name();
    }
    EXPECT_EQ(states, (std::vector<std::string>{"AddLong", "Concat", "AddLong"}));
    // The last one was split for the call site created after the loop.
    EXPECT_EQ(add_splits[2]->single_call_node()->GetRootNode(), main_target->root_node());
  });
  engine->reset();
  std::string log = ReadFile(TempPath("guide.log"));
  EXPECT_EQ(log.find("split failed"), std::string::npos) << log;
}

TEST(SLSplittingTest, NoSplitsWithSplittingOff) {
  config::EngineConfig config;
  config.set_splitting(false);
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine = runtime::Engine::Create(config);
  ASSERT_TRUE(engine.ok()) << engine.status();
  OnGuestThread([&] {
    SLContext context(engine->get(), stdout, stdin);
    absl::StatusOr<SLFunction*> main = context.Load(kGuideExample, "guide.sl");
    ASSERT_TRUE(main.ok()) << main.status();
    EXPECT_EQ(context.Call(*main, {}), Value::Long(3));
    for (CallTarget* target : (*engine)->call_targets()) EXPECT_FALSE(target->is_split());
    EXPECT_GT((*engine)->PolymorphicReportsByNodeClass()["SLAddNode"], 0);
  });
}

// Equality is excluded: mixed-type == never reports.
TEST(SLSplittingTest, EqualityDoesNotReport) {
  absl::StatusOr<std::unique_ptr<runtime::Engine>> engine =
      runtime::Engine::Create(config::EngineConfig());
  ASSERT_TRUE(engine.ok());
  OnGuestThread([&] {
    SLContext context(engine->get(), stdout, stdin);
    absl::StatusOr<SLFunction*> main = context.Load(R"(
      function eq(a, b) { return a == b; }
      function main() { eq(1, 1); eq("a", "b"); eq(true, 1); eq(null, 2); }
    )", "eq.sl");
    ASSERT_TRUE(main.ok()) << main.status();
    context.Call(*main, {});
    EXPECT_EQ((*engine)->polymorphic_report_count(), 0);
  });
}

struct LauncherCase {
  const char* name;
  const char* source;
  int status;
};

// The summary is printed when the engine closes, whatever ends the program.
TEST(SLSplittingTest, SummaryPrintedForNormalEndErrorAndExit) {
  for (const LauncherCase& c : {
           LauncherCase{"normal", "function main() { println(1); }", 0},
           LauncherCase{"error", "function main() { return 1 + null; }", 1},
           LauncherCase{"exit", "function main() { exit(7); }", 7},
       }) {
    ProgramRun run;
    run.source_text = c.source;
    run.source_name = "p.sl";
    run.config.set_trace_splitting_summary(true);
    run.config.set_log(TempPath(absl::StrCat("summary_", c.name, ".log")));
    std::FILE* out = std::tmpfile();
    run.out = out;
    run.err = out;
    EXPECT_EQ(RunProgram(run), c.status) << c.name;
    std::fclose(out);
    std::string log = ReadFile(run.config.log());
    EXPECT_EQ(log.rfind("[engine] Splitting Statistics\n", 0), 0u) << c.name << ": " << log;
    EXPECT_NE(log.find("\n--- NODES"), std::string::npos) << c.name;
  }
}

}  // namespace
}  // namespace morel::sl
