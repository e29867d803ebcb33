// Node: adoption, parent and root lookup, Replace, CountNodes, source
// sections and polymorphism reports of detached nodes.

#include "nodes/node.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nodes/call_target.h"
#include "nodes/root_node.h"
#include "testing/test_language/builders.h"
#include "testing/test_language/test_runtime.h"

namespace morel {
namespace {

using test_language::Add;
using test_language::AddNode;
using test_language::Arg;
using test_language::Block;
using test_language::BlockNode;
using test_language::Const;
using test_language::ConstantNode;
using test_language::DefineFunction;
using test_language::Function;
using test_language::Invoke;
using test_language::TestRuntime;
using test_language::TlRootNode;

std::vector<Node*> Children(Node& node) {
  std::vector<Node*> children;
  node.ForEachChild([&](ChildSlot& slot) { children.push_back(slot.get()); });
  return children;
}

TEST(NodeTest, CallTargetAdoptsTheWholeTree) {
  TestRuntime runtime;
  CallTarget* target =
      DefineFunction(runtime, "f", Block(Const(1), Add(Const(2), Const(3))));
  auto* root = static_cast<TlRootNode*>(target->root_node());
  Node* block = root->body();
  std::vector<Node*> statements = Children(*block);
  ASSERT_EQ(statements.size(), 2u);
  std::vector<Node*> operands = Children(*statements[1]);
  ASSERT_EQ(operands.size(), 2u);

  EXPECT_EQ(root->parent(), nullptr);
  EXPECT_EQ(block->parent(), root);
  EXPECT_EQ(statements[0]->parent(), block);
  EXPECT_EQ(statements[1]->parent(), block);
  EXPECT_EQ(operands[0]->parent(), statements[1]);
  EXPECT_EQ(operands[1]->parent(), statements[1]);
  for (Node* node : {static_cast<Node*>(root), block, statements[0], operands[1]}) {
    EXPECT_EQ(node->GetRootNode(), root);
  }
  EXPECT_EQ(root->call_target(), target);
}

TEST(NodeTest, DetachedTreeHasNoRoot) {
  auto tree = Add(Const(1), Const(2));
  EXPECT_EQ(Children(*tree)[0]->parent(), nullptr);  // not adopted yet
  tree->AdoptChildren();
  Node* left = Children(*tree)[0];
  EXPECT_EQ(left->parent(), tree.get());
  EXPECT_EQ(left->GetRootNode(), nullptr);
  EXPECT_EQ(tree->GetRootNode(), nullptr);
}

TEST(NodeTest, AdoptAttachesALateChildAndItsSubtree) {
  auto parent = Const(0);
  auto late = Add(Const(1), Const(2));
  parent->Adopt(*late);
  EXPECT_EQ(late->parent(), parent.get());
  EXPECT_EQ(Children(*late)[1]->parent(), late.get());
}

TEST(NodeTest, ReplaceSwapsTheParentSlotAndAdoptsTheReplacement) {
  TestRuntime runtime;
  CallTarget* target = DefineFunction(runtime, "f", Block(Const(1), Const(2)));
  auto* root = static_cast<TlRootNode*>(target->root_node());
  Node* block = root->body();
  auto* old_node = static_cast<ConstantNode*>(Children(*block)[1]);
  EXPECT_EQ(target->Call({}), Value::Long(2));

  auto replacement = Add(Const(20), Const(22));
  Node* expected = replacement.get();
  Node* returned = old_node->Replace(std::move(replacement), "constant folded away");

  EXPECT_EQ(returned, expected);
  std::vector<Node*> statements = Children(*block);
  EXPECT_EQ(statements[1], expected);
  EXPECT_EQ(expected->parent(), block);
  EXPECT_EQ(Children(*expected)[0]->parent(), expected);
  EXPECT_EQ(Children(*expected)[1]->GetRootNode(), root);
  EXPECT_EQ(target->Call({}), Value::Long(42));

  // Retired, not freed: a node may replace itself while it executes. (Under
  // ASan a freed node would be a use after free here.)
  EXPECT_EQ(old_node->value(), Value::Long(2));
  EXPECT_EQ(std::string(old_node->kind_name()), "ConstantNode");

  std::vector<TestRuntime::Replacement> replacements = runtime.replacements();
  ASSERT_EQ(replacements.size(), 1u);
  EXPECT_EQ(replacements[0].target, target);
  EXPECT_EQ(replacements[0].old_kind, "ConstantNode");
  EXPECT_EQ(replacements[0].new_kind, "AddNode");
  EXPECT_EQ(replacements[0].reason, "constant folded away");
}

TEST(NodeTest, ReplaceOfTheRootsDirectChild) {
  TestRuntime runtime;
  CallTarget* target = DefineFunction(runtime, "f", Const(1));
  auto* root = static_cast<TlRootNode*>(target->root_node());
  root->body()->Replace(Const(7), "new body");
  EXPECT_EQ(root->body()->parent(), root);
  EXPECT_EQ(target->Call({}), Value::Long(7));
  ASSERT_EQ(runtime.replacements().size(), 1u);
  EXPECT_EQ(runtime.replacements()[0].reason, "new body");
}

TEST(NodeTest, ReplaceInARootWithoutCallTargetTellsNoRuntime) {
  TlRootNode root("f", Block(Const(1)));
  root.AdoptChildren();
  Node* old_node = Children(*root.body())[0];
  Node* new_node = old_node->Replace(Const(2), "no target");
  EXPECT_EQ(Children(*root.body())[0], new_node);
  EXPECT_EQ(new_node->GetRootNode(), &root);
  EXPECT_EQ(std::string(old_node->kind_name()), "ConstantNode");  // retired
}

TEST(NodeTest, ReplaceInADetachedTree) {
  auto block = Block(Const(1), Const(2));
  block->AdoptChildren();
  Node* new_node = Children(*block)[0]->Replace(Const(3), "detached");
  EXPECT_EQ(Children(*block)[0], new_node);
  EXPECT_EQ(new_node->parent(), block.get());
}

TEST(NodeDeathTest, ReplaceWithoutParentAborts) {
  auto orphan = Const(1);
  EXPECT_DEATH(orphan->Replace(Const(2), "orphan"), "has no parent");
}

TEST(NodeTest, CountNodesCountsTheSubtree) {
  EXPECT_EQ(Const(1)->CountNodes(), 1);
  EXPECT_EQ(Add(Const(1), Const(2))->CountNodes(), 3);
  EXPECT_EQ(Block(Const(1), Add(Const(2), Const(3)), Block())->CountNodes(), 6);
}

TEST(NodeTest, CountNodesIncludesInlineCacheChildren) {
  TestRuntime runtime;
  CallTarget* callee = DefineFunction(runtime, "callee", Const(1));
  // root, invoke, callee constant, indirect call node
  CallTarget* caller = DefineFunction(runtime, "caller", Invoke(Function(callee)));
  EXPECT_EQ(caller->root_node()->CountNodes(), 4);
  caller->Call({});
  // + the cache entry's DirectCallNode
  EXPECT_EQ(caller->root_node()->CountNodes(), 5);
  EXPECT_EQ(caller->uninitialized_node_count(), 4);
}

TEST(NodeTest, EncapsulatingSourceSectionIsTheNearestAncestorsSection) {
  auto source = std::make_shared<const Source>("test.tl", "1 + 2");
  SourceSection section{source, 1, 1, 0, 5};
  auto add = std::make_unique<AddNode>(Const(1), Const(2), section);
  add->AdoptChildren();
  Node* left = Children(*add)[0];
  EXPECT_FALSE(left->source_section().IsValid());
  ASSERT_NE(left->EncapsulatingSourceSection(), nullptr);
  EXPECT_EQ(left->EncapsulatingSourceSection(), &add->source_section());
  EXPECT_EQ(left->EncapsulatingSourceSection()->char_length, 5);
  EXPECT_EQ(add->EncapsulatingSourceSection(), &add->source_section());

  auto bare = Add(Const(1), Const(2));
  bare->AdoptChildren();
  EXPECT_EQ(Children(*bare)[0]->EncapsulatingSourceSection(), nullptr);
}

TEST(NodeTest, ReportPolymorphicSpecializeNeedsACallTarget) {
  TestRuntime runtime;
  auto detached = Const(1);
  detached->ReportPolymorphicSpecialize();  // unadopted: nothing to tell

  TlRootNode root_without_target("r", Const(1));
  root_without_target.AdoptChildren();
  root_without_target.body()->ReportPolymorphicSpecialize();
  EXPECT_EQ(runtime.polymorphic_report_count(), 0);

  CallTarget* target = DefineFunction(runtime, "f", Const(1));
  auto* body = static_cast<TlRootNode*>(target->root_node())->body();
  body->ReportPolymorphicSpecialize();
  ASSERT_EQ(runtime.polymorphic_report_count(), 1);
  EXPECT_EQ(runtime.polymorphic_report_sources()[0], body);
}

}  // namespace
}  // namespace morel
