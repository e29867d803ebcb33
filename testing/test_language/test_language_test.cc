// The test language itself: programs evaluate as documented, and an
// uninitialized clone of a root starts over.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel::test_language {
namespace {

TEST(TestLanguageTest, EvaluatesArithmeticOnLongsDoublesAndStrings) {
  TestRuntime runtime;
  CallTarget* add = DefineFunction(runtime, "add", Add(Arg(0), Arg(1)));
  EXPECT_EQ(add->Call({Value::Long(2), Value::Long(3)}), Value::Long(5));
  EXPECT_EQ(add->Call({Value::Double(0.5), Value::Long(1)}), Value::Double(1.5));
  Value joined = add->Call({MakeString("a"), Value::Long(1)});
  ASSERT_TRUE(joined.Is(kStringTag));
  EXPECT_EQ(std::string(StringOf(joined)), "a1");
  EXPECT_THROW(add->Call({Value::Boolean(true), Value::Long(1)}), TlError);
}

TEST(TestLanguageTest, LoopsOverLocals) {
  TestRuntime runtime;
  auto descriptor = std::make_unique<FrameDescriptor>();
  int i = descriptor->AddSlot("i");
  int sum = descriptor->AddSlot("sum");
  CallTarget* f = DefineFunction(
      runtime, "sum_below",
      Block(Write(i, Const(0)), Write(sum, Const(0)),
            While(LessThan(Read(i), Arg(0)),
                  Block(Write(sum, Add(Read(sum), Read(i))), Write(i, Add(Read(i), Const(1))))),
            Read(sum)),
      std::move(descriptor));
  EXPECT_EQ(f->Call({Value::Long(5)}), Value::Long(0 + 1 + 2 + 3 + 4));
}

TEST(TestLanguageTest, CallsDirectlyAndThroughFunctionValues) {
  TestRuntime runtime;
  CallTarget* twice = DefineFunction(runtime, "twice", Add(Arg(0), Arg(0)));
  CallTarget* direct = DefineFunction(runtime, "direct", CallDirect(twice, Arg(0)));
  CallTarget* invoke = DefineFunction(runtime, "invoke", Invoke(Arg(0), Arg(1)));
  EXPECT_EQ(direct->Call({Value::Long(4)}), Value::Long(8));
  EXPECT_EQ(invoke->Call({FunctionValue(twice), Value::Long(5)}), Value::Long(10));
  EXPECT_THROW(invoke->Call({Value::Long(1), Value::Long(5)}), TlError);
}

TEST(TestLanguageTest, ErrorsAreGuestErrors) {
  TestRuntime runtime;
  CallTarget* f = DefineFunction(runtime, "f", ThrowIf(Arg(0), "boom"));
  EXPECT_EQ(f->Call({Value::Boolean(false)}), Value::Boolean(false));
  try {
    f->Call({Value::Boolean(true)});
    FAIL() << "no error";
  } catch (const GuestError& error) {
    EXPECT_EQ(error.message(), "boom");
  }
  CallTarget* g = DefineFunction(runtime, "g", Arg(3));
  EXPECT_THROW(g->Call({}), TlError);
}

TEST(TestLanguageTest, CloneUninitializedStartsWithoutSpecializations) {
  TestRuntime runtime;
  auto descriptor = std::make_unique<FrameDescriptor>();
  int x = descriptor->AddSlot("x");
  CallTarget* f = DefineFunction(runtime, "f", Block(Write(x, Add(Arg(0), Arg(1))), Read(x)),
                                 std::move(descriptor), {.cloning_allowed = true});
  f->Call({Value::Long(1), Value::Long(2)});
  f->Call({Value::Double(1), Value::Long(2)});
  auto* root = static_cast<TlRootNode*>(f->root_node());
  auto* block = root->body();
  int original_nodes = root->CountNodes();

  std::unique_ptr<RootNode> clone = root->CloneUninitialized();
  ASSERT_NE(clone, nullptr);
  EXPECT_EQ(clone->name(), "f");
  EXPECT_TRUE(clone->IsCloningAllowed());
  EXPECT_EQ(clone->CountNodes(), original_nodes);
  EXPECT_EQ(clone->frame_descriptor().size(), 1);
  EXPECT_EQ(clone->frame_descriptor().kind(x), FrameSlotKind::kIllegal);
  EXPECT_EQ(f->root_node()->frame_descriptor().kind(x), FrameSlotKind::kObject);

  // Find the AddNodes of both trees: the original is specialized, the copy not.
  auto find_add = [](Node* start) {
    AddNode* found = nullptr;
    std::function<void(Node*)> walk = [&](Node* node) {
      if (auto* add = dynamic_cast<AddNode*>(node)) found = add;
      node->ForEachChild([&](ChildSlot& slot) {
        if (slot.get() != nullptr) walk(slot.get());
      });
    };
    walk(start);
    return found;
  };
  AddNode* original_add = find_add(block);
  AddNode* clone_add = find_add(clone.get());
  ASSERT_NE(original_add, nullptr);
  ASSERT_NE(clone_add, nullptr);
  EXPECT_NE(original_add, clone_add);
  EXPECT_EQ(std::string(original_add->specializer().ActiveNames()), "AddInt,AddWide");
  EXPECT_EQ(clone_add->specializer().state(), 0u);
}

TEST(TestLanguageTest, CloneOfACallMakesANewCallNodeToTheOriginalCallee) {
  TestRuntime runtime;
  CallTarget* callee = DefineFunction(runtime, "callee", Const(1));
  CallTarget* caller = DefineFunction(runtime, "caller", CallDirect(callee),
                                      nullptr, {.cloning_allowed = true});
  EXPECT_EQ(callee->call_sites_known(), 1);
  std::unique_ptr<RootNode> clone = caller->root_node()->CloneUninitialized();
  EXPECT_EQ(callee->call_sites_known(), 2);
  auto* call = static_cast<CallDirectNode*>(static_cast<TlRootNode*>(clone.get())->body());
  EXPECT_EQ(call->call_node()->call_target(), callee);
}

TEST(TestLanguageTest, RootOptionsReachTheCallTarget) {
  TestRuntime runtime;
  CallTarget* counted = DefineFunction(runtime, "counted", Add(Const(1), Const(2)));
  CallTarget* sized = DefineFunction(runtime, "sized", Add(Const(1), Const(2)), nullptr,
                                     {.compute_size = 42});
  EXPECT_FALSE(counted->root_node()->IsCloningAllowed());
  EXPECT_EQ(counted->uninitialized_node_count(), 4);  // root, add, 2 constants
  EXPECT_EQ(sized->uninitialized_node_count(), 42);
}

}  // namespace
}  // namespace morel::test_language
