// The event line layout (formatEvent), source descriptions and a target's
// debug properties, checked character by character.

#include "splitting/event_format.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "nodes/source.h"
#include "splitting/splitting_test_runtime.h"
#include "testing/test_language/builders.h"

namespace morel::splitting {
namespace {

using test_language::Arg;
using test_language::Const;
using test_language::DefineFunction;

TEST(FormatEventTest, PadsEventIndentAndSubjectLikeJava) {
  EXPECT_EQ(FormatEvent(0, "split   0-7 ", 12, "add", 60, {}, 0),
            "split   0-7  add" + std::string(57, ' '));
  EXPECT_EQ(FormatEvent(0, "opt", 12, "f", 10, {}, 0),
            "opt" + std::string(9, ' ') + " " + "f" + std::string(9, ' '));
  // Depth 2: four more spaces of indent, four fewer of subject width.
  EXPECT_EQ(FormatEvent(2, "e", 2, "s", 6, {}, 0), "e " + std::string(5, ' ') + "s ");
  // A subject wider than its column is not cut.
  EXPECT_EQ(FormatEvent(0, "e", 1, "long-subject", 4, {}, 0), "e long-subject");
}

TEST(FormatEventTest, FormatsPropertiesByType) {
  std::vector<EventProperty> properties = {
      {"Int", 42}, {"Double", 3.14159}, {"Text", std::string("  12")}};
  EXPECT_EQ(FormatEvent(0, "e", 1, "s", 1, properties, 0),
            "e s|Int     42 |Double     3.14 |Text   12 ");
  // A property width pads values to the right of the name.
  EXPECT_EQ(FormatEvent(0, "e", 1, "s", 1, {{"AB", std::string("x")}}, 6),
            "e s|AB    x ");
}

TEST(ShortSourceDescriptionTest, SingleAndMultiLineSections) {
  auto source = std::make_shared<Source>("prog.sl", "function f() {\n  return 1;\n}\n");
  SourceSection whole{source, 1, 1, 0, 28};
  EXPECT_EQ(ShortSourceDescription(&whole), "prog.sl~1-3:0-27");
  SourceSection one_line{source, 2, 3, 17, 9};
  EXPECT_EQ(ShortSourceDescription(&one_line), "prog.sl~2:17-25");
  SourceSection one_char{source, 1, 10, 9, 1};
  EXPECT_EQ(ShortSourceDescription(&one_char), "prog.sl~1:9");
  SourceSection invalid;
  EXPECT_EQ(ShortSourceDescription(&invalid), "<Unknown>");
  EXPECT_EQ(ShortSourceDescription(nullptr), "<Unknown>");
}

TEST(TargetDebugPropertiesTest, AstTierAndThresholds) {
  SplittingOptions options;
  SplittingTestRuntime runtime(options);
  CallTarget* f = DefineFunction(runtime, "f", test_language::Add(Arg(0), Const(1)));
  f->Call({Value::Long(1)});
  f->Call({Value::Long(2)});
  EXPECT_EQ(FormatEvent(0, "e", 1, "f", 1, TargetDebugProperties(*f, options), 0),
            "e f|AST    4 |Tier 1 |Calls/Thres       2/    1 "
            "|CallsAndLoop/Thres       2/  400 ");
  // Single tier (MultiTier=false): the engine's thresholds are those of the
  // single tier (engine/runtime/splitting_config.h).
  options.multi_tier = false;
  options.call_threshold_in_interpreter = 3;
  options.call_and_loop_threshold_in_interpreter = 1000;
  EXPECT_EQ(FormatEvent(0, "e", 1, "f", 1, TargetDebugProperties(*f, options), 0),
            "e f|AST    4 |Calls/Thres       2/    3 |CallsAndLoop/Thres       2/ 1000 ");
}

TEST(CallSiteSourceDescriptionTest, WalksUpToTheFirstSection) {
  SplittingOptions options;
  SplittingTestRuntime runtime(options);
  CallTarget* callee = DefineFunction(runtime, "callee", Const(1));
  auto source = std::make_shared<Source>("t.tl", "call(callee)\n");
  auto block = std::make_unique<test_language::BlockNode>(
      test_language::List(test_language::CallDirect(callee)), SourceSection{source, 1, 1, 0, 12});
  auto* call_expression = static_cast<test_language::CallDirectNode*>(
      [&]() -> Node* {
        Node* found = nullptr;
        block->ForEachChild([&](ChildSlot& slot) { found = slot.get(); });
        return found;
      }());
  DefineFunction(runtime, "caller", std::move(block));
  EXPECT_EQ(CallSiteSourceDescription(*call_expression->call_node()), "t.tl~1:0-11");
  // Detached: no root on the way up.
  auto detached = DirectCallNode::Create(callee);
  EXPECT_EQ(CallSiteSourceDescription(*detached), "");
}

}  // namespace
}  // namespace morel::splitting
